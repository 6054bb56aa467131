/**
 * Booting the real `dsh` headless: the process runner, the environment that
 * isolates a run in a throwaway `DSH_HOME`, and the overlays every boot needs.
 * Shared by the full-boot suite and `tools/record-sessions/main.ts`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { DSH_BIN, HOST_BIN_DIR, NODE22 } from './env.js';

export interface Exec {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/**
 * Run a command to completion without blocking the event loop (the mock model lives in this process).
 * With `group`, the command leads a process group of its own, and a timeout or its end stops the whole
 * group by its id: nothing it put in the background outlives it.
 */
export function exec(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; group?: boolean },
): Promise<Exec> {
  const started = Date.now();
  const group = options.group === true;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: group });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const stopGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is gone.
      }
    };
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${options.timeoutMs} ms]`;
      if (group) stopGroup();
      else child.kill('SIGKILL');
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (group) stopGroup();
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * The whole environment of a `dsh` run: nothing inherited but `TMPDIR`,
 * `LANG` and `TZ` (no proxies, no real home), Node 22 and pnpm first on PATH.
 * `pnpmStore` keeps `dsh plugin add`'s pnpm store under the scratch dir.
 */
export function dshEnv(home: string, modelUrl: string, pnpmStore: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: `${HOST_BIN_DIR}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: userHomeOf(home),
    DSH_HOME: home,
    DEEPSEEK_BASE_URL: modelUrl,
    DEEPSEEK_API_KEY: 'sk-mock-not-a-key',
    DSH_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    npm_config_store_dir: pnpmStore,
    npm_config_update_notifier: 'false',
    XDG_DATA_HOME: join(home, '..', 'xdg-data'),
    XDG_CACHE_HOME: join(home, '..', 'xdg-cache'),
    XDG_STATE_HOME: join(home, '..', 'xdg-state'),
    XDG_CONFIG_HOME: join(home, '..', 'xdg-config'),
  };
  for (const key of ['TMPDIR', 'LANG', 'TZ']) if (process.env[key] !== undefined) env[key] = process.env[key];
  return env;
}

/** The user's home in a run: beside `DSH_HOME`, so `~` in a README command stays inside the scratch dir. */
export function userHomeOf(home: string): string {
  return join(home, '..', 'user-home');
}

let npmSettings: { cache: string; userconfig: string } | undefined;

/** Where npm keeps its cache and reads the user's config, asked once from the environment the suites were started in. */
function npmLocations(): { cache: string; userconfig: string } {
  const ask = (key: string): string => {
    const out = spawnSync('npm', ['config', 'get', key], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`npm config get ${key} failed: ${out.stderr}`);
    return out.stdout.trim();
  };
  npmSettings ??= { cache: ask('cache'), userconfig: ask('userconfig') };
  return npmSettings;
}

/**
 * The environment the README's commands run in, as a user's shell would have
 * it: inherited (so npm and git reach the registry through the same proxy and
 * certificates), but with a throwaway `HOME` and `DSH_HOME`, Node 22, `dsh` and
 * pnpm first on PATH, and npm's cache and user config where they were (a new
 * `HOME` would hide both). What describes this repository's own run is
 * dropped: the script context `npm run` sets (`npm_lifecycle_*`,
 * `npm_package_*`, the local prefix, `INIT_CWD`) and node's test runner marker.
 */
export function shellEnv(home: string, pnpmStore: string): NodeJS.ProcessEnv {
  const { cache, userconfig } = npmLocations();
  const ours = /^(npm_(lifecycle_|package_|command$|execpath$|node_execpath$|config_local_prefix$)|INIT_CWD$|NODE_TEST_CONTEXT$|DEEPSEEK_)/i;
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!ours.test(key)) env[key] = value;
  return {
    ...env,
    PATH: `${HOST_BIN_DIR}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: userHomeOf(home),
    DSH_HOME: home,
    DSH_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    npm_config_cache: cache,
    npm_config_userconfig: userconfig,
    npm_config_store_dir: pnpmStore,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/**
 * The infrastructure overlay every boot gets: rc.8's headless profile disables
 * `hmr` and then needs it for user patch-layer watching. `plainLog` also turns
 * the session log into plain JSONL (`compression: none`); without it DSH writes
 * its default `session.jsonl.zstd`.
 */
export function infraOverlay(home: string, options: { plainLog: boolean }): string {
  const lines = [
    '# rc.8 headless disables hmr and then needs it for user patch-layer watching.',
    '- id: hmr',
    '  disabled: false',
    '  config: { root: [] }',
  ];
  return `${lines.join('\n')}\n${options.plainLog ? plainLogRows(home) : ''}`;
}

/** The patch rows that make DSH write plain JSONL session logs (`compression: none`) under `home`. */
export function plainLogRows(home: string): string {
  return [
    '# Plain JSONL session logs (the row restates its whole config).',
    '- id: session-persistence-jsonl',
    '  config:',
    `    root: ${JSON.stringify(join(home, 'sessions'))}`,
    '    compression: none',
    '',
  ].join('\n');
}

/** A row's `config:` line; JSON is YAML, and one flow mapping keeps it exact. */
export function configYaml(config: Record<string, unknown> | undefined, indent: string): string {
  if (config === undefined) return '';
  return `${indent}config: ${JSON.stringify(config)}\n`;
}

/** The user's own layer of a profile, reconfiguring one row by id (`[]` when there is nothing to say). */
export function profilePatch(rowId: string, config: Record<string, unknown> | undefined): string {
  return config === undefined ? '[]\n' : `- id: ${rowId}\n${configYaml(config, '  ')}`;
}

/** `dsh plugin --profile <profile> add <spec>`: pnpm installs it and the profile lists it as a bundle. */
export function addPlugin(options: {
  home: string;
  cwd: string;
  spec: string;
  profile: string;
  pnpmStore: string;
  timeoutMs: number;
}): Promise<Exec> {
  return exec(NODE22, [DSH_BIN, 'plugin', '--profile', options.profile, 'add', options.spec], {
    cwd: options.cwd,
    env: dshEnv(options.home, 'http://127.0.0.1:9', options.pnpmStore),
    timeoutMs: options.timeoutMs,
  });
}

/** The argument vector of one headless run: `--patch` paths must be absolute. */
export function headlessArgs(overlays: readonly string[], prompt: string): string[] {
  return [DSH_BIN, '--profile', 'headless', ...overlays.flatMap((p) => ['--patch', p]), prompt];
}

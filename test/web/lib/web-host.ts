/**
 * The real DSH web UI as a child process, installed and started with the
 * README's own commands (test/host/lib/readme.ts reads them out of README.md):
 *
 *   - the `dsh plugin --profile web` line of the Quick start's "plugin" block,
 *     run in the directory that holds the packed tarball (the clone, the DSH
 *     install, `npm ci` and `npm pack` before it are the host install suite's
 *     job, test/host/suites/install.ts);
 *   - the "hmr" block: `$DSH_HOME/cordis.patch.yml` with the `hmr` fix DSH
 *     0.1.0-rc.8 needs;
 *   - the "web" block, `dsh web`, started with `--no-open --host 127.0.0.1
 *     --port 0` appended (no browser handoff, an ephemeral port on loopback)
 *     and nothing else changed.
 *
 * It runs in a throwaway DSH_HOME (and HOME beside it, so `~` stays in the
 * scratch dir), in its own process group, so stopping it by its id also stops
 * the shells its sessions started. The URL it prints is read back.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { dshEnv, plainLogRows, shellEnv, userHomeOf } from '../../host/lib/dsh.js';
import { commandsOf, describeRun, readmeBlock, runCommands, withoutComment } from '../../host/lib/readme.js';
import { killGroup } from './cdp.js';

export const PROFILE = 'web';

/** What the suites append to the README's launch line: no browser, loopback, a free port. */
export const LAUNCH_FLAGS = ['--no-open', '--host', '127.0.0.1', '--port', '0'] as const;

export interface WebHost {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly pid: number;
  /** The command line that started it (the README's launch line and {@link LAUNCH_FLAGS}). */
  readonly command: string;
  /** Everything the process printed so far (stdout then stderr), for failure messages. */
  output(): string;
  /** Calls one RPC with DSH's envelope and returns its `result`. */
  rpc(method: string, payload: unknown): Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
  stop(): Promise<void>;
}

export interface WebHostOptions {
  readonly home: string;
  /** Working directory of the server: new sessions' default workspace. */
  readonly cwd: string;
  readonly modelUrl: string;
  readonly pnpmStore: string;
  readonly timeoutMs: number;
  /** A directory put first on PATH: the `node_modules/.bin` of the DSH the README's Quick start installed. */
  readonly binDir?: string;
}

/** The README's `hmr` block (the setup: rc.8's row back on) and its "web" block's launch line. */
export function webCommands(): { setup: string[]; launch: string } {
  const commands = commandsOf(readmeBlock('web'));
  const launch = withoutComment(commands.at(-1) ?? '');
  if (!/^dsh web(\s|$)/.test(launch)) throw new Error(`the README's web block should end with \`dsh web …\`, not ${JSON.stringify(launch)}`);
  return { setup: [...commandsOf(readmeBlock('hmr')), ...commands.slice(0, -1)], launch };
}

/** The `dsh plugin --profile web add ./<tarball>` line of the Quick start's "plugin" block. */
export function tarballAddCommands(): string[] {
  const adds = commandsOf(readmeBlock('plugin')).filter((command) => command.startsWith(`dsh plugin --profile ${PROFILE} add `));
  if (adds.length === 0) throw new Error(`the README's plugin block has no \`dsh plugin --profile ${PROFILE} add\` line`);
  return adds;
}

/** Runs the web block's setup commands (the overlay with the `hmr` fix) as the user whose DSH_HOME is `home`. */
export async function applyWebFix(options: { home: string; cwd: string; pnpmStore: string }): Promise<void> {
  mkdirSync(userHomeOf(options.home), { recursive: true });
  const run = await runCommands(webCommands().setup, { cwd: options.cwd, env: shellEnv(options.home, options.pnpmStore), timeoutMs: 30_000 });
  if (run.code !== 0) throw new Error(`the README's web setup commands failed: ${describeRun(run)}`);
}

/**
 * Creates the `web` profile with the plugin installed from `tarball` by the README's command, and
 * the web block's overlay written. The profile's own patch layer then gets the rows only the suite
 * needs (plain JSONL session logs) and `patch`.
 */
export async function prepareProfile(options: { home: string; cwd: string; tarball: string; pnpmStore: string; patch: readonly string[] }): Promise<void> {
  mkdirSync(userHomeOf(options.home), { recursive: true });
  const adds = tarballAddCommands();
  const file = basename(options.tarball);
  if (!adds.some((command) => command.includes(`./${file}`))) {
    throw new Error(`the README adds ${JSON.stringify(adds)}, but the packed tarball is ${file}: update the README's tarball block`);
  }
  const add = await runCommands(adds, { cwd: dirname(options.tarball), env: shellEnv(options.home, options.pnpmStore), timeoutMs: 180_000 });
  if (add.code !== 0) throw new Error(`the README's dsh plugin add failed: ${describeRun(add)}`);
  const profile = join(options.home, 'profiles', PROFILE);
  if (!existsSync(join(profile, 'package.json'))) throw new Error(`dsh plugin add did not create ${profile}`);
  await applyWebFix(options);
  writeFileSync(join(profile, 'cordis.patch.yml'), `${plainLogRows(options.home)}${options.patch.join('\n')}\n`);
}

/** Starts the README's launch line (plus {@link LAUNCH_FLAGS}) and waits for the URL it prints. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  mkdirSync(options.cwd, { recursive: true });
  const env = dshEnv(options.home, options.modelUrl, options.pnpmStore);
  if (options.binDir !== undefined) env.PATH = `${options.binDir}:${env.PATH ?? ''}`;
  const command = `${webCommands().launch} ${LAUNCH_FLAGS.join(' ')}`;
  // `exec`: bash becomes the launcher, so the pid (and its process group) is dsh's own.
  const child = spawn('bash', ['-c', `exec ${command}`], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (child.pid === undefined) throw new Error('dsh web did not start');
  const pid = child.pid;
  let stdout = '';
  let stderr = '';
  const output = (): string => `${stdout}\n--- stderr ---\n${stderr}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    // The session shells are in the same group; make sure none outlives the server.
    killGroup(pid, 'SIGKILL');
  };
  const announced = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no \`dsh web: http://…\` line after ${options.timeoutMs} ms\n${output().slice(-4000)}`)), options.timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      const url = /dsh web: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`\`${command}\` exited ${String(code ?? signal)}\n${output().slice(-4000)}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  child.stderr.on('data', (c: Buffer) => {
    if (stderr.length < 200_000) stderr += c.toString('utf8');
  });
  let url: string;
  try {
    url = await announced;
  } catch (error) {
    await stop();
    throw error;
  }
  let rpcSeq = 0;
  const rpc: WebHost['rpc'] = async (method, payload) => {
    rpcSeq += 1;
    const response = await fetch(`${url}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'client-request', rpcId: `t${rpcSeq}`, method, payload }),
    });
    const body = (await response.json()) as { result?: { ok: boolean; value?: unknown; error?: unknown } };
    if (body.result === undefined) throw new Error(`${method}: no result in ${JSON.stringify(body).slice(0, 500)}`);
    return body.result;
  };
  return { url, pid, command, output, rpc, stop };
}

/** `$DSH_HOME/settings.yaml` as text, or an empty string while there is none. */
export function settingsFile(home: string): string {
  const file = join(home, 'settings.yaml');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

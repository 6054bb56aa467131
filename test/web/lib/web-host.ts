/**
 * The real DSH web UI as a child process: `dsh --profile web --no-open --host
 * 127.0.0.1 --port 0` under Node 22, in a throwaway DSH_HOME, with the URL it
 * prints read back. It runs in its own process group so stopping it by its id
 * also stops the shells its sessions started.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { addPlugin, dshEnv, infraOverlay } from '../../host/lib/dsh.js';
import { DSH_BIN, NODE22 } from '../../host/lib/env.js';
import { killGroup, until } from './cdp.js';

export const PROFILE = 'web';

export interface WebHost {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly pid: number;
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
}

/**
 * Creates the `web` profile with the plugin installed from its tarball (pnpm). The profile's own
 * patch layer gets the infrastructure rows every boot needs (rc.8's web profile, like headless,
 * needs `hmr` re-enabled; session logs as plain JSONL), then `patch`.
 */
export async function prepareProfile(options: { home: string; cwd: string; tarball: string; pnpmStore: string; patch: readonly string[] }): Promise<void> {
  mkdirSync(join(options.home, '..', 'user-home'), { recursive: true });
  const add = await addPlugin({ home: options.home, cwd: options.cwd, spec: options.tarball, profile: PROFILE, pnpmStore: options.pnpmStore, timeoutMs: 180_000 });
  if (add.code !== 0) throw new Error(`dsh plugin add failed (${String(add.code)}):\n${add.stdout}\n${add.stderr}`);
  const profile = join(options.home, 'profiles', PROFILE);
  if (!existsSync(join(profile, 'package.json'))) throw new Error(`dsh plugin add did not create ${profile}`);
  writeFileSync(join(profile, 'cordis.patch.yml'), `${infraOverlay(options.home, { plainLog: true })}${options.patch.join('\n')}\n`);
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  mkdirSync(options.cwd, { recursive: true });
  const env = dshEnv(options.home, options.modelUrl, options.pnpmStore);
  const child = spawn(NODE22, [DSH_BIN, '--profile', PROFILE, '--no-open', '--host', '127.0.0.1', '--port', '0'], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid === undefined) throw new Error('dsh web did not start');
  const pid = child.pid;
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => {
    if (stderr.length < 200_000) stderr += c.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output = (): string => `${stdout}\n--- stderr ---\n${stderr}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    // The session shells are in the same group; make sure none outlives the server.
    killGroup(pid, 'SIGKILL');
  };
  try {
    const url = await until(
      '`dsh web: http://…` on stdout',
      () => {
        if (child.exitCode !== null) throw new Error(`dsh web exited ${child.exitCode}\n${output().slice(-4000)}`);
        return /dsh web: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      },
      options.timeoutMs,
    );
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
    return { url, pid, output, rpc, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `$DSH_HOME/settings.yaml` as text, or an empty string while there is none. */
export function settingsFile(home: string): string {
  const file = join(home, 'settings.yaml');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

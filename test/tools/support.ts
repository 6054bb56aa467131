/**
 * Session logs for the tool tests, in the DSH 0.1.0-rc.8 format: a header line,
 * then records. Written plain or through the `zstd` command as separate frames
 * (DSH flushes one frame at a time).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evalCli } from '../../tools/eval/cli.js';
import { replayCli } from '../../tools/replay/cli.js';
import { sweepCli } from '../../tools/sweep/cli.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS = join(REPO, 'test', 'fixtures', 'sessions');

export interface CallStep {
  readonly call: string;
  readonly args: Record<string, unknown>;
  readonly text: string;
  readonly isError?: boolean;
  /** The failure identity DSH logs beside an error result (`tool/result.data.error`). */
  readonly error?: { readonly name: string; readonly code: string };
}

export type Step = CallStep | { readonly human: string };

export function header(id = 'session-test'): Record<string, unknown> {
  return { type: 'session', version: 0, id, createdAt: 1, cwd: '/work' };
}

/** The records of a session: each call with its result, each human message; every call is a model step of its own. */
export function records(steps: readonly Step[]): Record<string, unknown>[] {
  return pooledRecords(steps.map((step) => ('human' in step ? step : [step])));
}

/**
 * The records of a session whose model steps may hold several calls: a step's
 * `tool/call` records come first, then its results in model order, as DSH logs
 * a pool whose calls all ran.
 */
export function pooledRecords(steps: readonly (readonly CallStep[] | { readonly human: string })[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [header()];
  let seq = 0;
  let calls = 0;
  steps.forEach((step, at) => {
    if ('human' in step) {
      out.push({
        type: 'user/message',
        seq: seq++,
        time: 1,
        data: { role: 'user', content: [{ type: 'text', text: step.human }], source: { kind: 'user' } },
      });
      return;
    }
    const ids = step.map(() => `call_${calls++}`);
    step.forEach((call, i) => {
      out.push({
        type: 'tool/call',
        seq: seq++,
        time: 1,
        data: { turn: 1, step: at, callId: ids[i], name: call.call, arguments: JSON.stringify(call.args) },
      });
    });
    step.forEach((call, i) => {
      const content = [{ type: 'text', text: call.text }];
      out.push({
        type: 'tool/result',
        seq: seq++,
        time: 1,
        data: {
          turn: 1,
          step: at,
          message: { role: 'user', content: [{ type: 'tool-result', toolCallId: ids[i], content, isError: call.isError === true }] },
          ...(call.error === undefined ? {} : { error: call.error }),
        },
      });
    });
  });
  return out;
}

export function jsonl(lines: readonly unknown[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'breaker-tools-'));
}

export const hasZstd = spawnSync('zstd', ['--version']).error === undefined;

/** Compresses each chunk as its own zstd frame and concatenates them, as DSH does. */
export function zstdFrames(chunks: readonly string[]): Buffer {
  return Buffer.concat(
    chunks.map((chunk) => {
      const run = spawnSync('zstd', ['-c', '-q'], { input: chunk });
      if (run.status !== 0) throw new Error(`zstd failed: ${run.stderr.toString()}`);
      return run.stdout;
    }),
  );
}

/** Writes `<dir>/<name>/session.jsonl[.zstd]` and returns its path. */
export function writeSession(dir: string, name: string, content: string | Buffer, file = 'session.jsonl'): string {
  mkdirSync(join(dir, name), { recursive: true });
  const path = join(dir, name, file);
  writeFileSync(path, content);
  return path;
}

/** A stuck session: the same command `n` times with changing decoys, each run succeeding. */
export function stuckSteps(n: number, command = 'echo same-output'): Step[] {
  return Array.from({ length: n }, (_, at) => ({
    call: 'bash',
    args: { command, description: `try ${at + 1}`, timeoutMs: 10000 + at },
    text: 'same-output\n',
  }));
}

export interface ToolRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a tool in this process, as `npm run <tool>` would, capturing its output. */
export async function runTool(tool: 'replay' | 'sweep' | 'eval', args: readonly string[]): Promise<ToolRun> {
  let stdout = '';
  let stderr = '';
  const io = { out: (text: string) => void (stdout += text), err: (text: string) => void (stderr += text) };
  const status = await { replay: replayCli, sweep: sweepCli, eval: evalCli }[tool](args, io);
  return { status, stdout, stderr };
}

/** Runs `tools/<tool>/main.ts` in a child process: the entry file itself, exit status included. */
export function spawnTool(tool: 'replay' | 'sweep' | 'demo', args: readonly string[]): ToolRun {
  const env = { ...process.env, NO_COLOR: '1' };
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'tools', tool, 'main.ts'), ...args], { cwd: REPO, encoding: 'utf8', env });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

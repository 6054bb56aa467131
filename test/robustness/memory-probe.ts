/**
 * Child process of heap.ts (needs --expose-gc): runs 1,000 calls with
 * distinct ~1 MB arguments and results on one agent, and prints, as JSON, the
 * heap retained for that agent and what is left once the agent is dropped.
 * heap.ts runs it under V8's `--predictable` (every background task on the
 * main thread, a fixed collection schedule) so the figures repeat exactly.
 *
 *   node --expose-gc --predictable --no-flush-bytecode --import tsx test/robustness/memory-probe.ts [port|reference] [calls] [shape] [config JSON]
 *
 * With `HEAP_SNAPSHOTS=<dir>` it also writes before.heapsnapshot and
 * during.heapsnapshot there, for tools/heap-diff (what the agent's calls left,
 * by constructor; writing them moves the figures a little).
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { captureHooks, type PluginLike } from './hooks.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const which = process.argv[2] ?? 'port';
const calls = Number(process.argv[3] ?? 1000);
const shapes = (process.argv[4] ?? 'all').split(',');
const MB = 1 << 20;
/** Short warm-up calls before the full-size ones (see the warm-up below). */
const WARM_SHORT = 5000;

async function load(): Promise<PluginLike> {
  const specifier = which === 'reference' ? 'reference-breaker' : '../../src/index.js';
  const module = (await import(specifier)) as { default: unknown };
  return module.default as PluginLike;
}

/**
 * The live heap after four full collections in a row. No turn of the event
 * loop between them: under `--predictable` V8 runs its would-be background
 * work as tasks on the loop, at moments that depend on the clock, and letting
 * them in spread 13 runs of one probe over 2–308 KB where four collections
 * in a row read 205.8–207.3 KB in 15 runs (docs/robustness.md).
 */
function settle(): number {
  for (let i = 0; i < 4; i += 1) gc?.();
  return process.memoryUsage().heapUsed;
}

/** A heap snapshot named `name`, when HEAP_SNAPSHOTS names a directory. */
function snapshot(name: string): void {
  const dir = process.env.HEAP_SNAPSHOTS;
  if (dir !== undefined && dir !== '') writeHeapSnapshot(join(dir, `${name}.heapsnapshot`));
}

/** One call's arguments and result, about 1 MB each and distinct per `i`. */
function makeCall(i: number, shape: string, size = MB): { name: string; arguments: unknown; result: unknown } {
  // A fresh flat string per call: nothing is shared between calls but the code.
  const filler = (n: number): string => `${i}:`.padEnd(n, String.fromCharCode(97 + (i % 26)));
  const ok = { isError: false, value: { exitCode: 0 }, content: [{ type: 'text', text: `done ${i}` }] };
  switch (shape) {
    case 'write':
      return { name: 'write', arguments: { path: `/w/file-${i}.txt`, content: filler(size) }, result: ok };
    case 'command':
      // Long verb, long sink and long URL words: every fingerprint kind is built from slices of the command.
      return {
        name: 'bash',
        arguments: { command: `/opt/${'v'.repeat(40)}/runner-tool-${i}-xxxxxxxxxxxxxxxx https://example.com/${i}/${'p'.repeat(60)} > /tmp/${'o'.repeat(60)}-${i}.txt <<EOF\n${filler(size)}\nEOF` },
        result: ok,
      };
    case 'result': {
      // A failing shell call whose huge output ends in an exception line: the streak keeps its detail.
      const text = `${filler(size)}\nTraceback (most recent call last)\n${'m'.repeat(30)}.sub.${'Q'.repeat(20)}${i}Error: boom`;
      return { name: 'bash', arguments: { command: `python3 job.py --n ${i}` }, result: { isError: false, value: {}, content: [{ type: 'text', text }] } };
    }
    case 'urls': {
      // A command naming ~35,000 distinct URLs: a net: fingerprint each.
      const urls: string[] = [];
      for (let used = 0, k = 0; used < size; k += 1) {
        const url = `https://h${k % 97}.example.com/${i}/${k}`;
        urls.push(url);
        used += url.length + 1;
      }
      return { name: 'bash', arguments: { command: `curl ${urls.join(' ')}` }, result: ok };
    }
    case 'modelled':
      // A command the act: reader reads whole (under its read limit): distinct operands to respell.
      return { name: 'bash', arguments: { command: `rm -rf ${`./d${i}//x/ `.repeat(1500)}` }, result: ok };
    default:
      // A fetch of a long distinct URL.
      return { name: 'web_fetch', arguments: { url: `https://example.com/${i}/${filler(size)}` }, result: { isError: false, value: { statusCode: 200 }, content: [{ type: 'text', text: filler(size) }] } };
  }
}

const plugin = await load();
const all = ['write', 'command', 'result', 'fetch'];
// `short-warm`: the warm-up calls are 1 KB of each shape, not 1 MB, so that a memory the plugin
// keeps across agents (per configuration) and fills with large inputs shows in the figures.
const shortWarm = shapes.includes('short-warm');
const listed = shapes.filter((shape) => shape !== 'short-warm');
const active = listed.includes('all') ? all : listed;
// `context`: a distinct ~1 MB text claimed at pre-step, with the opt-in duplicated-context track on.
// argv[5]: an optional JSON config (the opt-in tracks' memory case passes one).
const given = process.argv[5] === undefined ? undefined : (JSON.parse(process.argv[5]) as Record<string, unknown>);
const hooks = captureHooks(plugin, active.includes('context') ? { ...given, duplicateText: {} } : given);

/** A claimed plugin context of about 1 MB, distinct per `i`. */
function claimed(i: number): unknown[] {
  const text = `${i}:`.padEnd(MB, String.fromCharCode(97 + (i % 26)));
  return [{ id: `context-${i}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'context-echo' } }];
}

async function run(agent: object, n: number, offset: number, size = MB): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    const shape = active[i % active.length] as string;
    if (shape === 'context') {
      const messages = claimed(offset + i);
      await hooks.step({ agent, messages }, () => Promise.resolve({ kind: 'enter', messages }));
      continue;
    }
    const call = makeCall(offset + i, shape, size);
    const exec = { callId: `c${offset + i}`, name: call.name, arguments: call.arguments, agent };
    try {
      await hooks.pre(exec);
      hooks.guard(exec);
      await hooks.post(exec, call.result);
    } catch {
      // The reference throws on some shapes; the memory question is separate.
    }
  }
}

// Warm up on another agent, under the same configuration (JIT code and lazily built tables land
// here), then drop it. First 5,000 calls of 1 KB: the hooks' and tracks' paths are hot enough for V8 to
// optimise them before the heap is first read, so the figures are what the agent's calls keep, not
// compiled code (docs/robustness.md; with 400, most of the preset's paths were first optimised
// during the measured calls, and their code read as half the agent's figure); then calls at full size, which fill what the plugin keeps
// per configuration. The act: reader has many short paths: it takes more calls before its
// optimised code settles.
await run({}, WARM_SHORT, 2_000_000, 1024);
await run({}, active.includes('modelled') ? 400 : 40, 1_000_000, shortWarm ? 1024 : MB);
const before = settle();
snapshot('before');
let agent: object | null = {};
const started = performance.now();
await run(agent, calls, 0);
const seconds = (performance.now() - started) / 1000;
const during = settle();
snapshot('during');
agent = null;
const after = settle();
hooks.dispose();
process.stdout.write(
  `${JSON.stringify({ plugin: which, calls, shapes: active, retainedBytes: during - before, afterDropBytes: after - before, seconds })}\n`,
);

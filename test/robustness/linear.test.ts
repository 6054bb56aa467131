/**
 * Decision P5, the time half: for every hostile shape, one call through all
 * four hooks at size 8n costs within a small multiple of 8x the cost at n.
 * Checked by ratio (best of five per point, up to three attempts), never by
 * absolute time, and in the process's CPU time, not the clock's: on a busy
 * machine a run is descheduled for whole time slices, which the clock counts
 * and the CPU time does not (one full `npm test` beside other work once read
 * a linear shape at 40x by the clock). So: t(8n) <= 8 * t(n) * 3 + 30 ms (n is
 * chosen so t(n) is a few ms at least: below that the young generation holds a
 * whole small input and the ratio measures the GC, not the code). A quadratic
 * path would be ~64x.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import port from '../../src/index.js';
import { captureHooks, type PluginLike } from './hooks.js';
import { ACT_HOSTILE_COMMANDS, deepArray, deepObject, HOSTILE_COMMANDS, HOSTILE_RESULTS, PWSH_HOSTILE_COMMANDS } from './shapes.js';

const hooks = captureHooks(port as PluginLike);
const SLACK = 3;

/** Milliseconds of CPU this process has used (user and system, every thread). */
function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}
const FLOOR_MS = 30;

/** The duplicated-context track on, at its most eager: every text block is fingerprinted. */
const stepHooks = captureHooks(port as PluginLike, { duplicateText: { minChars: 1, threshold: 2 } });

interface CallInput {
  name: string;
  args: unknown;
  result: unknown;
  /** Hooks of another config (default: the defaults). */
  hooks?: typeof hooks;
}

/** Claimed messages for one `agent/pre-step`, claimed twice under fresh ids: the second step counts every text again. */
interface StepInput {
  messages: (id: string) => unknown[];
}

type Input = CallInput | StepInput;

async function once(input: Input): Promise<number> {
  return 'messages' in input ? stepOnce(input) : callOnce(input);
}

/** Two pre-steps on a fresh agent with the same texts: both fingerprint every block (past TEXT_LIMIT texts, evicting). */
async function stepOnce(input: StepInput): Promise<number> {
  const agent = {};
  const first = input.messages('a');
  const second = input.messages('b');
  const start = cpuMs();
  await stepHooks.step({ agent, messages: first }, () => Promise.resolve({ kind: 'enter', messages: first }));
  const decision = (await stepHooks.step({ agent, messages: second }, () => Promise.resolve({ kind: 'enter', messages: second }))) as { messages: unknown[] };
  const took = cpuMs() - start;
  assert.ok(decision.messages.length >= second.length, 'the claimed messages entered');
  return took;
}

/** One call on a fresh agent: pre-execute, guard, post-execute, then a human step. */
async function callOnce(input: CallInput): Promise<number> {
  const agent = {};
  const exec = { name: input.name, arguments: input.args, agent };
  const used = input.hooks ?? hooks;
  const start = cpuMs();
  await used.pre(exec);
  used.guard(exec);
  await used.post(exec, input.result);
  used.step({ agent, messages: [{ source: { kind: 'user' } }] });
  return cpuMs() - start;
}

async function best(input: Input): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i += 1) least = Math.min(least, await once(input));
  return least;
}

/** Attempts per shape: a busy machine can slow every run of one attempt; a quadratic path fails them all. */
const ATTEMPTS = 3;

function linear(label: string, n: number, make: (n: number) => Input): void {
  test(`${label}: n=${n} vs 8n`, async (t) => {
    const small = make(n);
    const large = make(8 * n);
    // Warm-up at both sizes: the JIT is not timed, and the heap has grown to the larger input.
    await once(small);
    await once(large);
    let seen = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const tSmall = await best(small);
      const tLarge = await best(large);
      seen = `t(n)=${tSmall.toFixed(2)} ms, t(8n)=${tLarge.toFixed(2)} ms (ratio ${(tLarge / tSmall).toFixed(1)})`;
      t.diagnostic(`attempt ${attempt}: ${seen}`);
      if (tLarge <= 8 * tSmall * SLACK + FLOOR_MS) return;
    }
    assert.fail(`${label}: ${seen}, above 8 × ${SLACK} × t(n) + ${FLOOR_MS} ms in all ${ATTEMPTS} attempts`);
  });
}

const OK = { isError: false, value: { exitCode: 0 }, content: [{ type: 'text', text: 'ok' }] };
const WRITE_OUT = 'curl -sL -o /dev/null -w "%{http_code}" https://a.com/x';

describe('linear time in the command (bash)', () => {
  // Commands of many short words allocate a token per word: they need a larger n to leave the GC noise.
  const wordy = new Set(['words']);
  for (const [label, make] of HOSTILE_COMMANDS) {
    linear(label, wordy.has(label) ? 131_072 : 65_536, (n) => ({ name: 'bash', args: { command: make(n), description: 'd' }, result: OK }));
  }
});

describe('linear time in the arguments', () => {
  linear('deep arrays', 4_096, (n) => ({ name: 'write', args: { data: deepArray(n) }, result: OK }));
  linear('deep objects', 4_096, (n) => ({ name: 'write', args: { data: deepObject(n) }, result: OK }));
  linear('wide objects', 4_096, (n) => ({ name: 'write', args: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${n - i}`, i])), result: OK }));
  linear('long strings', 262_144, (n) => ({ name: 'write', args: { path: '/w/x', content: 'x\n"\\'.repeat(n / 4) }, result: OK }));
  linear('a long fetch URL', 16_384, (n) => ({ name: 'web_fetch', args: { url: `https://a.com/${'p/'.repeat(n / 2)}?${'k=v&'.repeat(n / 4)}` }, result: OK }));
  linear('a long fetch host', 32_768, (n) => ({ name: 'web_fetch', args: { url: `https://${'a'.repeat(n)}.com/` }, result: OK }));
  linear('a scheme-like fetch URL', 32_768, (n) => ({ name: 'web_fetch', args: { url: `${'a'.repeat(n)}:/x` }, result: OK }));
  linear('a long tool name', 131_072, (n) => ({ name: `web_${'x'.repeat(n)}`, args: { url: 'https://a.com' }, result: OK }));
});

describe('linear time in the result (shell text fallback)', () => {
  // Shapes whose maker takes no size (undefined, a Proxy, …) cost the same at any n: nothing to compare.
  for (const [label, make] of HOSTILE_RESULTS.filter(([, maker]) => maker.length > 0)) linear(label, 262_144, (n) => ({ name: 'bash', args: { command: WRITE_OUT }, result: make(n) }));
});

describe('linear time in the claimed messages (duplicated-context track on)', () => {
  const text = (id: string, blocks: string[]) => [{ id, role: 'user', content: blocks.map((t) => ({ type: 'text', text: t })), source: { kind: 'plugin', plugin: 'p' } }];
  linear('a long run of trailing-looking spaces', 262_144, (n) => ({ messages: (id) => text(id, [`${' '.repeat(n)}x`]) }));
  linear('many short lines with CRLF and trailing spaces', 131_072, (n) => ({ messages: (id) => text(id, ['line  \r\n'.repeat(n / 8)]) }));
  linear('many text blocks in one message', 2_048, (n) => ({ messages: (id) => text(id, Array.from({ length: n }, (_, i) => `block ${i}`)) }));
  linear('many messages in one step', 4_096, (n) => ({ messages: (id) => Array.from({ length: n }, (_, i) => text(`${id}-${i}`, [`message ${i}`])[0]) }));
});

/** The opt-in act: measure on: its reader and rules run on every command up to its read limit. */
const actHooks = captureHooks(port as PluginLike, { limits: { act: 12 } });

describe('linear time in the command, act: on', () => {
  // 8n stays at or under the read limit (16,384), so the large input is read and rewritten too.
  for (const [label, make] of [...HOSTILE_COMMANDS, ...ACT_HOSTILE_COMMANDS]) {
    linear(`${label}, read whole`, 1_920, (n) => ({ name: 'bash', args: { command: make(n) }, result: OK, hooks: actHooks }));
  }
  for (const [label, make] of ACT_HOSTILE_COMMANDS.slice(0, 3)) {
    linear(`${label}, above the read limit`, 65_536, (n) => ({ name: 'bash', args: { command: make(n) }, result: OK, hooks: actHooks }));
  }
  // PowerShell's reading: the cmdlets rule runs on pwsh lines only.
  for (const [label, make] of PWSH_HOSTILE_COMMANDS) {
    linear(`${label}, read whole as pwsh`, 1_920, (n) => ({ name: 'pwsh', args: { command: make(n) }, result: OK, hooks: actHooks }));
  }
});

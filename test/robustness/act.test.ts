/**
 * P5 and P6 with the opt-in `act:` measure on: hostile commands, above and
 * below its read limit, through every hook and through the reader and rules
 * directly, never throw and still decide; the seeded fuzz runs with it on;
 * and one agent's retained memory stays under 1 MB.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import port from '../../src/index.js';
import { ACT_READ_LIMIT, actOf, RULES } from '../../src/lib/shell/act/index.js';
import { readLine } from '../../src/lib/shell/act/line.js';
import { drive } from './drive.js';
import { fuzzHostile } from './fuzz.js';
import { assertBounded } from './heap.js';
import { captureHooks, type PluginLike } from './hooks.js';
import { ACT_HOSTILE_COMMANDS, HOSTILE_COMMANDS, throwingProxy } from './shapes.js';

const plugin = port as PluginLike;
const TIGHT = { window: 4, warnAt: 1, summarizeAt: 2, failWarnAt: 1, failLimit: 2, limits: { exact: 3, cmd: 3, net: 3, sink: 3, host: 3, act: 3 } };
const ACT_ONLY = { window: 8, onLimit: 'deny', limits: { exact: null, cmd: null, net: null, sink: null, host: null, act: 3 } };
const ok = { isError: false, value: { exitCode: 0 }, content: [{ type: 'text', text: 'ok' }] };
const failed = { isError: false, value: { exitCode: 1 }, content: [{ type: 'text', text: 'boom\n[exit code: 1]' }] };
const ALL = [...HOSTILE_COMMANDS, ...ACT_HOSTILE_COMMANDS];
// Below the read limit, so the reader and every rule run; and far above it.
const SIZES = [ACT_READ_LIMIT - 64, 64 * 1024];

describe('hostile commands with act: on reach every hook', () => {
  for (const [label, make] of ALL) {
    test(label, async () => {
      for (const size of SIZES) {
        const command = make(size);
        for (const config of [{ ...TIGHT, onLimit: 'deny' }, { ...TIGHT, onLimit: 'ask' }, ACT_ONLY]) {
          const hooks = captureHooks(plugin, config);
          const agent = {};
          const denials: (string | undefined)[] = [];
          for (let i = 0; i < 3; i += 1) {
            const outcome = await drive(hooks, { callId: `c${i}`, name: 'bash', arguments: { command, description: `${i}` }, agent }, i === 0 ? failed : ok, { answer: 'decline' });
            denials.push(outcome.denial);
          }
          // With act: the only cap, the third identical command is stopped by act: itself.
          if (config === ACT_ONLY && command.trim() !== '') assert.match(denials[2] ?? '', /^REPEAT_TOOL_BLOCKED:[\s\S]*- act:/, `${label} at ${size}`);
          hooks.dispose();
        }
      }
    });
  }
});

describe('the act: reader and rules take hostile values', () => {
  test('every hostile command, in both dialects, below and above the read limit: a string, never a throw', () => {
    for (const [, make] of ALL) {
      for (const size of [64, 1024, ACT_READ_LIMIT - 64, ACT_READ_LIMIT + 1]) {
        const command = make(size);
        for (const dialect of ['posix', 'pwsh'] as const) {
          assert.equal(typeof actOf(command, dialect), 'string');
          readLine(command, dialect);
          for (const rule of RULES) actOf(command, dialect, [rule]);
        }
      }
    }
  });

  test('odd strings: NULs, lone surrogates, control characters, only operators, only quotes', () => {
    const strings = ['\u0000', '\ud800', '\udc00a\ud800', '\r\n\r\n', '|||', '&&&&', ';;', "''''", '""', '\\', '\\\n', '>', '2>', '<&', '>&', '$', '${', '#', '!', '~', '{}', 'a=', '=a', '-', '--', '-\u0000', `-${'\ud800'.repeat(10)}`];
    for (const text of strings) for (const dialect of ['posix', 'pwsh'] as const) assert.equal(typeof actOf(`ls ${text} x`, dialect), 'string');
  });

  test('a non-string command through the hooks with act: on is transparent or counted, never a throw', async () => {
    const hooks = captureHooks(plugin, { ...TIGHT, onLimit: 'deny' });
    const agent = {};
    for (const command of [undefined, null, 5, {}, [], throwingProxy({}), Symbol('s')]) {
      await drive(hooks, { name: 'bash', arguments: { command }, agent }, ok);
    }
  });
});

describe('seeded fuzz with act: on', () => {
  test('300 calls over 3 agents, seed 14', async () => {
    await fuzzHostile(plugin, {
      seed: 14,
      config: { ...TIGHT, onLimit: 'ask' },
      odds: [0.35, 0.55, 0.65],
      tools: ['bash', 'pwsh', 'shell', 'write'],
      unreadable: () => [null, 'x', throwingProxy({}), { name: 'pwsh', agent: 3 }],
      alphabet: ['ls -la', 'ls -al', 'python3 -m pytest -xq tests', 'pytest -q -x tests/ 2>&1 | tail -5', 'cd /w && make -C sub test', 'bash -c "ls"'],
      describe: true,
    });
  });
});

describe('act: keeps memory bounded (P6)', () => {
  test('48 distinct 1 MB commands and URL lists on one agent with act: on retain under 1 MB, and it goes with the agent', (t) => {
    assertBounded(48, 'command,urls', t, { limits: { act: 12 } });
  });

  test('1,000 distinct commands the reader reads whole (12 KB of operands each) retain under 1 MB with act: on', (t) => {
    // Only the per-agent bound: what stays after the agent goes is V8's compiled code for the reader (about 340 KB, act: off too).
    assertBounded(1000, 'modelled', t, { limits: { act: 12 } }, { afterDrop: false });
  });
});

/**
 * P5 and P6 with the opt-in features on (sequence track, progress-aware
 * gating, exemption ceiling): hostile calls and results never make a hook
 * throw, the cycle texts stay bounded, and one agent's retained memory stays
 * under 1 MB however large its calls and results are.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import port from '../../src/index.js';
import { drive } from './drive.js';
import { fuzzHostile } from './fuzz.js';
import { assertBounded } from './heap.js';
import { captureHooks, type PluginLike } from './hooks.js';
import { throwingProxy } from './shapes.js';

const plugin = port as PluginLike;
const ALL_ON = { sequence: { length: 4, count: 2, limit: 3 }, progress: 'results', exemptionCeiling: 2, window: 12 };
const MB = 1 << 20;

describe('the opt-in features keep memory bounded (P6)', () => {
  test('1,000 distinct 1 MB writes and failing 1 MB outputs on one agent retain under 1 MB with every opt-in on', (t) => {
    assertBounded(1000, 'write,result', t, ALL_ON);
  });

  test('a cycle of four 1 MB calls is noticed and denied with texts of bounded size', async () => {
    const hooks = captureHooks(plugin, { ...ALL_ON, onLimit: 'deny' });
    const agent = {};
    const calls = [0, 1, 2, 3].map((i) => ({ name: 'bash', arguments: { command: `${'x'.repeat(MB)} ${i}` } }));
    const ok = { isError: false, value: {}, content: [{ type: 'text', text: 'y'.repeat(MB) }] };
    const outcomes = [];
    for (let i = 0; i < 14; i += 1) outcomes.push(await drive(hooks, { callId: `c${i}`, ...calls[i % 4], agent }, ok));
    assert.equal(outcomes[7]?.notices.length, 1, 'the advisory at two repetitions');
    assert.ok((outcomes[7]?.notices[0]?.content[0]?.text.length ?? 0) < 2000, 'the advisory stays under 2000 characters');
    assert.ok(outcomes[12]?.denial?.startsWith('REPEAT_TOOL_BLOCKED:'), 'denied after three repetitions');
    assert.ok((outcomes[12]?.denial?.length ?? 0) < 3000, String(outcomes[12]?.denial?.length));
  });
});

describe('hostile input with every opt-in on (P5)', () => {
  test('a cycle of calls to tools with 1 MB names is announced with a bounded text and summary', async () => {
    const hooks = captureHooks(plugin, ALL_ON);
    const agent = {};
    const names = ['a', 'b'].map((c) => c.repeat(MB));
    const outcomes = [];
    for (let i = 0; i < 4; i += 1)
      outcomes.push(
        await drive(hooks, { callId: `c${i}`, name: names[i % 2], arguments: { path: '/w/x' }, agent }, { isError: false, content: [] }),
      );
    const notice = outcomes[3]?.notices[0];
    assert.ok(notice !== undefined, 'announced at two repetitions');
    const text = notice.content[0]?.text ?? '';
    assert.ok(text.length > 0 && text.length < 2000, String(text.length));
  });

  test('300 seeded hostile calls over 3 agents, asked and answered at random, never throw', async () => {
    await fuzzHostile(plugin, {
      seed: 11,
      config: ALL_ON,
      odds: [0.3, 0.5, 0.55],
      tools: ['write', 'web_fetch', 'bash'],
      unreadable: () => [null, throwingProxy({}), { name: 'bash', agent: 3 }],
      // A small alphabet of calls, so cycles form and the gate, ceiling and progress paths all run.
      alphabet: ['ls', 'curl https://a.com/x', 'grep -r x .'],
    });
  });
});

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
/** The preset's mechanisms (issue 26), tight, with a sequence track too. */
const REAL_LOOPS = {
  preset: 'recommended',
  stale: { warnAt: 2, limit: 2 },
  editRetry: { warnAt: 2, limit: 2 },
  timeouts: { warnAt: 2, limit: 2 },
  spin: { warnAt: 2, limit: 2 },
  guess: { warnAt: 2, limit: 2 },
  sequence: { length: 4, count: 2, limit: 3 },
  exemptionCeiling: 2,
  window: 12,
};
const MB = 1 << 20;

describe('the opt-in features keep memory bounded (P6)', () => {
  test('1,000 distinct 1 MB writes and failing 1 MB outputs on one agent retain under 1 MB with every opt-in on', (t) => {
    assertBounded(1000, 'write,result', t, ALL_ON);
  });

  test('1,000 distinct 1 MB writes and failing 1 MB outputs retain under 700 KB with the preset’s tracks on', (t) => {
    // Only the per-agent bound: every book of these tracks is per agent (a WeakMap on it) and capped
    // (256 actions for the stale book). What stays after the agent goes grows with the calls run with
    // the defaults too (36 KB after 500 calls, 207 KB after 1,500 here), most of it V8's compiled code
    // for paths that turn hot only during the measured calls. 700 KB: issue 38’s aim (441–451 KB read after stop 60's longer warm-up).
    assertBounded(1000, 'write,result', t, REAL_LOOPS, { afterDrop: false, retained: 700 * 1024 });
  });

  test('the same 1 MB call answered the same 1 MB result is denied by the stale track with texts of bounded size', async () => {
    const hooks = captureHooks(plugin, { ...REAL_LOOPS, onLimit: 'deny' });
    const agent = {};
    const call = { name: 'bash', arguments: { command: `cat ${'x'.repeat(MB)}` } };
    const same = { isError: false, value: { exitCode: 0 }, content: [{ type: 'text', text: 'y'.repeat(MB) }] };
    const outcomes = [];
    for (let i = 0; i < 4; i += 1) outcomes.push(await drive(hooks, { callId: `s${i}`, ...call, agent }, same));
    assert.ok((outcomes[1]?.notices[0]?.content[0]?.text.length ?? 0) < 2000, 'the advisory stays under 2000 characters');
    assert.ok(outcomes[2]?.denial?.includes('by the stale track'), String(outcomes[2]?.denial?.slice(0, 200)));
    assert.ok((outcomes[2]?.denial?.length ?? 0) < 3000, String(outcomes[2]?.denial?.length));
  });

  test('guesses in a 1,000-character command answered by 1 MB errors are denied by the guess track with texts of bounded size', async () => {
    const hooks = captureHooks(plugin, { ...REAL_LOOPS, stale: null, spin: null, onLimit: 'deny' });
    const agent = {};
    const error = { isError: false, value: { exitCode: 1 }, content: [{ type: 'text', text: `incorrect password ${'e'.repeat(MB)}` }] };
    const outcomes = [];
    for (let i = 0; i < 4; i += 1) {
      const command = `unzip -P pw${i} ${'x'.repeat(990)}.zip`;
      outcomes.push(await drive(hooks, { callId: `g${i}`, name: 'bash', arguments: { command }, agent }, error));
    }
    const advisory = outcomes[1]?.notices.find((n) => n.content[0]?.text.includes('values in the same place'));
    assert.ok(advisory !== undefined, 'the guess advisory at the second guess');
    assert.ok((advisory.content[0]?.text.length ?? 0) < 2000, 'the advisory stays under 2000 characters');
    assert.ok(outcomes[2]?.denial?.includes('by the guess track'), String(outcomes[2]?.denial?.slice(0, 300)));
    assert.ok((outcomes[2]?.denial?.length ?? 0) < 3000, String(outcomes[2]?.denial?.length));
  });

  test('a cycle of three 1 MB calls answered the same 1 MB results is denied by the spin track with texts of bounded size', async () => {
    const hooks = captureHooks(plugin, { ...REAL_LOOPS, stale: null, onLimit: 'deny' });
    const agent = {};
    const calls = [0, 1, 2].map((i) => ({ name: 'bash', arguments: { command: `grep ${i} ${'x'.repeat(MB)}` } }));
    const same = { isError: false, value: { exitCode: 0 }, content: [{ type: 'text', text: 'n'.repeat(MB) }] };
    const outcomes = [];
    for (let i = 0; i < 6; i += 1) outcomes.push(await drive(hooks, { callId: `p${i}`, ...calls[i % 3], agent }, same));
    const denied = outcomes.find((outcome) => outcome.denial?.includes('by the spin track') === true);
    assert.ok(denied !== undefined, 'denied by the spin track');
    assert.ok((denied.denial?.length ?? 0) < 3000, String(denied.denial?.length));
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

  test('300 seeded hostile calls with the preset’s tracks on, edits and time-outs among them, never throw', async () => {
    await fuzzHostile(plugin, {
      seed: 26,
      config: REAL_LOOPS,
      odds: [0.3, 0.5, 0.55],
      tools: ['edit', 'write', 'bash', 'job_output'],
      unreadable: () => [null, throwingProxy({}), { name: 'edit', agent: 3 }],
      alphabet: ['python train.py --lr 3', "sed -i 's/a/b/' x.py", ': ls -la', 'sleep 5 && cat log', "cat > f.py <<'EOF'\nhttps://a.com\nEOF"],
    });
  });
});

/**
 * In-process suite for the opt-in features (sequence track, progress-aware
 * gating, exemption ceiling, the act: measure): the genuine `ToolRuntime` from
 * `@deepseek-ai/dsh-tools` 0.1.0-rc.8 in a cordis `Context`, the genuine
 * approval service where a scenario asks, a stub `bash` whose output each
 * scenario scripts, and the plugin loaded from the packed build (../lib/rig.ts).
 *
 * The reference 0.5.2 has none of these features: under `--plugin reference`
 * every scenario is a `todo`.
 *
 * Run by `test/host/run.ts` under Node 22: `node --import tsx --test`.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { pluginUnderTest, shippedCaps, type Caps } from '../lib/env.js';
import { ours, rig, type Result } from '../lib/rig.js';
import { RESPELLED_PYTEST } from '../../support/respellings.js';

const plugin = pluginUnderTest();
const onlyOurs = plugin.label === 'reference' ? { todo: 'reference 0.5.2 has no opt-in tracks' } : {};
let caps: Caps;

before(async () => {
  caps = await shippedCaps(plugin);
});

const BLOCKED = /^Error: REPEAT_TOOL_BLOCKED/;
const CYCLE = ['grep -rn TODO src', 'curl -s http://127.0.0.1:9/items', 'cat notes.txt', 'echo checked'];

describe(`DSH 0.1.0-rc.8 tool pipeline, opt-in features — plugin: ${plugin.label} (${plugin.entry})`, () => {
  test('sequence: a four-call cycle gets one advisory at three repetitions and is denied after four', onlyOurs, async () => {
    const r = await rig({ config: { onLimit: 'deny', sequence: { length: 4, count: 3, limit: 4 } } });
    const results: Result[] = [];
    for (let i = 0; i < 20; i += 1) results.push(await r.call(CYCLE[i % 4]!));
    assert.equal(r.total(), 16, 'four full repetitions ran');
    results.forEach((res, i) => {
      const notices = ours(res.contexts);
      if (i === 11) {
        assert.equal(notices.length, 1, 'the twelfth call carries the advisory');
        assert.match(notices[0].content[0].text, /^CONVERGENCE_CHECK:/);
        assert.ok(notices[0].content[0].text.includes(CYCLE.join(' \u2192 ')), String(notices[0].content[0].text));
        assert.equal(notices[0].source.summary, 'sequence \u201cgrep \u2192 curl \u2192 cat \u2192 echo\u201d \u00d7 3');
        assert.equal(notices[0].role, 'user');
        assert.ok(Object.isFrozen(notices[0]), 'the advisory is frozen');
      } else {
        assert.equal(notices.length, 0, `no advisory on call ${i + 1}`);
      }
    });
    for (const res of results.slice(16)) {
      assert.equal(res.isError, true);
      assert.match(res.text, BLOCKED);
    }
    // The loop's first refusal in the turn explains in full; the later ones point back to it, naming the cycle (P17).
    assert.match(results[16]!.text, /by the sequence track/);
    results.slice(17).forEach((res, i) => {
      assert.doesNotMatch(res.text, /by the sequence track/);
      assert.match(res.text, new RegExp(`a loop blocked before \\(sequence \u201c[^\\n]*\u201d\\), ${i + 2} of its calls blocked this turn with this one; the first denial says why\\.\nInstead: `));
    });
    const breakOut = await r.call('ls -la');
    assert.equal(breakOut.isError, false, 'a call that breaks the cycle runs');
  });

  test('sequence off (the default): the same cycle runs twenty times without a notice', async () => {
    const r = await rig({ config: { onLimit: 'deny' } });
    const results: Result[] = [];
    for (let i = 0; i < 20; i += 1) results.push(await r.call(CYCLE[i % 4]!));
    assert.equal(r.total(), 20);
    assert.equal(results.flatMap((res) => ours(res.contexts)).length, 0);
  });

  test(
    'progress: results — a poll whose output changes runs past the cap; one whose output does not is denied at it',
    onlyOurs,
    async () => {
      const r = await rig({
        config: { onLimit: 'deny', progress: 'results' },
        behaviour: (command, run) => ({ exitCode: 0, stdout: command === 'cat /run/job.status' ? `job at ${run * 10}%` : 'unchanged' }),
      });
      for (let i = 0; i < caps.exact + 3; i += 1) assert.equal((await r.call('cat /run/job.status')).isError, false, `poll ${i + 1} ran`);
      const still: Result[] = [];
      for (let i = 0; i < caps.exact; i += 1) still.push(await r.call('cat /etc/hostname'));
      assert.equal(r.runs.get('cat /etc/hostname'), caps.exact - 1);
      assert.match(still[caps.exact - 1]!.text, BLOCKED);
    },
  );

  test('exemption ceiling: after an approval, N more calls run and the next is denied without a second ask', onlyOurs, async () => {
    const r = await rig({ config: { exemptionCeiling: 2 }, answer: 'allowed-once' });
    const command = 'cat /etc/hostname';
    const results: Result[] = [];
    for (let i = 0; i < caps.exact + 4; i += 1) results.push(await r.call(command));
    assert.equal(r.asks.length, 1, 'one ask reached the answerer');
    assert.match(r.asks[0]!, / Allow once runs it and up to 2 more like it; later ones are refused until your next message\. /);
    assert.equal(r.runs.get(command), caps.exact + 2, 'the approved call and two more ran');
    for (const res of results.slice(caps.exact + 2)) {
      assert.match(res.text, BLOCKED);
      assert.match(res.text, /the operator's approval is used up \(it allowed 2 calls like it\)/);
    }
    // The first denial at the ceiling explains in full; the later ones point back to it (P17).
    assert.match(results[caps.exact + 2]!.text, /allowance of 2 calls is spent/);
    for (const res of results.slice(caps.exact + 3)) {
      assert.doesNotMatch(res.text, /allowance of 2 calls is spent/);
      assert.match(res.text, /a loop blocked before \(exact \u201cbash:\{"command":"cat \/etc\/hostname"\}\u201d\), \d+ of its calls blocked this turn with this one; the first denial says why\./);
    }
  });

  test('act: with limits.act 12, a loop that respells its command on every call is denied from call 12, by act: alone', onlyOurs, async () => {
    const r = await rig({ config: { onLimit: 'deny', limits: { act: 12 } } });
    const results: Result[] = [];
    for (const command of RESPELLED_PYTEST) results.push(await r.call(command));
    assert.equal(r.total(), 11, 'eleven spellings ran');
    assert.equal(new Set(r.runs.keys()).size, 11, 'each of them once');
    assert.deepEqual(results.slice(0, 11).map((res) => res.isError), Array(11).fill(false));
    assert.equal(ours(results[6]!.contexts)[0]?.source.summary, 'act \u201cpytest -x tests\u201d \u00d7 7');
    for (const res of results.slice(11)) assert.match(res.text, BLOCKED);
    // The first denial lists its one hit, act: alone; the later ones point back to it, naming act: (P17).
    const hits = results[11]!.text.split('\n').filter((line) => /^- [a-z]+:/.test(line));
    assert.equal(hits.length, 1, results[11]!.text);
    assert.match(hits[0]!, /^- act:pytest -x tests 12\/12$/);
    for (const res of results.slice(12)) {
      assert.equal(res.text.split('\n').filter((line) => /^- [a-z]+:/.test(line)).length, 0, res.text);
      assert.match(res.text, /a loop blocked before \(act \u201cpytest -x tests\u201d\), \d+ of its calls blocked this turn with this one; the first denial says why\./);
    }
  });

  test('preset recommended: the same call answered the same, back to back, is gated at the 4th (stale.backToBack: 3)', onlyOurs, async () => {
    const r = await rig({ config: { onLimit: 'deny', preset: 'recommended' }, behaviour: () => ({ exitCode: 0, stdout: 'No matches found for "JsonParser"' }) });
    const results: Result[] = [];
    for (let i = 0; i < 5; i += 1) results.push(await r.call('find_file "JsonParser"'));
    assert.equal(r.total(), 3, 'three runs back to back, then the gate');
    const advisory = ours(results[2]!.contexts)[0];
    assert.match(String(advisory?.content[0].text), /^CONVERGENCE_CHECK: .* has returned the same result 3 times in a row, with nothing changed in between\./);
    assert.equal(results[3]?.isError, true);
    assert.match(results[3]?.text ?? '', /^Error: REPEAT_TOOL_BLOCKED: bash call not run: calls like it returned the same result 3 times in a row \(limit 3\)\. It was stopped before it ran, by the stale track/);
    // P17: the loop's second denial points back to the first, and, the preset's stopAfter being 3, says one more ends the turn.
    assert.equal(results[4]?.isError, true);
    assert.match(
      results[4]?.text ?? '',
      /^Error: REPEAT_TOOL_BLOCKED: bash call not run: a loop blocked before \(exact \u201cbash:\{"command":"find_file \\"JsonParser\\""\}\u201d\), 2 of its calls blocked this turn with this one; the first denial says why\.\nInstead: [^\n]*\nOne more blocked call of this loop ends the turn\.$/,
    );
    const other = await r.call('find_file "JsonParser" src');
    assert.equal(other.isError, false, 'a changed call runs');
  });

  test('preset recommended: the same call answered the same, with other calls between, is advised at the 3rd result and denied after the 5th, by the stale track', onlyOurs, async () => {
    const r = await rig({ config: { onLimit: 'deny', preset: 'recommended' }, behaviour: () => ({ exitCode: 0, stdout: 'No matches found for "JsonParser"' }) });
    const results: Result[] = [];
    for (let i = 0; i < 6; i += 1) {
      results.push(await r.call('find_file "JsonParser"'));
      // A new call between each: never the same call back to back, never a call answered before.
      await r.call(`ls dir${i}`);
    }
    assert.equal(r.runs.get('find_file "JsonParser"'), 5, 'five runs, then the gate');
    const advisory = ours(results[2]!.contexts)[0];
    assert.match(String(advisory?.content[0].text), /^CONVERGENCE_CHECK: .* has returned the same result 3 times in a row, with nothing changed in between\./);
    assert.equal(advisory?.source.summary, 'cmd \u201cfind_file:find_file JsonParser\u201d same result x3');
    assert.equal(results[5]?.isError, true);
    assert.match(results[5]?.text ?? '', /^Error: REPEAT_TOOL_BLOCKED: bash call not run: calls like it returned the same result 5 times in a row \(limit 5\)\. It was stopped before it ran, by the stale track/);
  });

  test('preset recommended: edit → rerun with a new error each time is progress: nothing is denied (the defaults gate the 6th run)', onlyOurs, async () => {
    const behaviour = (command: string, run: number): { exitCode: number; stdout: string } =>
      command.startsWith('python') ? { exitCode: 1, stdout: `Traceback: error ${run}` } : { exitCode: 0, stdout: '' };
    const session = async (config: Record<string, unknown>): Promise<boolean[]> => {
      const r = await rig({ config, behaviour });
      const denied: boolean[] = [];
      for (let i = 0; i < 6; i += 1) {
        await r.call(`sed -i 's/v${i}/v${i + 1}/' app.py`);
        denied.push((await r.call('python app.py')).isError);
      }
      return denied;
    };
    assert.deepEqual(await session({ onLimit: 'deny', preset: 'recommended' }), [false, false, false, false, false, false]);
    assert.deepEqual(await session({ onLimit: 'deny' }), [false, false, false, false, false, true], 'the defaults read the same runs as one failing retry');
  });

  test('act: off (the default): the same respelled loop runs every call without a notice', async () => {
    const r = await rig({ config: { onLimit: 'deny' } });
    const results: Result[] = [];
    for (const command of RESPELLED_PYTEST) results.push(await r.call(command));
    assert.equal(r.total(), RESPELLED_PYTEST.length);
    assert.equal(results.flatMap((res) => ours(res.contexts)).length, 0);
  });
});

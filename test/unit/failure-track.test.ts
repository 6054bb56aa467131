/**
 * The failure track: consecutive failures per fingerprint, the advisory at
 * failWarnAt and the gate after failLimit (contract §3.5). Thresholds come
 * from DEFAULTS.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { describeFailure } from '../../src/lib/text/failure.js';
import {
  bash,
  defaultCap,
  deniedAt,
  failing,
  gateHits,
  hitLines,
  loggedCall,
  loggedHost,
  newHost,
  noticedAt,
  noticeTexts,
  on,
  repeat,
  succeeding,
  summaries,
  type HostResult,
  shown,
} from '../support/session.js';

const failWarnAt = on(DEFAULTS.failWarnAt);
const failLimit = on(DEFAULTS.failLimit);
const warnAt = on(DEFAULTS.warnAt);
const NOPE = 'cat /nope';
const CMD = 'cmd:cat:cat /nope';
const EXACT = 'exact:bash:{"command":"cat /nope"}';
const exit1 = describeFailure({ reason: 'exit', detail: '1' });
const fail = { ...bash(NOPE), body: failing(1) };

describe('the failure advisory', () => {
  test('the defaults advise before they gate, and both come well before the occurrence warning', () => {
    assert.ok(failWarnAt < failLimit, 'the failure advisory comes before the failure gate');
    assert.ok(failLimit + 1 < warnAt, 'the failure gate comes before the occurrence warning');
  });

  test('consecutive failures of one call warn once, at failWarnAt, naming cmd: and the failure', async () => {
    const outcomes = await repeat(newHost(), {}, failLimit, fail);
    assert.deepEqual(noticedAt(outcomes), [failWarnAt]);
    assert.deepEqual(summaries(outcomes[failWarnAt - 1]!), [`${shown(CMD)} failed x${failWarnAt}`]);
    const text = noticeTexts(outcomes[failWarnAt - 1]!)[0] ?? '';
    assert.ok(text.startsWith('CONVERGENCE_CHECK:'), text);
    assert.ok(text.includes(CMD), text);
    assert.ok(text.includes(exit1), text);
    assert.ok(!text.includes(EXACT), 'the advisory names the measure, not the exact: command line');
  });

  test('the advisory describes the current failure (Q8)', async () => {
    const host = newHost();
    const agent = {};
    const outcomes = [];
    for (const code of [1, 1, 2]) outcomes.push(await host.call({ agent, ...bash(NOPE), body: failing(code) }));
    const text = noticeTexts(outcomes[2]!)[0] ?? '';
    assert.ok(text.includes(describeFailure({ reason: 'exit', detail: '2' })), text);
  });

  test('the failure advisory comes before the occurrence advisory when both fire on one call', async () => {
    const outcomes = await repeat(newHost({ warnAt: failWarnAt }), {}, failWarnAt, fail);
    const got = summaries(outcomes[failWarnAt - 1]!);
    assert.equal(got.length, 2);
    assert.ok(got[0]?.endsWith(`failed x${failWarnAt}`), got[0] ?? 'no notice');
    assert.ok(got[1]?.endsWith(`× ${failWarnAt}`), got[1] ?? 'no notice');
  });
});

describe('the failure gate', () => {
  test('after failLimit failures the NEXT call carrying the fingerprint is blocked', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, failLimit + 1, fail);
    assert.ok(outcomes.slice(0, failLimit).every((o) => o.ran), `the first ${failLimit} failing calls run`);
    assert.deepEqual(deniedAt(outcomes), [failLimit + 1]);
    const reason = outcomes[failLimit]?.denyReason ?? '';
    assert.ok(reason.startsWith('REPEAT_TOOL_BLOCKED:'), reason);
    const lines = hitLines(reason);
    assert.ok(lines.includes(`- ${CMD} — ${failLimit} consecutive failures (${exit1})`), lines.join('\n'));
    assert.ok(lines.includes(`- ${EXACT} — ${failLimit} consecutive failures (${exit1})`), lines.join('\n'));
  });

  test('with onLimit: ask the failure gate asks the operator first', async () => {
    const outcomes = await repeat(newHost(), {}, failLimit + 1, fail);
    assert.equal(outcomes[failLimit]?.asked, true);
    assert.equal(outcomes[failLimit]?.ran, false);
    assert.match(outcomes[failLimit]?.askReason ?? 'no ask', new RegExp(`^Loop breaker: this command has failed ${failLimit} times in a row \\(exit status 1\\)\\. `));
  });

  test('a recovery call, or a different target, is not blocked by the failure gate', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, failLimit, fail);
    const grep = await host.call({ agent, ...bash('grep -rn error /var/log/app.log') });
    const other = await host.call({ agent, ...bash('cat /etc/other') });
    const again = await host.call({ agent, ...fail });
    assert.equal(grep.ran, true);
    assert.equal(other.ran, true);
    assert.equal(again.denied, true);
  });

  test('the denial quotes the last failure recorded for the fingerprint (Q8)', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    for (const code of [1, 1, 2, 3, 4]) await host.call({ agent, ...bash(NOPE), body: failing(code) });
    const denied = await host.call({ agent, ...fail });
    assert.ok(
      hitLines(denied.denyReason).includes(`- ${CMD} — ${failLimit} consecutive failures (${describeFailure({ reason: 'exit', detail: '4' })})`),
      denied.denyReason ?? 'no denial',
    );
  });
});

describe('what clears a streak', () => {
  test('after a success clears the streak, the advisory can fire again', async () => {
    const host = newHost({ warnAt: null, summarizeAt: null });
    const agent = {};
    const ok = { ...bash(NOPE), body: succeeding('now it exists') };
    const sequence = [...Array(failWarnAt).fill(fail), ok, ...Array(failWarnAt).fill(fail)];
    const outcomes = [];
    for (const call of sequence) outcomes.push(await host.call({ agent, ...call }));
    assert.deepEqual(noticedAt(outcomes), [failWarnAt, 2 * failWarnAt + 1]);
  });

  test('a success of the failing fingerprint clears its streak', async () => {
    const host = newHost();
    const agent = {};
    const outcomes = [];
    const ok = { ...bash(NOPE), body: succeeding('now it exists') };
    for (const call of [fail, fail, ok, fail, fail]) outcomes.push(await host.call({ agent, ...call }));
    assert.deepEqual(noticedAt(outcomes), []);
    outcomes.push(await host.call({ agent, ...fail }));
    assert.deepEqual(noticedAt(outcomes), [6]);
  });

  test('a success of a different fingerprint does not clear the streak', async () => {
    const host = newHost();
    const agent = {};
    const outcomes = [];
    const other = { ...bash('cat /etc/ok'), body: succeeding() };
    for (const call of [fail, fail, other, fail]) outcomes.push(await host.call({ agent, ...call }));
    assert.deepEqual(noticedAt(outcomes), [4]);
    assert.deepEqual(summaries(outcomes[3]!), [`${shown(CMD)} failed x3`]);
  });
});

describe('what counts as a failure', () => {
  test("the plugin's own failure denials never grow the streak", async () => {
    const logged = loggedHost({ onLimit: 'deny' });
    const agent = {};
    const outcomes = [];
    for (let i = 0; i < failLimit + 4; i += 1) outcomes.push(await loggedCall(logged, { agent, ...fail }));
    assert.ok(hitLines(outcomes[failLimit]?.denyReason).includes(`- ${CMD} — ${failLimit} consecutive failures (${exit1})`), outcomes[failLimit]?.denyReason ?? 'no denial');
    for (const outcome of outcomes.slice(failLimit)) {
      assert.equal(outcome.denied, true);
      assert.equal(outcome.notices.length, 0);
      // The loop's later refusals point back to the first (P17); each gate line still counts the streak.
      assert.ok(gateHits(outcome.logged[0]).includes(`${shown(CMD)} ${failLimit}/${failLimit}`), outcome.logged.join('\n'));
    }
  });

  test("the plugin's own repeat denials are not failures", async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', limits: { exact: 2, cmd: 2 }, warnAt: null, summarizeAt: null }), {}, failWarnAt + 5, bash('cat /etc/hosts'));
    assert.deepEqual(deniedAt(outcomes).length, failWarnAt + 4);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('declined and unattended asks are not failures', async () => {
    const host = newHost({ limits: { exact: 2, cmd: 2 }, warnAt: null, summarizeAt: null });
    const agent = {};
    const outcomes = [await host.call({ agent, ...bash('cat /etc/hosts') })];
    for (let i = 0; i < failWarnAt + 3; i += 1) outcomes.push(await host.call({ agent, ...bash('cat /etc/hosts'), answer: i % 2 === 0 ? 'decline' : 'none' }));
    assert.equal(outcomes[1]?.asked, true);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('an isError result from elsewhere counts as a failure with reason error', async () => {
    const body = (): HostResult => ({ isError: true, content: [{ type: 'text', text: 'Error: boom' }], error: { message: 'boom' } });
    const outcomes = await repeat(newHost(), {}, failWarnAt, { name: 'read', arguments: { path: '/x' }, body });
    assert.deepEqual(summaries(outcomes[failWarnAt - 1]!), [`${shown('exact:read:{"path":"/x"}')} failed x${failWarnAt}`]);
    assert.ok(
      (noticeTexts(outcomes[failWarnAt - 1]!)[0] ?? '').includes(describeFailure({ reason: 'error', detail: '' })),
      'the advisory describes the failure as an error',
    );
  });

  test('a thrown tool error is described with the code at error.info.code, in the advisory and the denial', async () => {
    const body = (): HostResult => {
      throw Object.assign(new Error('no such file'), { info: { code: 'ENOENT', name: 'ToolError' } });
    };
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, failLimit + 1, { name: 'read', arguments: { path: '/missing' }, body });
    const advisory = noticeTexts(outcomes[failWarnAt - 1]!)[0] ?? '';
    assert.ok(advisory.includes(describeFailure({ reason: 'error', detail: 'ENOENT' })), advisory);
    assert.ok((outcomes[failLimit]?.denyReason ?? '').includes('ENOENT'), outcomes[failLimit]?.denyReason ?? 'no denial');
  });

  test('a result carrying error.code is described with that code', async () => {
    const body = (): HostResult => ({ isError: true, content: [{ type: 'text', text: 'Error: denied' }], error: { message: 'denied', code: 'EACCES' } });
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, failLimit + 1, { name: 'write', arguments: { path: '/etc/x' }, body });
    assert.ok(
      (noticeTexts(outcomes[failWarnAt - 1]!)[0] ?? '').includes(describeFailure({ reason: 'error', detail: 'EACCES' })),
      'the advisory describes the failure with its code EACCES',
    );
    assert.ok((outcomes[failLimit]?.denyReason ?? '').includes('EACCES'), outcomes[failLimit]?.denyReason ?? 'no denial');
  });

  test('a started background job is not a failure, whatever its exit code', async () => {
    const body = (): HostResult => ({ isError: false, value: { kind: 'background', jobId: 'j1', exitCode: 1 }, content: [{ type: 'text', text: 'started [exit code: 1]' }] });
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, failLimit + 1, { ...bash('sleep 100'), body });
    assert.deepEqual(noticedAt(outcomes), []);
    assert.deepEqual(deniedAt(outcomes), []);
  });
});

describe('the measures the failure track watches', () => {
  const rotating = (i: number) => ({ ...bash(`curl -s https://host${i}.site${i}.org/`), body: failing(6, 'curl: (6) Could not resolve host') });

  test('null-capped measures (verb:curl, family:http-fetch) are invisible to the failure track', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const outcomes = [];
    for (let i = 1; i <= failLimit + 3; i += 1) outcomes.push(await host.call({ agent, ...rotating(i) }));
    assert.deepEqual(noticedAt(outcomes), []);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('giving verb:curl a cap makes the same run build a verb:curl streak', async () => {
    const host = newHost({ onLimit: 'deny', limits: { 'verb:curl': defaultCap('exact') } });
    const agent = {};
    const outcomes = [];
    for (let i = 1; i <= failLimit + 1; i += 1) outcomes.push(await host.call({ agent, ...rotating(i) }));
    assert.deepEqual(summaries(outcomes[failWarnAt - 1]!), [`${shown('verb:curl')} failed x${failWarnAt}`]);
    assert.deepEqual(deniedAt(outcomes), [failLimit + 1]);
  });

  test('rotating paths on one host build the host: streak although every net: differs', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const outcomes = [];
    const detail = describeFailure({ reason: 'exit', detail: '22' });
    for (let i = 1; i <= failLimit + 1; i += 1) {
      outcomes.push(await host.call({ agent, ...bash(`curl -sf "https://archive-api.open-meteo.com/v1/archive?day=${i}"`), body: failing(22, 'curl: (22) The requested URL returned error: 404') }));
    }
    assert.deepEqual(summaries(outcomes[failWarnAt - 1]!), [`${shown('host:archive-api.open-meteo.com')} failed x${failWarnAt}`]);
    assert.deepEqual(deniedAt(outcomes), [failLimit + 1]);
    assert.deepEqual(hitLines(outcomes[failLimit]?.denyReason), [`- host:archive-api.open-meteo.com — ${failLimit} consecutive failures (${detail})`]);
  });
});

describe('the failure switches', () => {
  test('failLimit: null removes the gate but keeps the advisory, which fires exactly once', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', failLimit: null, warnAt: null, summarizeAt: null }), {}, failLimit + 3, fail);
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), [failWarnAt]);
  });

  test('failWarnAt: 0 removes the advisory but keeps the gate', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', failWarnAt: 0 }), {}, failLimit + 1, fail);
    assert.deepEqual(noticedAt(outcomes), []);
    assert.deepEqual(deniedAt(outcomes), [failLimit + 1]);
  });

  test('a non-integer failLimit such as 2.5 gates after the third failure', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', failLimit: 2.5, failWarnAt: null }), {}, 5, fail);
    assert.deepEqual(deniedAt(outcomes), [4, 5]);
  });
});

/**
 * One gate for both tracks: ask, approve, decline, unattended, exemptions and
 * refusals (contract §3.3, §3.6, §3.7 Q5).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { bash, defaultCap, deniedAt, failing, gateHits, hitLines, loggedCall, loggedHost, newHost, noticedAt, on, repeat, shown } from '../support/session.js';

const X = bash('cat /etc/hosts');
const EXACT = 'exact:bash:{"command":"cat /etc/hosts"}';
const CMD = 'cmd:cat:cat /etc/hosts';
const cap = defaultCap('exact');
const hostCap = defaultCap('host');
const failLimit = on(DEFAULTS.failLimit);
/** The refusal paragraph: an exemption was asked for and not granted. */
export const REFUSAL = /not granted|was declined|were declined|refused|not approved|did not approve|no operator is present|withdrawn/i;

describe('asking the operator (onLimit: ask)', () => {
  test('ask is the default, and the cap-th identical call asks before it runs', async () => {
    assert.equal(DEFAULTS.onLimit, 'ask');
    const host = newHost();
    const outcomes = await repeat(host, {}, cap, { ...X, answer: 'approve' });
    assert.deepEqual(outcomes.map((o) => o.asked).indexOf(true), cap - 1);
    const ask = outcomes[cap - 1]?.askReason ?? '';
    assert.ok(ask.includes(`the ${cap}th run of this command`), ask);
    // P16: the measures and their counts are the log line's.
    const line = host.logged.find((logged) => logged.startsWith('gate, asked the operator:')) ?? '';
    assert.ok(line.includes(`${shown(EXACT)} ${cap}/${cap}`) && line.includes(`${shown(CMD)} ${cap}/${cap}`), line);
  });

  test('an approved call runs, and identical calls then run for the rest of the turn without asking', async () => {
    const host = newHost();
    const agent = {};
    await repeat(host, agent, cap - 1, X);
    const approved = await host.call({ agent, ...X, answer: 'approve' });
    assert.equal(approved.asked, true);
    assert.equal(approved.ran, true);
    const later = await repeat(host, agent, 2 * cap, X);
    assert.ok(later.every((o) => o.ran && !o.asked && !o.denied), 'identical calls run unasked for the rest of the turn');
  });

  test('an approval exempts exactly the measures that hit: host: keeps counting and is asked about later', async () => {
    const host = newHost();
    const agent = {};
    const z = bash('curl -s https://h.com/z');
    await repeat(host, agent, cap - 1, z);
    const approved = await host.call({ agent, ...z, answer: 'approve' });
    assert.equal(approved.asked, true);
    const asks = (): string[] => host.logged.filter((line) => line.startsWith('gate, asked the operator:'));
    assert.ok(asks()[0]?.includes(shown('net:h.com/z')), 'the gate line names the net: measure that hit');
    assert.ok(!asks()[0]?.includes('host \u201ch.com'), 'host: has not hit yet');
    const after = await repeat(host, agent, hostCap - cap, z);
    const asked = after.map((o) => o.asked);
    assert.deepEqual(asked.indexOf(true), hostCap - cap - 1, 'the host-cap-th call asks again');
    assert.match(after[hostCap - cap - 1]?.askReason ?? '', /^Loop breaker: this would be the \d+th call to the host \u201ch\.com\u201d /, 'P16: the ask names the host, which DSH\u2019s box does not');
    const line = asks()[1] ?? '';
    assert.ok(line.includes(shown('host:h.com')), line);
    assert.ok(!line.includes('net \u201c'), 'net: stays exempt');
    assert.ok(!line.includes('exact \u201c'), 'exact: stays exempt');
  });

  test('an approved failure hit stops the failure track for those fingerprints', async () => {
    const host = newHost();
    const agent = {};
    const fail = { ...bash('cat /nope'), body: failing(1), answer: 'approve' as const };
    const outcomes = await repeat(host, agent, failLimit + 6, fail);
    assert.equal(outcomes[failLimit]?.asked, true);
    assert.ok(outcomes.every((o) => o.ran), 'the approved failing call keeps running');
    assert.deepEqual(noticedAt(outcomes.slice(failLimit)), []);
  });
});

describe('declining', () => {
  test('a declined call does not run, and later identical calls are denied without asking again', async () => {
    const host = newHost();
    const agent = {};
    await repeat(host, agent, cap - 1, X);
    const declined = await host.call({ agent, ...X, answer: 'decline' });
    assert.equal(declined.asked, true);
    assert.equal(declined.ran, false);
    const later = await repeat(host, agent, 3, { ...X, answer: 'approve' });
    for (const outcome of later) {
      assert.equal(outcome.asked, false);
      assert.equal(outcome.denied, true);
      assert.ok(outcome.denyReason?.startsWith('REPEAT_TOOL_BLOCKED:'), outcome.denyReason ?? 'no denial');
      assert.match(outcome.denyReason ?? '', REFUSAL);
    }
  });

  test('a declined call still spends the budget of the measures that hit', async () => {
    const logged = loggedHost();
    const agent = {};
    await repeat(logged.host, agent, cap - 1, X);
    await logged.host.call({ agent, ...X, answer: 'decline' });
    const next = await loggedCall(logged, { agent, ...X });
    assert.equal(next.denied, true);
    // The loop's second refusal points back to the first (P17); the gate's log line counts it.
    assert.ok(gateHits(next.logged[0]).includes(`${shown(CMD)} ${cap + 1}/${cap}`), next.logged.join('\n'));
  });

  test('an unattended ask (no answerer) is a decline: the first gated call is denied, later ones get REPEAT_TOOL_BLOCKED', async () => {
    const host = newHost();
    const outcomes = await repeat(host, {}, cap + 2, X);
    assert.equal(outcomes[cap - 1]?.asked, true);
    assert.equal(outcomes[cap - 1]?.ran, false);
    assert.deepEqual(deniedAt(outcomes), [cap, cap + 1, cap + 2]);
    for (const outcome of outcomes.slice(cap)) {
      assert.equal(outcome.asked, false);
      assert.ok(outcome.denyReason?.startsWith('REPEAT_TOOL_BLOCKED:'), 'a later call gets REPEAT_TOOL_BLOCKED');
      assert.match(outcome.denyReason ?? '', REFUSAL);
    }
  });

  test('Q5: when only some blocking measures were refused there is no ask and no refusal paragraph', async () => {
    const host = newHost();
    const agent = {};
    const z = bash('curl -s https://h.com/z');
    await repeat(host, agent, cap - 1, z);
    const declined = await host.call({ agent, ...z, answer: 'decline' });
    assert.equal(declined.asked, true);
    for (let i = 1; i <= hostCap - cap; i += 1) {
      const step = await host.call({ agent, ...bash(`curl -s https://h.com/a${i}`) });
      assert.equal(step.denied, false);
    }
    const mixed = await host.call({ agent, ...bash('curl -s https://h.com/z -o /tmp/q'), answer: 'approve' });
    assert.equal(mixed.asked, false);
    assert.equal(mixed.denied, true);
    assert.deepEqual(hitLines(mixed.denyReason), [`- net:h.com/z ${cap + 1}/${cap}`, `- host:h.com ${hostCap}/${hostCap}`]);
    assert.doesNotMatch(mixed.denyReason ?? '', REFUSAL);
  });

  test('a denial of measures nobody was asked about carries no refusal paragraph', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, cap, X);
    assert.doesNotMatch(outcomes[cap - 1]?.denyReason ?? '', REFUSAL);
  });
});

describe('onLimit: deny', () => {
  test('never asks, and denies the cap-th call outright', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, cap + 1, { ...X, answer: 'approve' });
    assert.ok(outcomes.every((o) => !o.asked), 'onLimit: deny never asks');
    assert.deepEqual(deniedAt(outcomes), [cap, cap + 1]);
    assert.ok(outcomes[cap - 1]?.denyReason?.startsWith('REPEAT_TOOL_BLOCKED:'), 'the cap-th call is denied outright');
  });
});

describe('a human message ends the turn', () => {
  test('a human message clears the window, so the same call runs again and counts from one', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, cap, X);
    await host.human(agent);
    const fresh = await repeat(host, agent, cap, X);
    assert.deepEqual(deniedAt(fresh), [cap]);
  });

  test('a human message clears a refusal, so the gate asks again instead of denying', async () => {
    const host = newHost();
    const agent = {};
    await repeat(host, agent, cap, X);
    await host.human(agent);
    const fresh = await repeat(host, agent, cap, X);
    assert.equal(fresh[cap - 1]?.asked, true);
    assert.ok(fresh.slice(0, cap - 1).every((o) => o.ran), 'the calls before the cap run again');
  });

  test('a human message clears an approval, so the measure is gated again next turn', async () => {
    const host = newHost();
    const agent = {};
    await repeat(host, agent, cap, { ...X, answer: 'approve' });
    await host.human(agent);
    const fresh = await repeat(host, agent, cap, X);
    assert.equal(fresh[cap - 1]?.asked, true);
    assert.equal(fresh[cap - 1]?.ran, false);
  });

  test('a human message clears failure streaks', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const fail = { ...bash('cat /nope'), body: failing(1) };
    await repeat(host, agent, failLimit, fail);
    await host.human(agent);
    const fresh = await repeat(host, agent, failLimit + 1, fail);
    assert.deepEqual(deniedAt(fresh), [failLimit + 1]);
  });

  test('a plugin notice delivered as a message does not reset anything', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, cap - 1, X);
    await host.step(agent, [{ id: 'n1', role: 'user', content: [{ type: 'text', text: 'CONVERGENCE_CHECK: …' }], source: { kind: 'plugin', plugin: 'repeat-tool-breaker', form: 'notice', summary: 's' } }]);
    await host.step(agent, [{ id: 'n2', role: 'assistant', content: [], source: { kind: 'model' } }]);
    await host.step(agent, []);
    const next = await host.call({ agent, ...X });
    assert.equal(next.denied, true);
  });

  test("one agent's human message does not reset another agent", async () => {
    const host = newHost({ onLimit: 'deny' });
    const a = {};
    const b = {};
    await repeat(host, a, cap - 1, X);
    await host.human(b);
    assert.equal((await host.call({ agent: a, ...X })).denied, true);
  });
});

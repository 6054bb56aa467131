/**
 * The per-agent sliding window: what is committed, when it slides, and whose
 * window a call lands in (contract §3.2, §3.7 Q4, Q9).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { bash, defaultCap, deniedAt, gateHits, hitLines, loggedCall, loggedHost, newHost, noticedAt, on, repeat, shown } from '../support/session.js';

const X = bash('cat /etc/hosts');
const CMD = 'cmd:cat:cat /etc/hosts';
const cap = defaultCap('exact');
const window = on(DEFAULTS.window);
const warnAt = on(DEFAULTS.warnAt);

async function xAfterOthers(others: number): Promise<boolean> {
  const host = newHost({ onLimit: 'deny' });
  const agent = {};
  await repeat(host, agent, cap - 1, X);
  for (let i = 1; i <= others; i += 1) await host.call({ agent, ...bash(`echo other-${i}`) });
  return (await host.call({ agent, ...X })).denied;
}

describe('the sliding window', () => {
  test('the first occurrence of anything is allowed, and the cap-th is the first one denied', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, cap, X);
    assert.deepEqual(deniedAt(outcomes), [cap]);
  });

  test('other calls that still leave cap − 1 copies in the window do not save a repeat', async () => {
    assert.equal(await xAfterOthers(window - cap + 1), true);
  });

  test('once an old copy slides out of the window, the repeat is allowed again', async () => {
    assert.equal(await xAfterOthers(window - cap + 2), false);
  });

  test('a window smaller than the cap can never gate', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', window: 4 }), {}, cap * 2, X);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('a fractional cap such as 2.5 trips on the third call', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', limits: { exact: 2.5, cmd: 2.5 } }), {}, 4, X);
    assert.deepEqual(deniedAt(outcomes), [3, 4]);
  });
});

describe('what a call commits', () => {
  test('a denied call commits the fingerprints that hit, so the next denial shows next above cap (Q9)', async () => {
    const logged = loggedHost({ onLimit: 'deny' });
    const agent = {};
    const outcomes = [];
    for (let i = 0; i < cap + 2; i += 1) outcomes.push(await loggedCall(logged, { agent, ...X }));
    assert.ok(hitLines(outcomes[cap - 1]?.denyReason).includes(`- ${CMD} ${cap}/${cap}`), 'the cap-th call hits at cap/cap');
    // The loop's later denials point back to the first (P17): their counts are in the gate's log lines.
    assert.ok(gateHits(outcomes[cap]?.logged[0]).includes(`${shown(CMD)} ${cap + 1}/${cap}`), 'the denied call was committed');
    assert.ok(gateHits(outcomes[cap + 1]?.logged[0]).includes(`${shown(CMD)} ${cap + 2}/${cap}`), 'and so was the next one');
  });

  test('a denied curl does not spend net: budget on the URL it never fetched', async () => {
    const { host, gates } = loggedHost({ onLimit: 'deny', limits: { sink: 2, net: 2 } });
    const agent = {};
    const first = await host.call({ agent, ...bash('curl -s https://a.example.com/1 -o /tmp/o') });
    const denied = await host.call({ agent, ...bash('curl -s https://b.example.com/2 -o /tmp/o') });
    const retry = await host.call({ agent, ...bash('curl -s https://b.example.com/2 -o /tmp/p') });
    assert.equal(first.denied, false);
    assert.equal(denied.denied, true);
    assert.deepEqual(hitLines(denied.denyReason), ['- sink:/tmp/o 2/2']);
    assert.equal(retry.denied, false, 'net:b.example.com/2 was not charged by the denial');
    const again = await host.call({ agent, ...bash('curl -s https://c.example.com/3 -o /tmp/o') });
    // The sink's second denial this turn points back to the first (P17), its count is in the gate's log line.
    assert.match(again.denyReason ?? '', /a loop blocked before \(sink \u201c\/tmp\/o\u201d\), 2 of its calls blocked/);
    assert.deepEqual(gateHits(gates[gates.length - 1]), [`${shown('sink:/tmp/o')} 3/2`]);
  });

  test('Q4: a call whose fingerprints are all exempt takes no window slot', async () => {
    const host = newHost({ limits: { exact: 4 }, warnAt: null, summarizeAt: null });
    const agent = {};
    const r = { name: 'read', arguments: { path: '/a' } };
    const y = { name: 'read', arguments: { path: '/b' } };
    await repeat(host, agent, 3, r);
    const approved = await host.call({ agent, ...r, answer: 'approve' });
    assert.equal(approved.asked, true);
    await repeat(host, agent, 3, y);
    const exempt = await repeat(host, agent, window + 4, r);
    assert.ok(exempt.every((o) => o.ran && !o.asked), 'the exempt read runs on without asking');
    const fourth = await host.call({ agent, ...y });
    assert.equal(fourth.asked, true, 'the three /b reads are still in the window');
  });
});

describe('per-agent isolation', () => {
  test("one agent's repeats never gate or advise another agent", async () => {
    const host = newHost({ onLimit: 'deny' });
    const a = {};
    const b = {};
    await repeat(host, a, cap - 1, X);
    const other = await repeat(host, b, warnAt - 1, X);
    assert.deepEqual(deniedAt(other), []);
    assert.deepEqual(noticedAt(other), []);
    assert.equal((await host.call({ agent: a, ...X })).denied, true);
    assert.deepEqual(noticedAt([await host.call({ agent: b, ...X })]), [1], 'b reaches its own warnAt');
  });

  test('agents are told apart by object identity, not by an id field', async () => {
    const host = newHost({ onLimit: 'deny' });
    const outcomes = [];
    for (let i = 0; i < cap + 3; i += 1) outcomes.push(await host.call({ agent: { id: 'same-agent' }, ...X }));
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('two plugin instances keep separate state', async () => {
    const one = newHost({ onLimit: 'deny' });
    const two = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(one, agent, cap - 1, X);
    assert.equal((await two.call({ agent, ...X })).denied, false);
    assert.equal((await one.call({ agent, ...X })).denied, true);
  });
});

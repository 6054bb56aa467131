/**
 * The exemption ceiling (opt-in, `exemptionCeiling: N`): the ceiling book,
 * and through the fake host: N more calls after an approval, then a denial
 * without a second ask, reset by a human message.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCeilingBook } from '../../src/lib/breaker/ceiling.js';
import { BOOK_LIMIT } from '../../src/lib/memory/book.js';
import { bash, defaultCap, deniedAt, newHost, repeat } from '../support/session.js';

const X = bash('cat /etc/hosts');
const cap = defaultCap('exact');

describe('the ceiling book', () => {
  test('a granted key reaches the ceiling after `ceiling` uses; a key never granted never does', () => {
    const book = createCeilingBook();
    const agent = {};
    book.grant(agent, ['k']);
    assert.equal(book.reached(agent, 'k', 2), false);
    book.use(agent, ['k', 'other']);
    assert.equal(book.reached(agent, 'k', 2), false);
    book.use(agent, ['k']);
    assert.equal(book.reached(agent, 'k', 2), true);
    assert.equal(book.reached(agent, 'other', 2), false);
    assert.equal(book.reached({}, 'k', 2), false, 'per agent');
  });

  test('one call spends a key once, however often it lists it', () => {
    const book = createCeilingBook();
    const agent = {};
    book.grant(agent, ['k']);
    book.use(agent, ['k', 'k']);
    assert.equal(book.reached(agent, 'k', 2), false);
  });

  test('a new grant starts its count again, and a reset forgets them all', () => {
    const book = createCeilingBook();
    const agent = {};
    book.grant(agent, ['k']);
    book.use(agent, ['k']);
    book.grant(agent, ['k']);
    assert.equal(book.reached(agent, 'k', 1), false);
    book.use(agent, ['k']);
    book.reset(agent);
    assert.equal(book.reached(agent, 'k', 1), false);
  });

  test('at most BOOK_LIMIT keys are kept per agent, the oldest approval going first', () => {
    const book = createCeilingBook();
    const agent = {};
    book.grant(agent, ['first']);
    book.use(agent, ['first']);
    for (let i = 0; i < BOOK_LIMIT; i += 1) book.grant(agent, [`k${i}`]);
    assert.equal(book.reached(agent, 'first', 1), false, 'evicted: the book no longer knows it');
  });
});

describe('the exemption ceiling through the hooks', () => {
  test('off by default: an approved measure runs on without limit', async () => {
    const host = newHost();
    const agent = {};
    await repeat(host, agent, cap, { ...X, answer: 'approve' });
    const later = await repeat(host, agent, 50, { ...X, answer: 'approve' });
    assert.ok(later.every((o) => o.ran && !o.asked), 'the approved measure runs on, never asked again');
  });

  test('with a ceiling of 3, the approved call and three more run; the next is denied without asking', async () => {
    const host = newHost({ exemptionCeiling: 3 });
    const agent = {};
    const outcomes = await repeat(host, agent, cap + 5, { ...X, answer: 'approve' });
    assert.equal(outcomes[cap - 1]!.asked, true);
    assert.deepEqual(
      outcomes.map((o) => o.asked),
      outcomes.map((_, i) => i === cap - 1),
      'one ask only',
    );
    assert.deepEqual(deniedAt(outcomes), [cap + 4, cap + 5]);
    const text = outcomes[cap + 3]!.denyReason ?? '';
    assert.match(text, /^REPEAT_TOOL_BLOCKED:/);
    assert.match(text, /allowance of 3 calls is spent/);
    assert.match(text, /next human message/);
    assert.ok(text.includes('- exact:bash:{"command":"cat /etc/hosts"}'), text);
  });

  test('the ask tells the operator how far an approval goes', async () => {
    const host = newHost({ exemptionCeiling: 1 });
    const outcomes = await repeat(host, {}, cap, { ...X, answer: 'approve' });
    assert.match(outcomes[cap - 1]!.askReason ?? '', / Allow once runs it and up to 1 more like it; later ones are refused until your next message\. /);
  });

  test('with onLimit: deny there is no approval, so the ceiling never applies', async () => {
    const outcomes = await repeat(newHost({ exemptionCeiling: 1, onLimit: 'deny' }), {}, cap + 1, X);
    assert.deepEqual(deniedAt(outcomes), [cap, cap + 1]);
    assert.doesNotMatch(outcomes[cap - 1]!.denyReason ?? '', /allowance/);
  });

  test('a human message resets an exemption at its ceiling: the measure counts from zero again', async () => {
    const host = newHost({ exemptionCeiling: 1 });
    const agent = {};
    const first = await repeat(host, agent, cap + 2, { ...X, answer: 'approve' });
    assert.deepEqual(deniedAt(first), [cap + 2]);
    await host.human(agent);
    const after = await repeat(host, agent, cap - 1, { ...X, answer: 'approve' });
    assert.ok(after.every((o) => o.ran && !o.asked), 'the measure counts from zero: every call runs unasked');
  });

  test('a measure at its exemption ceiling blocks a different call that carries it, without an ask', async () => {
    const host = newHost({ exemptionCeiling: 1, limits: { host: 4 } });
    const agent = {};
    const calls = [0, 1, 2, 3, 4, 5].map((i) => ({ ...bash(`curl -s https://api.example.com/v${i}`), answer: 'approve' as const }));
    const outcomes = [];
    for (const call of calls) outcomes.push(await host.call({ agent, ...call }));
    assert.deepEqual(
      outcomes.map((o) => [o.asked, o.ran]),
      [
        [false, true],
        [false, true],
        [false, true],
        [true, true],
        [false, true],
        [false, false],
      ],
    );
    assert.match(outcomes[5]!.denyReason ?? '', /- host:api\.example\.com/);
  });

  test('the ceiling covers an approved cycle of the sequence track too', async () => {
    const host = newHost({ exemptionCeiling: 2, sequence: { length: 2, count: 2, limit: 2 } });
    const agent = {};
    const calls = [bash('grep -rn TODO src'), bash('echo done')];
    const outcomes = [];
    for (let i = 0; i < 9; i += 1) outcomes.push(await host.call({ agent, ...calls[i % 2]!, answer: 'approve' }));
    assert.equal(outcomes[4]!.asked, true, 'the fifth call would start a third repetition');
    assert.deepEqual(deniedAt(outcomes), [8, 9]);
    assert.equal(outcomes[7]!.asked, false);
    assert.ok((outcomes[7]!.denyReason ?? '').includes('- echo done \u2192 grep -rn TODO src'), outcomes[7]!.denyReason ?? 'no denial');
  });
});

/**
 * stale.backToBack over a round of two (src/lib/tracks/alternation.ts): the
 * very same two calls in turn, each answered as the round before, nothing
 * changed and no third call between, that many rounds; the call that starts
 * the next round meets the gate.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bash, bashResult, deniedAt, newHost, textResult, type Call, type CallOutcome } from '../support/session.js';
import type { FakeHost } from '../support/fake-host.js';
import { alternationWords, createAlternation } from '../../src/lib/tracks/alternation.js';

async function run(host: FakeHost, agent: object, calls: readonly Call[]): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (const call of calls) out.push(await host.call({ agent, ...call }));
  return out;
}

const FILE = '/repo/billing/invoice.py';
/** SWE-agent's `goto 130`, as the corpus logs it: a read of the window. */
const goto = (window = 'window A'): Call => ({ name: 'read', arguments: { file_path: FILE, offset: 80, limit: 100 }, body: () => textResult(`[File: ${FILE}]\n${window}`) });
/** The same `edit 130:130`, rejected by the linter each time. */
const rejected: Call = {
  name: 'edit',
  arguments: { file_path: FILE, old_string: '<lines 130:130>', new_string: '        return Decimal(self.subtotal())' },
  body: () => textResult("Your proposed edit has introduced new syntax error(s).\n- F821 undefined name 'Decimal'", {}, true),
};
const check = (out = 'FAILED test_tax'): Call => ({ ...bash('python -m pytest -q'), body: () => bashResult(1, out) });
const ls: Call = { ...bash('ls build'), body: () => bashResult(0, 'engine.o') };
const landing = (text: string): Call => ({ name: 'edit', arguments: { file_path: FILE, old_string: 'x = 1', new_string: text }, body: () => textResult('The file has been edited.') });

const PRESETISH = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' };
const rounds = (n: number, a: Call, b: Call): Call[] => Array.from({ length: n }, () => [a, b]).flat();

describe('stale.backToBack: two calls in turn, each answered as the round before', () => {
  test('off unless backToBack is set: three rounds of a window and the same rejected edit run on to the stale limit', async () => {
    const outcomes = await run(newHost({ stale: { warnAt: 3, limit: 5 }, onLimit: 'deny' }), {}, [...rounds(3, goto(), rejected), goto()]);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('three rounds answered alike: the call that starts the fourth meets the gate, and says what it went round with', async () => {
    const outcomes = await run(newHost(PRESETISH), {}, [...rounds(3, goto(), rejected), goto()]);
    assert.deepEqual(deniedAt(outcomes), [7]);
    assert.match(outcomes[6]?.denyReason ?? '', /went in turn 3 times, each answered as before, nothing changed in between \(limit 3\)/);
    assert.match(outcomes[6]?.denyReason ?? '', /in turn with exact:edit:/);
  });

  test('two rounds are not enough, and a call that does not start the next round runs', async () => {
    assert.deepEqual(deniedAt(await run(newHost(PRESETISH), {}, [...rounds(2, goto(), rejected), goto()])), []);
    assert.deepEqual(deniedAt(await run(newHost(PRESETISH), {}, [...rounds(3, goto(), rejected), ls])), []);
  });

  test('an answer that moves in any round starts the count again (a status that moves, a window that changed)', async () => {
    const status = (out: string): Call => ({ ...bash('kubectl get pods'), body: () => bashResult(0, out) });
    const moving = [status('0/3 ready'), ls, status('1/3 ready'), ls, status('2/3 ready'), ls, status('2/3 ready')];
    assert.deepEqual(deniedAt(await run(newHost(PRESETISH), {}, moving)), []);
    const windows = [goto('A'), rejected, goto('A'), rejected, goto('B'), rejected, goto('B')];
    assert.deepEqual(deniedAt(await run(newHost(PRESETISH), {}, windows)), []);
  });

  test('a change between the rounds, or a third call in one, starts the count again', async () => {
    const changed = [goto(), rejected, goto(), rejected, landing('x = 2'), goto(), rejected, goto(), rejected, goto()];
    assert.deepEqual(deniedAt(await run(newHost(PRESETISH), {}, changed)), []);
    const third = [goto(), rejected, goto(), ls, rejected, goto(), rejected, goto()];
    assert.deepEqual(deniedAt(await run(newHost(PRESETISH), {}, third)), []);
  });

  test("each agent has its own rounds: another agent's calls are no third call in them", async () => {
    const host = newHost(PRESETISH);
    const [one, two] = [{}, {}];
    for (const call of rounds(3, goto(), rejected)) {
      await host.call({ agent: one, ...call });
      await host.call({ agent: two, ...check() });
    }
    assert.deepEqual(deniedAt([await host.call({ agent: one, ...goto() })]), [1]);
    assert.deepEqual(deniedAt([await host.call({ agent: two, ...goto() })]), [], 'the other agent has no round of two');
  });
});

describe('what the model and the operator read of a round of two', () => {
  const hit = { key: 'k', words: alternationWords, quote: 'exact:read:a', count: 3, cap: 3, detail: 'exact:edit:b', subject: { it: 'This call' } } as never;

  test('the refusal, its line, its note and the ask in both languages', () => {
    assert.equal(alternationWords.why(hit), 'this call and exact:edit:b went in turn 3 times, each answered as before, nothing changed in between (limit 3)');
    assert.equal(alternationWords.note, 'Only the two calls going round are blocked: a different call, or either of them after a change to the files, will run.');
    assert.equal(alternationWords.ask.what(hit), 'This call and one other call have gone in turn 3 times, each answered as before, with nothing changed in between.');
    assert.equal(alternationWords.ask.also(hit), 'in turn with one other call 3 times, answered as before');
    assert.equal(alternationWords.zh.what(hit), 'This call与另一个调用已交替 3 轮，每次的结果都与上一轮相同，期间没有任何改动。');
    assert.equal(alternationWords.zh.also(hit), '与另一个调用交替 3 轮，结果相同');
  });

  test('a human message starts the rounds again', async () => {
    const host = newHost(PRESETISH);
    const agent = {};
    await run(host, agent, rounds(2, goto(), rejected));
    await host.human(agent);
    assert.deepEqual(deniedAt(await run(host, agent, [goto(), rejected, goto()])), [], 'one round since the message');
  });
});

describe('the history of calls in turn is bounded', () => {
  test('it keeps two calls a round, and a backToBack past 16 rounds follows none', () => {
    const pairs = createAlternation();
    const agent = {};
    const a = { lookup: 'a', quote: 'exact:a' };
    const b = { lookup: 'b', quote: 'exact:b' };
    for (let i = 0; i < 10_000; i += 1) pairs.learn(agent, i % 2 === 0 ? a : b, 'same', 0, 3);
    assert.equal(pairs.partner(agent, 'a', 0, 3), 'exact:b');
    assert.equal(pairs.partner(agent, 'b', 0, 3), null, 'only the call two back starts the next round');
    assert.equal(pairs.partner(agent, 'a', 1, 3), null, 'a change since: no round');
    for (let i = 0; i < 40; i += 1) pairs.learn(agent, i % 2 === 0 ? a : b, 'same', 0, 17);
    assert.equal(pairs.partner(agent, 'a', 0, 17), null, 'past 16 rounds, nothing is followed');
    pairs.learn(agent, null, 'same', 0, 3);
    assert.equal(pairs.partner(agent, 'a', 0, 3), null, 'a poll or an exempt call starts the history again');
  });

  test('a round answered otherwise than the round before is no round: the very first comparison counts', () => {
    const pairs = createAlternation();
    const agent = {};
    const a = { lookup: 'a', quote: 'exact:a' };
    const b = { lookup: 'b', quote: 'exact:b' };
    pairs.learn(agent, a, 'one', 0, 2);
    pairs.learn(agent, b, 'same', 0, 2);
    pairs.learn(agent, a, 'two', 0, 2);
    pairs.learn(agent, b, 'same', 0, 2);
    assert.equal(pairs.partner(agent, 'a', 0, 2), null);
  });

  test('a call with no answer starts the history again; 16 rounds are followed', () => {
    const pairs = createAlternation();
    const agent = {};
    const a = { lookup: 'a', quote: 'exact:a' };
    const b = { lookup: 'b', quote: 'exact:b' };
    for (let i = 0; i < 32; i += 1) pairs.learn(agent, i % 2 === 0 ? a : b, 'same', 0, 16);
    assert.equal(pairs.partner(agent, 'a', 0, 16), 'exact:b', 'a backToBack of 16 is followed');
    pairs.learn(agent, a, null, 0, 16);
    assert.equal(pairs.partner(agent, 'b', 0, 16), null, 'no answer: the history starts again');
  });

  test('the same call back to back is no round of two', () => {
    const pairs = createAlternation();
    const agent = {};
    for (let i = 0; i < 6; i += 1) pairs.learn(agent, { lookup: 'a', quote: 'exact:a' }, 'same', 0, 3);
    assert.equal(pairs.partner(agent, 'a', 0, 3), null);
  });
});

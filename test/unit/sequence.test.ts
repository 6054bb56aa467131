/**
 * The sequence track (opt-in): cycle detection as a pure function, the
 * canonical cycle key, the bounded history, and the track through the fake
 * host (advisory, one notice per crossing, gate, exemption, refusal, reset).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSequenceBook, cycleKey, findCycle, repetitions } from '../../src/lib/memory/cycles.js';
import { bash, deniedAt, newHost, noticedAt, noticeTexts, summaries, type Call, type CallOutcome } from '../support/session.js';
import type { FakeHost } from '../support/fake-host.js';

const BLOCKED = /^REPEAT_TOOL_BLOCKED:/;

/** Pushes the history of `calls` and asks what cycle `next` continues. */
function cycleAfter(calls: string, next: string, length = 4) {
  return findCycle(calls === '' ? [] : calls.split(' '), next, length);
}

describe('findCycle: a run of calls repeating back to back', () => {
  test('four distinct calls going round three times are one cycle of period 4 whose run is 12 calls', () => {
    const cycle = cycleAfter('A B C D A B C D A B C', 'D');
    assert.deepEqual(cycle, { period: 4, run: 12, start: 0 });
    assert.equal(repetitions(cycle!), 3);
  });

  test('repetitions are complete periods only: seven calls of a three-call cycle are two repetitions', () => {
    const cycle = cycleAfter('A B C A B C', 'A', 3);
    assert.deepEqual(cycle, { period: 3, run: 7, start: 0 });
    assert.equal(repetitions(cycle!), 2);
  });

  test('calls before the run are not part of it: the cycle is named from where the run began', () => {
    assert.deepEqual(cycleAfter('X Y A B A B', 'A'), { period: 2, run: 5, start: 2 });
  });

  test('a pure repeat (A A A A) is not a cycle: that is the repeat track’s job', () => {
    assert.equal(cycleAfter('A A A', 'A'), null);
  });

  test('a period may hold one call twice, as real cycles do (edit → run → edit → run): A B B is period 3', () => {
    assert.deepEqual(cycleAfter('A B B A B B', 'A'), { period: 3, run: 7, start: 0 });
    assert.deepEqual(cycleAfter('E R F G R E R F G', 'R', 5), { period: 5, run: 10, start: 0 });
  });

  test('inside such a period, the doubled call is a cycle call, not a pure repeat: the longest run wins', () => {
    // At the second B of A B B A B B, the repeat B B runs 2 calls and the cycle 6.
    assert.deepEqual(cycleAfter('A B B A B', 'B', 3), { period: 3, run: 6, start: 0 });
  });

  test('a period longer than the configured length is not looked for', () => {
    assert.equal(cycleAfter('A B C D E A B C D E', 'A', 4), null);
    assert.equal(cycleAfter('A B C D E A B C D E', 'A', 5)?.period, 5);
  });

  test('a cycle is named by its smallest period: A B A B is periodic with 2 and 4, and is period 2', () => {
    assert.equal(cycleAfter('A B A B A', 'B')?.period, 2);
    assert.equal(cycleAfter('A B A B A B A', 'B')?.period, 2);
  });

  test('a call seen for the first time, or an empty history, continues nothing', () => {
    assert.equal(cycleAfter('A B C', 'D'), null);
    assert.equal(cycleAfter('', 'A'), null);
  });

  test('the run stops at the first call that does not match the one a period before it', () => {
    assert.deepEqual(cycleAfter('A B C D A B X D A B C D A B C', 'D'), { period: 4, run: 9, start: 7 });
  });
});

describe('cycleKey: one key per cycle, whatever the rotation', () => {
  test('every rotation of a cycle gives the same key, and it starts with seq:', () => {
    const keys = [
      ['a', 'b', 'c', 'd'],
      ['b', 'c', 'd', 'a'],
      ['c', 'd', 'a', 'b'],
      ['d', 'a', 'b', 'c'],
    ].map(cycleKey);
    assert.equal(new Set(keys).size, 1);
    assert.ok(keys[0]!.startsWith('seq:'), keys[0] ?? 'no key');
  });

  test('the same calls in another order are another cycle', () => {
    assert.notEqual(cycleKey(['a', 'b', 'c']), cycleKey(['a', 'c', 'b']));
  });

  test('the key of a cycle of huge identities stays short', () => {
    const huge = ['x'.repeat(100_000), 'y'.repeat(100_000)];
    assert.ok(cycleKey(huge).length < 200, String(cycleKey(huge).length));
    assert.notEqual(cycleKey(huge), cycleKey([huge[0]!, `${huge[1]!}z`]));
  });
});

describe('the sequence history', () => {
  test('keeps at most `window` identities per agent, oldest out first, and a reset empties it', () => {
    const book = createSequenceBook(4);
    const agent = {};
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) book.record(agent, { key, quote: key, brief: key });
    assert.deepEqual([...book.keys(agent)], ['c', 'd', 'e', 'f']);
    assert.equal(book.step(agent, 0)?.quote, 'c');
    assert.deepEqual([...book.keys({})], [], 'another agent has its own history');
    book.reset(agent);
    assert.deepEqual([...book.keys(agent)], []);
  });
});

const GREP = bash('grep -rn TODO src');
const CURL = bash('curl -s http://127.0.0.1:8080/items');
const READ: Call = { name: 'read', arguments: { path: 'notes.txt' } };
const ECHO = bash('echo done');
const CYCLE = [GREP, CURL, READ, ECHO];
const ARROWS = 'grep -rn TODO src \u2192 curl -s http://127.0.0.1:8080/items \u2192 read:{"path":"notes.txt"} \u2192 echo done';

/** Goes round the four-call cycle for `n` calls, starting at `offset`. */
async function goRound(host: FakeHost, agent: object, n: number, extra: Partial<Call> = {}, offset = 0): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (let i = 0; i < n; i += 1) out.push(await host.call({ agent, ...CYCLE[(i + offset) % 4]!, ...extra }));
  return out;
}

const cycleNotices = (o: CallOutcome): string[] => summaries(o).filter((s) => s.startsWith('cycle '));

describe('the sequence track through the hooks', () => {
  test('off by default: twenty calls going round a four-call cycle run without a notice', async () => {
    const outcomes = await goRound(newHost(), {}, 20);
    assert.deepEqual(noticedAt(outcomes), []);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('with `sequence: {}`, the call completing the third repetition carries one advisory naming the cycle in order', async () => {
    const outcomes = await goRound(newHost({ sequence: {} }), {}, 12);
    assert.deepEqual(noticedAt(outcomes), [12]);
    const text = noticeTexts(outcomes[11]!)[0] ?? '';
    assert.match(text, /^CONVERGENCE_CHECK:/);
    assert.ok(text.includes(ARROWS), text);
    assert.match(text, /4 different calls, repeated 3 times/);
    assert.match(text, /Nothing is blocked\./);
    assert.deepEqual(summaries(outcomes[11]!), ['sequence \u201cgrep \u2192 curl \u2192 read \u2192 echo\u201d \u00d7 3']);
  });

  test('a cycle led by a long tool name is named by a summary cut to one short quotation', async () => {
    const tool = `mcp__${'t'.repeat(95)}`;
    const cycle: Call[] = [{ name: tool, arguments: { q: 'a' } }, bash(`/opt/${'r'.repeat(95)} --check`), READ, ECHO];
    const host = newHost({ sequence: {} });
    const agent = {};
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < 12; i += 1) outcomes.push(await host.call({ agent, ...cycle[i % 4]! }));
    assert.deepEqual(noticedAt(outcomes), [12]);
    assert.deepEqual(summaries(outcomes[11]!), [`sequence \u201c${tool.slice(0, 60)}\u2026\u201d \u00d7 3`]);
  });

  test('one notice per crossing: a cycle that keeps going is not announced again until it breaks and re-forms', async () => {
    const host = newHost({ sequence: {} });
    const agent = {};
    const first = await goRound(host, agent, 40);
    assert.deepEqual(noticedAt(first), [12]);
    await host.call({ agent, ...bash('ls -la') });
    const again = await goRound(host, agent, 12);
    assert.deepEqual(noticedAt(again), [12], 'the re-formed cycle is announced once more');
  });

  test('a pure repeat never earns a sequence notice', async () => {
    const host = newHost({ sequence: { length: 2, count: 2 }, onLimit: 'deny' });
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < 14; i += 1) outcomes.push(await host.call({ agent: {}, ...GREP }));
    const agent = {};
    for (let i = 0; i < 14; i += 1) outcomes.push(await host.call({ agent, ...GREP }));
    assert.deepEqual(outcomes.flatMap(cycleNotices), []);
  });

  test('the identity is exact: after decoy stripping, so a changing description does not hide the cycle', async () => {
    const host = newHost({ sequence: {} });
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < 12; i += 1) {
      const call = CYCLE[i % 4]!;
      outcomes.push(await host.call({ agent: host, ...call, arguments: { ...(call.arguments as object), description: `try ${i}` } }));
    }
    assert.deepEqual(noticedAt(outcomes), [12]);
  });

  test('an untracked tool between the calls of a cycle is transparent', async () => {
    const host = newHost({ sequence: {} });
    const agent = {};
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < 12; i += 1) {
      outcomes.push(await host.call({ agent, ...CYCLE[i % 4]! }));
      await host.call({ agent, name: 'todo_write', arguments: { todos: [`step ${i}`] } });
    }
    assert.deepEqual(noticedAt(outcomes), [12]);
  });

  test('the shortest cycle is two calls, and `length` bounds the longest', async () => {
    const two = await goRoundOf(newHost({ sequence: { count: 3 } }), [GREP, ECHO], 6);
    assert.deepEqual(noticedAt(two), [6]);
    const tooLong = await goRound(newHost({ sequence: { length: 3 } }), {}, 20);
    assert.deepEqual(noticedAt(tooLong), [], 'a four-call cycle is longer than length 3');
  });

  test('each agent has its own history: two agents interleaving one cycle each are noticed separately', async () => {
    const host = newHost({ sequence: {} });
    const a = {};
    const b = {};
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < 12; i += 1) {
      outcomes.push(await host.call({ agent: a, ...CYCLE[i % 4]! }));
      outcomes.push(await host.call({ agent: b, ...CYCLE[(i + 2) % 4]! }));
    }
    assert.deepEqual(noticedAt(outcomes), [23, 24]);
  });

  test('the window bounds the history: a cycle the window cannot hold is never noticed', async () => {
    const host = newHost({ window: 8, sequence: { length: 4, count: 2 } });
    const agent = {};
    const outcomes = await goRound(host, agent, 8);
    assert.deepEqual(noticedAt(outcomes), [8]);
  });

  test('a human message resets the history', async () => {
    const host = newHost({ sequence: {} });
    const agent = {};
    const before = await goRound(host, agent, 10);
    await host.human(agent);
    const after = await goRound(host, agent, 10, {}, 2);
    assert.deepEqual(noticedAt([...before, ...after]), [], 'ten calls either side of the reset, never twelve in a row');
  });
});

describe('the sequence gate (`limit`)', () => {
  test('with limit 4, sixteen calls run and the call that would start a fifth repetition is denied before it runs', async () => {
    const host = newHost({ sequence: { limit: 4 }, onLimit: 'deny' });
    const outcomes = await goRound(host, {}, 20);
    assert.deepEqual(deniedAt(outcomes), [17, 18, 19, 20]);
    const text = outcomes[16]!.denyReason ?? '';
    assert.match(text, BLOCKED);
    assert.match(text, /by the sequence track/);
    assert.ok(text.includes(`- ${ARROWS} \u2014 a cycle repeated 4 times back to back (limit 4)`), text);
    assert.match(text, /a call that breaks the cycle will run/);
    assert.match(text, /description, timeoutMs/);
    // The cycle's second denial points back to the first (P17), naming the cycle from its own stopped call on.
    assert.ok(
      (outcomes[17]!.denyReason ?? '').includes('a loop blocked before (sequence \u201ccurl -s http://127.0.0.1:8080/items \u2192 read'),
      'a denial names the cycle from the stopped call on',
    );
  });

  test('the advisory says where the gate is', async () => {
    const outcomes = await goRound(newHost({ sequence: { limit: 5 }, window: 20 }), {}, 12);
    assert.match(noticeTexts(outcomes[11]!)[0] ?? '', /after 5 repetitions, the next call that continues the cycle meets the gate/);
  });

  test('a call that breaks the cycle runs, and the cycle must come round `limit` times again before the gate', async () => {
    const host = newHost({ sequence: { limit: 4 }, onLimit: 'deny' });
    const agent = {};
    await goRound(host, agent, 17);
    const other = await host.call({ agent, ...bash('ls -la') });
    assert.equal(other.ran, true);
    const again = await goRound(host, agent, 17);
    assert.deepEqual(deniedAt(again), [17]);
  });

  test('limit equal to count: the advisory rides the completing call and the next continuing call is gated', async () => {
    const outcomes = await goRound(newHost({ sequence: { limit: 3 }, onLimit: 'deny' }), {}, 13);
    assert.deepEqual(noticedAt(outcomes), [12]);
    assert.deepEqual(deniedAt(outcomes), [13]);
  });

  test('onLimit: ask puts the cycle to the operator; approval exempts it, and so every rotation of it, for the turn', async () => {
    const host = newHost({ sequence: { limit: 4 } });
    const agent = {};
    const outcomes = await goRound(host, agent, 17, { answer: 'approve' });
    assert.equal(outcomes[16]!.asked, true);
    assert.match(outcomes[16]!.askReason ?? '', /^Loop breaker: the agent has run the cycle \u201c.*\u201d 4 times in a row; this call starts it again\. /);
    assert.ok((outcomes[16]!.askReason ?? '').includes(`the cycle \u201c${ARROWS.slice(0, 60)}\u2026\u201d`), 'the ask names the cycle\u2019s calls as they ran, quoted and cut (P15)');
    assert.equal(outcomes[16]!.ran, true);
    const later = await goRound(host, agent, 20, { answer: 'approve' }, 1);
    assert.ok(
      later.every((o) => o.ran && !o.asked),
      'the exempt cycle runs on',
    );
    await host.call({ agent, ...bash('ls -la') });
    const rotated = await goRound(host, agent, 20, { answer: 'approve' }, 2);
    assert.ok(
      rotated.every((o) => o.ran && !o.asked),
      'a rotation of the approved cycle is the same cycle',
    );
    assert.deepEqual(rotated.flatMap(cycleNotices), [], 'an exempt cycle is not announced again');
  });

  test('declined: the cycle stays blocked without a second ask, and the denial says the exemption was not granted', async () => {
    const host = newHost({ sequence: { limit: 4 } });
    const agent = {};
    const outcomes = await goRound(host, agent, 20, { answer: 'decline' });
    assert.equal(outcomes[16]!.asked, true);
    assert.equal(outcomes[16]!.ran, false);
    // The refused call's own result explains in full (P13); the host did not say how the ask ended, so neither does the text.
    assert.match(JSON.stringify(outcomes[16]!.result), /An exemption for these measures was asked for and not granted/);
    for (const o of outcomes.slice(17)) {
      assert.equal(o.asked, false);
      assert.equal(o.denied, true);
      assert.match(o.denyReason ?? '', BLOCKED);
      assert.match(o.denyReason ?? '', /; it was not approved; the first denial says why/);
    }
  });

  test('a sequence denial takes no slot in the occurrence window', async () => {
    const host = newHost({ sequence: { length: 2, count: 2, limit: 2 }, onLimit: 'deny', window: 8, limits: { exact: 4 } });
    const agent = {};
    const z = bash('cat /etc/hostname');
    const before = [await host.call({ agent, ...z }), await host.call({ agent, ...z }), await host.call({ agent, ...z })];
    const cycle = await goRoundOf(host, [GREP, ECHO], 8, agent);
    assert.deepEqual(deniedAt([...before, ...cycle]), [8, 9, 10, 11]);
    // The first names the sequence track; the later ones of the same loop point back to it (P17), naming the cycle.
    assert.match(cycle[4]?.denyReason ?? '', /by the sequence track of/);
    assert.ok(
      cycle.slice(5).every((o) => /a loop blocked before \(sequence \u201c/.test(o.denyReason ?? '')),
      'these denials come from the sequence track',
    );
    // Seven calls hold slots (three cats, four cycle calls that ran): the fourth cat is still the fourth in the window.
    const fourth = await host.call({ agent, ...z });
    assert.equal(fourth.denied, true);
    assert.match(fourth.denyReason ?? '', /by the repeat track/);
  });
});

async function goRoundOf(host: FakeHost, calls: Call[], n: number, agent: object = {}): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (let i = 0; i < n; i += 1) out.push(await host.call({ agent, ...calls[i % calls.length]! }));
  return out;
}

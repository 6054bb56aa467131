/**
 * The occurrence, progress, sequence and turn modules at their edges: ordinal
 * words and the advisory texts as the model reads them, the result digest a
 * poll's progress is judged by, the progress book's window, the sequence
 * track's denial (where a cycle is quoted from, how often it came round) and
 * the turn book's answers for an agent it never saw.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBreaker, type GateEvent } from '../../src/lib/breaker/breaker.js';
import { resolveConfig } from '../../src/lib/config/config.js';
import { ordinal, summarizeMessage, warnMessage } from '../../src/lib/tracks/repeat.js';
import { createProgressBook } from '../../src/lib/memory/progress.js';
import { resultDigest } from '../../src/lib/result/digest.js';
import { cycleMessage } from '../../src/lib/tracks/sequence.js';
import { createTurns } from '../../src/lib/memory/turn.js';

describe('occurrence words', () => {
  test('ordinals: st, nd, rd, th, and th for 11 to 13 of every hundred', () => {
    const cases: [number, string][] = [[1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [10, '10th'], [11, '11th'], [12, '12th'], [13, '13th'], [21, '21st'], [22, '22nd'], [23, '23rd'], [101, '101st'], [111, '111th'], [112, '112th'], [113, '113th'], [114, '114th']];
    for (const [n, word] of cases) assert.equal(ordinal(n), word);
  });

  test('the two advisories, as the model reads them', () => {
    assert.equal(
      warnMessage('exact:bash:{"command":"ls"}', 7),
      'CONVERGENCE_CHECK: exact:bash:{"command":"ls"} has come up 7 times in your recent calls this turn. Nothing is blocked. Before the next call, ask whether a different route would reach the answer sooner.',
    );
    assert.deepEqual(summarizeMessage('exact:bash:{"command":"ls"}', 11).split('\n'), [
      'CONVERGENCE_CHECK: exact:bash:{"command":"ls"} has come up 11 times in your recent calls this turn. Before your next call, write down:',
      '1. what you have established, and how you know it;',
      '2. what you assumed without checking;',
      '3. what failed, and why;',
      '4. at least two approaches you have not tried yet.',
      'If you are working through items in batches, take more of them in each call so that fewer calls are needed.',
    ]);
  });

  test('the cycle advisory says nothing is blocked when there is no limit', () => {
    assert.match(cycleMessage('a \u2192 b', 2, 3, null), /\nNothing is blocked\. Going round again/);
    assert.match(cycleMessage('a \u2192 b', 2, 3, 4), /\nNothing is blocked yet; after 4 repetitions, the next call that continues the cycle meets the gate\./);
  });
});

describe('the result digest', () => {
  const text = (t: string, isError = false, value: unknown = {}) => ({ isError, content: [{ type: 'text', text: t }], value });
  test('content that is not a list adds no text (an iterable Set included), and the value is still read', () => {
    const odd = (content: unknown, value: unknown): string => resultDigest({ content, value }, 'bash', {});
    assert.equal(odd(new Set([{ type: 'text', text: 'a' }]), 1), odd(new Set([{ type: 'text', text: 'b' }]), 1));
    assert.notEqual(odd({ text: 'a' }, 1), odd({ text: 'a' }, 2));
  });


  test('the error flag, the split between blocks, the value and lone surrogates all tell results apart', () => {
    const digest = (result: unknown) => resultDigest(result, 'bash', {});
    assert.notEqual(digest(text('x', true)), digest(text('x', false)));
    assert.notEqual(digest({ content: [{ type: 'text', text: 'ab' }] }), digest({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }));
    assert.notEqual(digest(text('x', false, { n: 1 })), digest(text('x', false, { n: 2 })));
    assert.notEqual(digest(text('\ud800')), digest(text('\ud801')));
    assert.notEqual(digest(text('x', false, { s: '\ud800' })), digest(text('x', false, { s: '\ud801' })));
  });

  test('blocks without text and content that is no list add nothing; content that cannot be walked is unreadable', () => {
    const digest = (result: unknown) => resultDigest(result, 'bash', {});
    assert.equal(digest({ content: [{ type: 'image', data: 'x' }], value: 1 }), digest({ content: [], value: 1 }));
    assert.equal(digest({ content: 42, value: 1 }), digest({ value: 1 }));
    const hostile = new Proxy([], {
      get(target, key) {
        if (key === Symbol.iterator) throw new Error('no');
        return Reflect.get(target, key);
      },
    });
    assert.equal(digest({ content: hostile }), 'unreadable');
  });
});

describe('the progress book', () => {
  test('a call with no action key takes no place in the window', () => {
    const book = createProgressBook(2);
    const agent = {};
    book.record(agent, ['k'], 'd1');
    book.record(agent, ['k'], 'd2');
    book.record(agent, [], 'z');
    book.record(agent, [], 'z');
    assert.equal(book.varied(agent, 'k'), true);
  });

  test('a digest seen twice is still known when one of its calls leaves the window', () => {
    const book = createProgressBook(2);
    const agent = {};
    for (const digest of ['d', 'd', 'e']) book.record(agent, ['k'], digest);
    assert.equal(book.varied(agent, 'k'), true, 'the window holds d and e');
  });
});

describe('the sequence track\u2019s denial', () => {
  test('the stopped call is quoted first, and the count is of whole rounds done', () => {
    // The gate's events carry every count; a loop's later denials no longer list their hits to the model (P17).
    const events: GateEvent[] = [];
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny', sequence: { length: 3, count: 2, limit: 2 } }), () => 'en', { gate: (event) => events.push(event) });
    const agent = {};
    const denials: (string | undefined)[] = [];
    for (const command of ['pwd', 'ls a', 'ls b', 'ls c', 'ls a', 'ls b', 'ls c', 'ls a', 'ls b']) {
      const exec = { name: 'bash', arguments: { command }, agent };
      denials.push(breaker.guard(exec));
      breaker.settle(exec, { isError: false, content: [{ type: 'text', text: 'ok' }] });
    }
    assert.deepEqual(denials.slice(0, 7), Array(7).fill(undefined));
    assert.match(denials[7] ?? '', /a cycle of calls repeated 2 times \(limit 2\)/);
    assert.match(denials[7] ?? '', /\n- ls a \u2192 ls b \u2192 ls c \u2014 a cycle repeated 2 times back to back \(limit 2\)\n/);
    assert.match(denials[8] ?? '', /a loop blocked before \(sequence \u201cls b \u2192 ls c \u2192 ls a\u201d\)/, 'the stopped call is quoted first');
    assert.deepEqual(events.map((event) => event.hits.map((hit) => `${hit.quote} ${hit.count}/${hit.cap}`)), [['ls a \u2192 ls b \u2192 ls c 2/2'], ['ls b \u2192 ls c \u2192 ls a 2/2']], 'whole rounds: the call after it is still at 2');
  });

  test('two different cycles of one length are two cycles: each is announced and each asks, in the sequence track\u2019s words', () => {
    const breaker = createBreaker(resolveConfig({ onLimit: 'ask', sequence: { length: 2, count: 2, limit: 2 } }));
    const agent = {};
    const seen: string[] = [];
    for (const command of ['ls a', 'ls b', 'ls a', 'ls b', 'ls a', 'pwd', 'ls c', 'ls d', 'ls c', 'ls d', 'ls c']) {
      const exec = { name: 'bash', arguments: { command }, agent };
      const asked = breaker.ask(exec);
      if (asked !== undefined) seen.push(`ask ${command}: ${asked.reason}`);
      breaker.guard(exec);
      for (const notice of breaker.settle(exec, { isError: false, content: [{ type: 'text', text: 'ok' }] })) seen.push(`notice ${notice.source.summary}`);
    }
    assert.deepEqual(
      seen.map((line) => line.split(':')[0]),
      ['notice sequence \u201cls \u2192 ls\u201d \u00d7 2', 'ask ls a', 'notice sequence \u201cls \u2192 ls\u201d \u00d7 2', 'ask ls c'],
    );
    assert.match(seen[1] ?? '', /Loop breaker: the agent has run the cycle \u201cls a \u2192 ls b\u201d 2 times in a row; this call starts it again\. /);
    assert.match(seen[3] ?? '', /Loop breaker: the agent has run the cycle \u201cls c \u2192 ls d\u201d 2 times in a row; this call starts it again\. /);
  });

  test('a step\u2019s label is cut at 60 characters, and a verb is looked for only in the command\u2019s first 512', () => {
    const summaries = (calls: { name: string; arguments: unknown }[]): string[] => {
      const breaker = createBreaker(resolveConfig({ sequence: { length: 2, count: 2 } }));
      const agent = {};
      const out: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const exec = { ...(calls[i % 2] as { name: string; arguments: unknown }), agent };
        breaker.guard(exec);
        for (const notice of breaker.settle(exec, { isError: false, content: [{ type: 'text', text: 'ok' }] })) out.push(notice.source.summary);
      }
      return out;
    };
    // The summary quotes the cycle once, at most 60 characters of it (P15): the first step fills it.
    const cut = (first: string): string => `sequence \u201c${first.repeat(60)}\u2026\u201d \u00d7 2`;
    assert.deepEqual(summaries([{ name: 'a'.repeat(200), arguments: { q: 1 } }, { name: 'b'.repeat(200), arguments: { q: 2 } }]), [cut('a')]);
    assert.deepEqual(summaries([{ name: 'bash', arguments: { command: 'x'.repeat(200) } }, { name: 'bash', arguments: { command: 'y'.repeat(200) } }]), [cut('x')]);
    // Past 512 characters of assignments no verb is read: the label names the tool.
    assert.deepEqual(summaries([{ name: 'bash', arguments: { command: `${'A=1 '.repeat(130)}make` } }, { name: 'bash', arguments: { command: 'ls' } }]), ['sequence \u201cbash \u2192 ls\u201d \u00d7 2']);
  });

  test('with progress: results, a measure at its cap before any result is known is gated', () => {
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny', progress: 'results', limits: { exact: 2 } }));
    const agent = {};
    const exec = () => ({ name: 'bash', arguments: { command: 'curl -s https://example.com/feed' }, agent });
    assert.equal(breaker.guard(exec()), undefined);
    assert.match(breaker.guard(exec()) ?? '', /^REPEAT_TOOL_BLOCKED/);
  });
});

describe('the turn book', () => {
  test('an agent it never saw has no exemptions, refusals or last result', () => {
    const turns = createTurns(16);
    const agent = {};
    assert.deepEqual(turns.exempted(agent), []);
    assert.equal(turns.exemptions(agent), null);
    assert.equal(turns.isRefused(agent, 'k'), false);
    assert.equal(turns.lastResult(agent), '');
  });

  test('exemptions are null for a turn that approved nothing, and the approved keys, oldest first, once one is', () => {
    const turns = createTurns(16);
    const agent = {};
    turns.commit(agent, ['exact:a']);
    assert.equal(turns.exemptions(agent), null, 'a turn with calls but no approval');
    turns.exempt(agent, ['exact:b', 'exact:a']);
    assert.deepEqual([...(turns.exemptions(agent) ?? [])], ['exact:b', 'exact:a']);
    assert.deepEqual(turns.exempted(agent), ['exact:b', 'exact:a']);
    assert.equal(turns.isExempt(agent, 'exact:a'), true);
    assert.equal(turns.isExempt(agent, 'exact:c'), false);
  });
});

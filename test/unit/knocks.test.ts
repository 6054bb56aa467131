/**
 * Knocks (src/lib/breaker/knocks.ts): a refused call is a knock on its loop,
 * the keys refused together this turn. The first refusal of a loop explains in
 * full; a later one that adds no new hit is two lines that still say what is
 * refused and what to do, and point back (P17). The same count ends the turn
 * under `stopAfter` (stop.test.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBreaker, type GateEvent } from '../../src/lib/breaker/breaker.js';
import { createKnockBook, LOOPS_KEPT } from '../../src/lib/breaker/knocks.js';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { BOOK_LIMIT } from '../../src/lib/memory/book.js';
import { ceilingMessage, denyMessage, type HitFacts, type HitWords } from '../../src/lib/text/message.js';
import { bash, defaultCap, hitLines, newHost, repeat, shown, succeeding } from '../support/session.js';

const hit = (key: string, track = 'repeat'): { key: string; said: string } => ({ key, said: `${track} ${key}` });
const cap = defaultCap('exact');
const X = bash('cat /etc/hosts');
const EXACT = 'exact:bash:{"command":"cat /etc/hosts"}';

describe('the knock book', () => {
  test('a refusal that meets no refused key opens a loop; one that meets one is the same loop, whatever came in between', () => {
    const book = createKnockBook();
    const agent = {};
    assert.deepEqual(book.knock(agent, [hit('exact:a'), hit('cmd:a')]), { nth: 1, seen: false });
    assert.deepEqual(book.knock(agent, [hit('exact:b')]), { nth: 1, seen: false }, 'another loop');
    assert.deepEqual(book.knock(agent, [hit('cmd:a')]), { nth: 2, seen: true }, 'back to the first loop');
    assert.deepEqual(book.knock(agent, [hit('exact:b')]), { nth: 2, seen: true });
  });

  test('a refusal that meets two loops joins them: their knocks add up', () => {
    const book = createKnockBook();
    const agent = {};
    book.knock(agent, [hit('a')]);
    book.knock(agent, [hit('a')]);
    book.knock(agent, [hit('b')]);
    assert.deepEqual(book.knock(agent, [hit('a'), hit('b')]), { nth: 4, seen: true });
    assert.deepEqual(book.knock(agent, [hit('b')]), { nth: 5, seen: true }, 'one loop from now on');
  });

  test('a new hit is news even on a known key: another track, or another key of the loop', () => {
    const book = createKnockBook();
    const agent = {};
    book.knock(agent, [hit('exact:a')]);
    assert.deepEqual(book.knock(agent, [hit('exact:a', 'failure'), hit('exact:a')]), { nth: 2, seen: false }, 'the failure track says something new');
    assert.deepEqual(book.knock(agent, [hit('exact:a'), hit('host:a')]), { nth: 3, seen: false }, 'a measure that reached its cap');
    assert.deepEqual(book.knock(agent, [hit('host:a')]), { nth: 4, seen: true });
  });

  test('agents have books of their own, and a reset clears one agent only', () => {
    const book = createKnockBook();
    const [one, two] = [{}, {}];
    book.knock(one, [hit('a')]);
    book.knock(two, [hit('a')]);
    book.reset(one);
    assert.equal(book.knock(one, [hit('a')]).nth, 1);
    assert.equal(book.knock(two, [hit('a')]).nth, 2);
  });

  test('bounded: past LOOPS_KEPT loops the one knocked longest ago is forgotten, and a refusal of many keys keeps at most BOOK_LIMIT of them', () => {
    const book = createKnockBook();
    const agent = {};
    book.knock(agent, [hit('first')]);
    book.knock(agent, [hit('second')]);
    book.knock(agent, [hit('first')]);
    for (let at = 0; at < LOOPS_KEPT - 1; at += 1) book.knock(agent, [hit(`loop-${at}`)]);
    assert.equal(book.knock(agent, [hit('first')]).nth, 3, 'knocked recently: kept');
    assert.deepEqual(book.knock(agent, [hit('second')]), { nth: 1, seen: true }, 'forgotten as a loop; its hit is still said');
    const many = Array.from({ length: BOOK_LIMIT + 10 }, (_, at) => hit(`key-${at}`));
    book.knock(agent, many);
    assert.equal(book.knock(agent, [hit('key-0')]).nth, 1, 'the oldest keys went past the bound');
    assert.equal(book.knock(agent, [hit(`key-${BOOK_LIMIT + 9}`)]).nth, 2);
  });
});

const WORDS: HitWords = {
  track: 'repeat',
  listed: 0,
  why: () => 'repeat why',
  line: (h) => `${h.quote} ${h.count}/${h.cap}`,
  note: null,
  ask: { what: () => 'asking.', also: () => 'also' },
  zh: { what: () => '询问。', also: () => '也' },
};
const facts = (quote: string): HitFacts => ({ words: WORDS, quote, count: 13, cap: 12, detail: '' });

describe('P17: what a later refusal says', () => {
  test('two lines: what is refused (the loop, quoted and bounded) and how often this turn, that the first says why, and what to do instead', () => {
    const text = denyMessage({ name: 'bash', hits: [facts(EXACT)], lastResult: 'out', refused: false, knock: { nth: 4, seen: true, stopAfter: null } });
    assert.equal(
      text,
      [
        `REPEAT_TOOL_BLOCKED: bash call not run: a loop blocked before (${shown(EXACT)}), 4 of its calls blocked this turn with this one; the first denial says why.`,
        'Instead: use the result you have, or take a different action.',
      ].join('\n'),
    );
    const long = denyMessage({ name: 'bash', hits: [facts(`exact:bash:{"command":"${'x'.repeat(5000)}"}`)], lastResult: 'out', refused: false, knock: { nth: 2, seen: true, stopAfter: null } });
    assert.ok(long.length < 300, `bounded whatever the call held: ${long.length} characters`);
  });

  test('a later refusal with a new hit, or the first, explains in full', () => {
    for (const knock of [{ nth: 1, seen: false, stopAfter: null }, { nth: 3, seen: false, stopAfter: null }, undefined]) {
      const text = denyMessage({ name: 'bash', hits: [facts(EXACT)], lastResult: 'out', refused: false, knock });
      assert.deepEqual(hitLines(text), [`- ${EXACT} 13/12`], JSON.stringify(knock));
      assert.match(text, /\nPrevious result:\nout\n/);
    }
  });

  test('a later refusal of a refused loop says how the ask ended, briefly', () => {
    const text = denyMessage({ name: 'bash', hits: [facts(EXACT)], lastResult: '', refused: true, outcome: 'unattended', knock: { nth: 2, seen: true, stopAfter: null } });
    assert.match(text, /, 2 of its calls blocked this turn with this one; no operator is present to approve it; the first denial says why\.\n/);
  });

  test('at the exemption ceiling too: the first in full, the later ones in two lines', () => {
    const first = ceilingMessage('bash', ['host:api.example.com'], 2, 'out', { nth: 1, seen: false, stopAfter: null });
    assert.match(first, /\n- host:api\.example\.com\n/);
    assert.match(first, /Previous result:\nout/);
    assert.equal(
      ceilingMessage('bash', ['host:api.example.com'], 2, 'out', { nth: 3, seen: true, stopAfter: null }),
      [
        "REPEAT_TOOL_BLOCKED: bash call not run: the operator's approval is used up (it allowed 2 calls like it); a loop blocked before (host \u201capi.example.com\u201d), 3 of its calls blocked this turn with this one; the first denial says why.",
        'Instead: use the result you have, or take a different action.',
      ].join('\n'),
    );
  });

  test('under stopAfter, the refusal before the stop says one more ends the turn, and the one that reaches it says it does', () => {
    const at = (nth: number): string => denyMessage({ name: 'bash', hits: [facts(EXACT)], lastResult: '', refused: false, knock: { nth, seen: nth > 1, stopAfter: 3 } });
    assert.doesNotMatch(at(1), /ends the turn|ends this turn/);
    assert.match(at(2), /\nOne more blocked call of this loop ends the turn\.$/);
    assert.match(at(3), /\nThe loop breaker ends this turn now, this loop blocked 3 times; the operator is told why\.$/);
    const once = denyMessage({ name: 'bash', hits: [facts(EXACT)], lastResult: 'out', refused: false, knock: { nth: 1, seen: false, stopAfter: 1 } });
    assert.match(once, /\nThe loop breaker ends this turn now, this loop blocked once; the operator is told why\.$/, 'a full denial carries it too');
  });
});

describe('P17 in the breaker', () => {
  test('20 identical calls: the first denial in full, every later one in two lines; the gate events still count each', async () => {
    const events: GateEvent[] = [];
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny' }), () => 'en', { gate: (event) => events.push(event) });
    const agent = {};
    const denials: string[] = [];
    for (let at = 0; at < 20; at += 1) {
      const exec = { name: 'bash', arguments: { command: 'cat /etc/hosts' }, agent };
      const denial = breaker.guard(exec);
      breaker.settle(exec, denial === undefined ? { isError: false, content: [{ type: 'text', text: 'HOSTS' }] } : { isError: true, content: [{ type: 'text', text: `Error: ${denial}` }] });
      if (denial !== undefined) denials.push(denial);
    }
    assert.equal(denials.length, 20 - cap + 1);
    assert.equal(hitLines(denials[0]).length, 2);
    assert.match(denials[0] ?? '', /Previous result:\nHOSTS/);
    denials.slice(1).forEach((denial, at) => {
      assert.equal(denial.split('\n').length, 2, denial);
      assert.match(denial, new RegExp(`, ${at + 2} of its calls blocked this turn with this one;`));
    });
    // Counted in the window of the last 16 calls: the count stops growing at 17.
    assert.deepEqual(events.map((event) => event.hits[0]?.count), Array.from({ length: denials.length }, (_, at) => Math.min(cap + at, DEFAULTS.window + 1)));
  });

  test('a loop left for another and come back to is the same loop; a human message starts the count again', async () => {
    const host = newHost({ onLimit: 'deny', limits: { exact: 3, cmd: 3 } });
    const agent = {};
    const Y = bash('cat /etc/passwd');
    const first = await repeat(host, agent, 3, { ...X, body: succeeding('HOSTS') });
    const other = await repeat(host, agent, 3, Y);
    const back = await host.call({ agent, ...X });
    assert.ok(hitLines(first[2]?.denyReason).length > 0 && hitLines(other[2]?.denyReason).length > 0, 'each loop explained once');
    assert.match(back.denyReason ?? '', /, 2 of its calls blocked this turn with this one;/);
    await host.human(agent);
    const fresh = await repeat(host, agent, 3, X);
    assert.ok(hitLines(fresh[2]?.denyReason).length > 0, 'a new turn explains again');
  });
});

/**
 * Edges of the URL reader and of the texts, each pinned on its own: the
 * shortcuts of the URL reader that only the reference or `new URL` can judge
 * (so the expectations come from them, never from a hand-copied answer), the
 * cuts and counts of the gate's texts and summaries at their exact limits,
 * and the bounded books at exactly `BOOK_LIMIT` entries.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { askMessage } from '../../src/lib/text/ask.js';
import { denyMessage, preview, quoteResult, renderHead, renderResult, ceilingMessage, type HitFacts, type HitWords } from '../../src/lib/text/message.js';
import { cycleSummary, countedSummary, repeatSummary, summaryLabel } from '../../src/lib/text/notice.js';
import { add, BOOK_LIMIT, keep } from '../../src/lib/memory/book.js';
import { extractUrls, isLocalHost, normUrl, siteOf, siteSlice } from '../../src/lib/call/url.js';
import { plainUrl } from '../../src/lib/call/plain-url.js';
import { loadOracleModule } from '../parity/oracle.js';

/** A track's words as the gate's texts use them; what each says is marked with the track's name. */
function wordsOf(track: string, listed: number, note: string | null): HitWords {
  return {
    track,
    listed,
    why: (hit) => `${track} why ${hit.count}/${hit.cap}`,
    line: (hit) => `${track} line ${hit.quote}`,
    note,
    ask: { what: (hit) => `${track} what ${hit.count} ${hit.subject.it} ${hit.shown}.`, also: (hit) => `${track} also ${hit.count}` },
    zh: { what: (hit) => `${track} 什么 ${hit.count}。`, also: (hit) => `${track} 另外 ${hit.count}` },
  };
}

interface OracleUrls {
  extractUrls(command: unknown): string[];
  normUrl(raw: unknown, aliases?: unknown): unknown;
  isLocalHost(host: unknown): boolean;
}
const oracle = await loadOracleModule<OracleUrls>('lib/normalize.js');

const REPEAT = wordsOf('repeat', 0, null);
const FAILURE = wordsOf('failure', 1, 'failure note');
const SEQUENCE = wordsOf('sequence', 2, 'sequence note');
const hit = (words: HitWords, quote: string, count = 3, cap = 3): HitFacts => ({ words, quote, count, cap, detail: '' });

const INSTEAD = 'Instead: use the result you already have, take a genuinely different action, or answer with what you know now.';
const SPELLING = 'Changing the description, timeoutMs, --max-time or the spelling of the host does not make it a new action.';

describe('the denial names its tracks and notes', () => {
  test('a denial by one track names that track, quotes its hit and adds no blank line for a track without a note', () => {
    assert.equal(
      denyMessage({ name: 'bash', hits: [hit(REPEAT, 'a')], lastResult: '', refused: false }),
      [
        'REPEAT_TOOL_BLOCKED: bash call not run: repeat why 3/3. It was stopped before it ran, by the repeat track of the loop breaker:',
        '- repeat line a',
        SPELLING,
        'The previous result is already in the conversation history.',
        INSTEAD,
      ].join('\n'),
    );
  });

  test('a denial by the failure track alone names the failure track', () => {
    const text = denyMessage({ name: 'bash', hits: [hit(FAILURE, 'f')], lastResult: 'out', refused: false });
    assert.match(text, /^REPEAT_TOOL_BLOCKED: bash call not run: failure why 3\/3\. It was stopped before it ran, by the failure track of the loop breaker:\n/);
  });

  test('two tracks are named in their listed order whatever order their hits come in, and each note is added once', () => {
    const text = denyMessage({ name: 'bash', hits: [hit(SEQUENCE, 's'), hit(FAILURE, 'f1'), hit(FAILURE, 'f2')], lastResult: 'out', refused: false });
    assert.equal(
      text,
      [
        'REPEAT_TOOL_BLOCKED: bash call not run: sequence why 3/3. It was stopped before it ran, by the failure and sequence tracks of the loop breaker:',
        '- sequence line s',
        '- failure line f1',
        '- failure line f2',
        SPELLING,
        'sequence note',
        'failure note',
        'Previous result:\nout',
        INSTEAD,
      ].join('\n'),
    );
  });

  test('three tracks are named as a list: the first ones by commas, the last after "and"', () => {
    const text = denyMessage({ name: 'bash', hits: [hit(SEQUENCE, 's'), hit(REPEAT, 'r'), hit(FAILURE, 'f')], lastResult: '', refused: false });
    assert.ok(text.split('\n')[0]?.endsWith('by the repeat, failure and sequence tracks of the loop breaker:'), text);
  });

  test('a refused denial puts the refusal first and says the exemption was not granted, in words true of any end when the host did not say', () => {
    const text = denyMessage({ name: 'bash', hits: [hit(REPEAT, 'a')], lastResult: '', refused: true });
    assert.equal(
      text.split('\n').slice(0, 4).join('\n'),
      [
        'REPEAT_TOOL_BLOCKED: bash call not run: it was not approved; repeat why 3/3. It was stopped before it ran, by the repeat track of the loop breaker:',
        '- repeat line a',
        SPELLING,
        'An exemption for these measures was asked for and not granted; they stay blocked until the next human message.',
      ].join('\n'),
    );
  });

  test('P18: a refused denial says how the ask ended: the operator said no, no operator is present, or the ask was withdrawn', () => {
    const said = (outcome: 'rejected' | 'unattended' | 'cancelled'): string[] =>
      denyMessage({ name: 'bash', hits: [hit(REPEAT, 'a')], lastResult: '', refused: true, outcome }).split('\n').filter((line, at) => at === 0 || at === 3);
    assert.deepEqual(said('rejected'), [
      'REPEAT_TOOL_BLOCKED: bash call not run: the operator did not approve it; repeat why 3/3. It was stopped before it ran, by the repeat track of the loop breaker:',
      'The operator was asked to let these measures through and said no; they stay blocked until the next human message.',
    ]);
    assert.deepEqual(said('unattended'), [
      'REPEAT_TOOL_BLOCKED: bash call not run: no operator is present to approve it; repeat why 3/3. It was stopped before it ran, by the repeat track of the loop breaker:',
      'No operator is present to approve them, so these measures stay blocked until the next human message.',
    ]);
    assert.deepEqual(said('cancelled'), [
      'REPEAT_TOOL_BLOCKED: bash call not run: its approval was withdrawn before anyone answered; repeat why 3/3. It was stopped before it ran, by the repeat track of the loop breaker:',
      'The ask was withdrawn before anyone answered; these measures stay blocked until the next human message.',
    ]);
    assert.doesNotMatch(said('unattended').join('\n'), /operator did not approve|not granted/);
  });

  test('a denial without hits still reads as a loop stopped by the repeat track', () => {
    const text = denyMessage({ name: 'bash', hits: [], lastResult: '', refused: false });
    assert.equal(text.split('\n')[0], 'REPEAT_TOOL_BLOCKED: bash call not run: it repeats a loop. It was stopped before it ran, by the repeat track of the loop breaker:');
  });
});

describe('tool names in the first line', () => {
  const firstLine = (name: string): string => denyMessage({ name, hits: [hit(REPEAT, 'a')], lastResult: '', refused: false }).split('\n')[0] ?? '';

  test('a name of 40 characters is quoted whole, one of 41 is cut to 39 and an ellipsis', () => {
    const forty = 'n'.repeat(40);
    assert.ok(firstLine(forty).startsWith(`REPEAT_TOOL_BLOCKED: ${forty} call not run:`), firstLine(forty));
    assert.ok(firstLine(`${forty}x`).startsWith(`REPEAT_TOOL_BLOCKED: ${'n'.repeat(39)}\u2026 call not run:`), firstLine(`${forty}x`));
  });

  test('a name that looks like tool-call markup is defanged', () => {
    assert.ok(firstLine('<tool_call>').startsWith('REPEAT_TOOL_BLOCKED: \u2039tool_call> call not run:'), firstLine('<tool_call>'));
  });
});

describe('the denial at the exemption ceiling', () => {
  test('with a ceiling of one it speaks of one call, quotes each measure defanged and the previous result', () => {
    assert.equal(
      ceilingMessage('bash', ['m1', '<function=x'], 1, 'out'),
      [
        "REPEAT_TOOL_BLOCKED: bash call not run: the operator's approval is used up (it allowed 1 call like it).",
        '- m1',
        '- \u2039function=x',
        'The approved allowance of 1 call is spent; these measures are denied without asking again until the next human message resets it.',
        'Previous result:\nout',
        INSTEAD,
      ].join('\n'),
    );
  });

  test('with a larger ceiling it speaks of calls', () => {
    const text = ceilingMessage('bash', ['m'], 2, '');
    assert.match(text, /\(it allowed 2 calls like it\)\./);
    assert.match(text, /The approved allowance of 2 calls is spent;/);
    assert.match(text, /already in the conversation history/);
  });
});

describe("the operator's ask", () => {
  const ALLOW = 'Allow once runs it and stops counting calls like it until your next message.';
  const REJECT = 'Reject blocks it and calls like it until then.';
  const bash = { name: 'bash', shell: true };

  test('one hit: what and why, then what Allow once and Reject do, one paragraph', () => {
    assert.equal(askMessage(bash, [hit(REPEAT, 'exact:a')]), `Loop breaker: repeat what 3 this command \u201ca\u201d. ${ALLOW} ${REJECT}`);
  });

  test('hits over two tracks: the first track speaks, by the hit about the call itself; the other adds its evidence after Also', () => {
    assert.equal(
      askMessage(bash, [hit(FAILURE, 'host:f'), hit(FAILURE, 'cmd:r1'), hit(REPEAT, 'exact:r2')]),
      `Loop breaker: failure what 3 this command \u201cr1\u201d. Also: repeat also 3. ${ALLOW} ${REJECT}`,
    );
    assert.equal(
      askMessage(bash, [hit(FAILURE, 'host:f'), hit(REPEAT, 'exact:r2'), hit(SEQUENCE, 's'), hit(wordsOf('stale', 3, null), 'exact:x')]),
      `Loop breaker: failure what 3 calls to the host \u201cf\u201d \u201cf\u201d. Also: repeat also 3; sequence also 3. ${ALLOW} ${REJECT}`,
      'a track with no hit about the call itself speaks by its first; at most two others add their evidence',
    );
  });

  test('a ceiling: Allow once says how many more such calls it lets run', () => {
    assert.equal(
      askMessage(bash, [hit(REPEAT, 'exact:a')], 2),
      `Loop breaker: repeat what 3 this command \u201ca\u201d. Allow once runs it and up to 2 more like it; later ones are refused until your next message. ${REJECT}`,
    );
  });

  test('a quote its track names (a cycle\u2019s calls) is quoted whole, even when a call in it starts like a measure (`read:`)', () => {
    const cycle = { ...SEQUENCE, measure: 'sequence' };
    assert.equal(
      askMessage(bash, [hit(cycle, 'read:{"path":"a"} \u2192 echo done')]),
      `Loop breaker: sequence what 3 this command \u201cread:{"path":"a"} \u2192 echo done\u201d. ${ALLOW} ${REJECT}`,
    );
  });

  test('an ask without hits still reads as a loop', () => {
    assert.equal(askMessage(bash, []), `Loop breaker: this call would continue a loop. ${ALLOW} ${REJECT}`);
  });
});

describe('previews and quoted results at their edges', () => {
  test('a value that cannot be turned into text previews as empty', () => {
    const hostile = { toString: (): string => { throw new Error('no'); } };
    assert.equal(preview(hostile, 3), '');
  });

  test('the newline between two blocks counts toward the limit', () => {
    const result = { content: [{ type: 'text', text: 'ab' }, { type: 'text', text: 'c' }] };
    assert.equal(renderHead(result, 3), 'ab\n');
    assert.equal(quoteResult(result, 3), 'ab\n\u2026 (+1 more chars)');
  });

  test('the head stops reading at its limit: a block past it is never read', () => {
    const unreadable = { type: 'text', get text(): string { throw new Error('no'); } };
    assert.equal(renderHead({ content: [{ type: 'text', text: 'abc' }, unreadable] }, 3), 'abc');
    assert.equal(renderHead({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }, unreadable] }, 3), 'a\nb');
  });

  test('a result whose blocks cannot be read quotes as empty, with no marker', () => {
    const unreadable = { type: 'text', get text(): string { throw new Error('no'); } };
    const result = { content: [{ type: 'text', text: 'abc' }, unreadable] };
    assert.equal(renderHead(result, 10), '');
    assert.equal(quoteResult(result, 10), '');
  });

  test('content that is iterable but not an array is no content', () => {
    const result = { content: new Set([{ type: 'text', text: 'abc' }]) };
    assert.equal(renderResult(result), '');
    assert.equal(quoteResult(result, 2), '');
  });

  test('the cut marker counts only non-empty text blocks', () => {
    assert.equal(quoteResult({ content: [{ type: 'text', text: 'abc' }, { type: 'text', text: '' }, { type: 'image' }] }, 3), 'abc');
    assert.equal(quoteResult({ content: [{ type: 'text', text: 'abcdef' }, { type: 'text', text: 5 }] }, 3), 'abc\u2026 (+3 more chars)');
  });
});

describe('summaries at the label limit', () => {
  test('a label quotes 60 characters after its measure whole, and cuts 61 to 60 and an ellipsis inside the marks', () => {
    assert.equal(summaryLabel(`exact:${'f'.repeat(60)}`), `exact \u201c${'f'.repeat(60)}\u201d`);
    assert.equal(summaryLabel(`exact:${'f'.repeat(61)}`), `exact \u201c${'f'.repeat(60)}\u2026\u201d`);
  });

  test('the three summaries: occurrences, failures and a cycle joined by arrows in one quotation', () => {
    assert.equal(repeatSummary(summaryLabel('host:a'), 4), 'host \u201ca\u201d \u00d7 4');
    assert.equal(countedSummary(summaryLabel('host:a'), 'failed', 2), 'host \u201ca\u201d failed x2');
    assert.equal(cycleSummary('sequence', ['curl', 'jq'], 3), 'sequence \u201ccurl \u2192 jq\u201d \u00d7 3');
    assert.equal(cycleSummary('sequence', ['c'.repeat(100)], 3), `sequence \u201c${'c'.repeat(60)}\u2026\u201d \u00d7 3`);
  });
});

describe('the bounded books', () => {
  test('a set book of exactly BOOK_LIMIT keys keeps them all; one more lets the oldest go', () => {
    const book = new Set<string>();
    for (let i = 0; i < BOOK_LIMIT; i += 1) add(book, `k${i}`);
    assert.equal(book.size, BOOK_LIMIT);
    assert.ok(book.has('k0'), 'a full book still has its oldest key');
    add(book, 'k0'); // k0 becomes the newest, so k1 is now the oldest
    add(book, 'new');
    assert.equal(book.size, BOOK_LIMIT);
    assert.ok(book.has('k0') && !book.has('k1') && book.has('new'), 'the re-added key stays, the oldest goes');
  });

  test('a map book keeps the newest value of a key and lets its oldest key go past the limit', () => {
    const book = new Map<string, number>();
    for (let i = 0; i < BOOK_LIMIT; i += 1) keep(book, `k${i}`, i);
    assert.equal(book.size, BOOK_LIMIT);
    keep(book, 'k0', -1);
    keep(book, 'new', 0);
    assert.equal(book.size, BOOK_LIMIT);
    assert.equal(book.get('k0'), -1);
    assert.ok(!book.has('k1'), 'the oldest key goes past the limit');
  });
});

describe("plainUrl's fast path", () => {
  // Each spelling puts one character class or separator at the edge the fast path checks.
  const TAKEN = [
    'https://0z.9a.Az.Za.a0.z9.example/p', // every end of the digit and letter ranges, first and last in a label
    'http://x.example',
    'https://Example.COM.', // one trailing dot
    'https://ex-am-ple.com', // inner hyphens
    'https://1.example', // a number only as a first label
    'https://a.x0',
    'https://a.1-2', // digits with a hyphen are no number
    'https://a.a0x', // 0x only counts at the start
    'https://xa--b.an--b.xn-b.bxn--c.example', // near-misses of an xn-- label
    'https://example.com/a/b?y=2&x=1#f',
    'https://example.com?q=1', // a query without a path
    'https://example.com#f?x/y', // a ? and / after the fragment
    'https://example.com?q#/x',
    'https://example.com/a?b/c?d', // a / and ? inside the query
    'https://example.com/.well-known/a./..b', // dots that are no dot-segment
    'https://example.com/~!$&()*+,;=:@',
    'https://example.com/',
    'https://example.com:8080/', 'https://example.com:/x', 'https://example.com:0', 'https://example.com:65535?q', 'https://example.com:08443#f', // ports the parser takes and drops
    'https://10.0.0.5/x', 'http://0.0.0.0', 'https://255.255.255.255:9200/a', 'https://169.254.170.251?a=1', // IPv4 as the parser writes it
    'https://example.com/a?%41', 'https://example.com/?a=%20b&c=d+e', 'https://example.com/?%zz%', // a query keeps its `%` as written
  ];
  // Hosts, paths and queries the URL parser rewrites, rejects or reads as an address, and spellings it is merely not sure to read as they are.
  const HANDED_OVER = [
    'https://xn--bcher-kva.example', 'https://XN--a.example', 'https://a.Xn--b', 'https://a.xN--b',
    'https://1.2', 'https://a.0x1f', 'https://a.0X', 'https://a.1.', 'https://a.0xg',
    'https://-x.example', 'https://x-.example', 'https://a.b-', 'https://a..b', 'https://.a', 'https://.', 'https://',
    'https://a_b.example', 'https://\u00e4.example', 'https://u@example.com', 'https://u:1@example.com',
    'https://example.com:65536', 'https://example.com:123456', 'https://example.com:8a', 'https://example.com:-1', 'https://example.com::1', 'https://:80/',
    'https://1.2.3', 'https://1.2.3.4.5', 'https://1.2.3.256', 'https://1.2.3.04', 'https://01.2.3.4', 'https://1.2.3.4.', 'https://1..3.4', 'https://0x1.2.3.4', 'https://1.2.3.4:99999',
    'ftp://example.com', 'HTTPS://example.com', 'example.com', 'a.com/x',
    'https://example.com/a b', 'https://example.com/%7e', "https://example.com/q'", 'https://example.com/./x', 'https://example.com/a/..', 'https://example.com/a/.',
    'https://example.com/a?b c', 'https://example.com/%2e%2e/a', 'https://example.com/a%20b',
  ];

  test('reads the common spellings directly, as new URL reads them', () => {
    for (const text of TAKEN) {
      const slow = new URL(text);
      assert.deepEqual(plainUrl(text), { hostname: slow.hostname, pathname: slow.pathname, search: slow.search }, text);
    }
  });

  test('hands every other spelling to the URL parser', () => {
    for (const text of HANDED_OVER) assert.equal(plainUrl(text), null, text);
  });
});

describe('URLs read as the reference reads them, at their edges', () => {
  const COMMANDS = [
    // A bare scheme, near-miss schemes, a scheme inside a word, back-to-back schemes.
    'curl https:// x', 'curl https://', 'curl http:/a.com', 'curl httpx://a.com', 'curl https:a.com', 'xhttps://a.com/x', 'httphttps://a.com', 'http', 'curl https://a.com/https://b.com',
    // Every stop character and kinds of whitespace end a URL.
    'https://a.com"b', "https://a.com'b", 'https://a.com\\b', 'https://a.com<b', 'https://a.com>b', 'https://a.com`b', 'https://a.com\tb', 'https://a.com\nb', 'https://a.com\u00a0b', 'https://a.com\u3000b',
    // Trailing punctuation, all the way back to the scheme.
    'https://a.com/x...', 'https://a.com/x?!', 'https://a.com/(x)', 'https://a.com/[x]', '{https://a.com/x}', 'https://a.com/x;:,', 'https://.', 'https://...)', 'https://a.com/x).',
    // Duplicates by raw spelling.
    'https://a.com/x https://a.com/x https://A.com/x', 'https://a.com/x. https://a.com/x', 'at https://a.com/x',
    // Another four-letter scheme at the very start: the search must find `http` before it reads a scheme.
    'sftp://a.com/x', 'ftps://a.com/x https://b.com',
  ];
  const URLS = [
    // Paths: slashes only, trailing runs.
    'https://a.com', 'https://a.com/', 'https://a.com//', 'https://a.com///', 'https://a.com/a//', 'https://a.com/a/b/', 'https://a.com/A',
    // Queries: empty pairs, keys without =, tracking keys and near misses, escapes and +.
    'https://a.com/?', 'https://a.com/?a', 'https://a.com/?a=', 'https://a.com/?&', 'https://a.com/?b=2&&a=1', 'https://a.com/?a=1&a=0', 'https://a.com/?=x',
    'https://a.com/?utm_source=1&k=1', 'https://a.com/?UTM_X=1', 'https://a.com/?xutm_a=1', 'https://a.com/?utm_a-b=1', 'https://a.com/?utm_', 'https://a.com/?utm_=1',
    'https://a.com/?fbclid&k', 'https://a.com/?fbclidx=1', 'https://a.com/?_ga=1', 'https://a.com/?%5Fga=1&k=1', 'https://a.com/?a=%2B', 'https://a.com/?a=b+c', 'https://a.com/?a%3D=1', 'https://a.com/?%41=1',
    // Hosts: www and trailing dots, empty, numbers, IPv6, the site's labels.
    'https://www.a.com', 'https://WWW.a.com', 'https://www.www.a.com', 'https://www.a.com.', 'https://www.', 'https://www', 'https://a.com.', 'https://127', 'https://[::1]:8/x',
    'https://a.b.c', 'https://a.b', 'https://a', 'https://x.co.uk', 'https://1.2.3.4', 'https://1.2.3.4.5', 'https://a.-b.c', 'https://a-.b.c', 'https://-a.b.c', 'https://.a.b.c', 'https://a..b.c', 'https://a.b..c', 'https://a.b.c..',
    // Schemes and bare hosts.
    'https://.', 'https://.a', 'https://a..', 'https://a.b..', 'foo://A.COM/x', 'foo:///x',
    'a.com/x', 'foo://a.com/x', '1a://a.com', 'a+b.c-d://a.com', 'a_b://a.com', '  https://a.com  ', '', '   ', 'http://', 'https:///a',
  ];
  const ownAlias = Object.assign(() => 0, { 'a.com': 'f.com' });
  const ALIASES: unknown[] = [{ 'a.com': 'B.com', 'www.a.com': 'c.com' }, { 'a.com': '' }, { 'a.com': 5 }, { 'a.com': { length: 1, toLowerCase: () => 'not-a-string.com' } }, Object.create({ 'a.com': 'inherited.com' }), ownAlias, 'a.com', ['a.com']];

  test('extractUrls agrees with the reference on stops, punctuation, schemes and duplicates', () => {
    for (const command of COMMANDS) assert.deepEqual(extractUrls(command), oracle.extractUrls(command), JSON.stringify(command));
    for (const odd of [undefined, 5, ['https://a.com']]) assert.deepEqual(extractUrls(odd), oracle.extractUrls(odd));
  });

  test('normUrl agrees with the reference on paths, queries, hosts, schemes and aliases', () => {
    for (const url of URLS) {
      assert.deepEqual(normUrl(url), oracle.normUrl(url), JSON.stringify(url));
      for (const aliases of ALIASES) {
        assert.deepEqual(normUrl(url, aliases as Record<string, string>), oracle.normUrl(url, aliases), `${JSON.stringify(url)} with ${JSON.stringify(aliases)}`);
      }
    }
    assert.equal(normUrl(5), oracle.normUrl(5));
  });

  test('a table that is no table, or throws when read, has no alias', () => {
    const hostile = new Proxy({}, { has: () => { throw new Error('no'); }, getOwnPropertyDescriptor: () => { throw new Error('no'); } });
    for (const aliases of [null, hostile]) assert.equal(normUrl('https://a.com/x', aliases as unknown as Record<string, string>)?.host, 'a.com');
  });

  test('siteOf keeps an IPv4 address and anything with a colon whole, and gives a non-string nothing', () => {
    assert.equal(siteOf('1.2.3.4'), '1.2.3.4');
    assert.equal(siteOf('1.2.3.4.5'), '4.5');
    assert.equal(siteOf('a1.2.3.4'), '3.4');
    assert.equal(siteOf('x:y.a.b'), 'x:y.a.b');
    assert.equal(siteOf(5 as unknown as string), '');
  });

  test("siteSlice reads the common host's last two labels, and hands over a host with an empty label or fewer than three", () => {
    assert.equal(siteSlice('a.b.c'), 'b.c');
    assert.equal(siteSlice('www.api.example.co'), 'example.co');
    for (const host of ['a.b', 'ab', '.a.b', 'a.b.', 'a.b.c.', 'a..b.c', 'a.b..c', '..a.b', '']) assert.equal(siteSlice(host), null, host);
  });

  test('isLocalHost agrees with the adjusted reference at the edges of each range and form', () => {
    const hosts = [
      'localhost', 'LOCALHOST', 'a.localhost', 'localhost.', 'xlocalhost', '.localhost', '0.0.0.0', '0.0.0.1', '00.0.0.0',
      '127.0.0.1', '127.', '127x', 'a127.0.0.1', '10.0.0.1', '100.0.0.1', '1.10.0.0', '192.168.0.1', '192.169.0.1', '169.254.0.1', '169.255.0.1',
      '172.15.0.1', '172.16.0.1', '172.19.0.1', '172.20.0.1', '172.29.0.1', '172.30.0.1', '172.31.0.1', '172.32.0.1', '172.3.0.1', '172.1.0.1', '172.2a.0.1',
      '::1', '0:0:0:0:0:0:0:1', '::2', 'fc00::1', 'FD12::1', 'fe00::1', 'fcg0::1', 'fc0::1', 'fe80::1', 'FE80::1', 'afe80::1', 'xfc00::1',
      '[::1]', '[0:0:0:0:0:0:0:1]', '[fd00::1]', '[fe80::1]', '[2001:db8::1]', '[::1', '::1]', '[]', '',
      '1127.0.0.1', '110.0.0.1', '1192.168.0.1', '1172.16.0.1', '1169.254.0.1', 'fe80::1]', '[fe80::1', 'fc00::1]', '[fc00::1',
      '/', ':', '9.9.9.9', 'a', 5, null,
    ];
    for (const host of hosts) assert.equal(isLocalHost(host), oracle.isLocalHost(host), JSON.stringify(host));
  });
});

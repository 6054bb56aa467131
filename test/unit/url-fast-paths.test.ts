/**
 * The URL reader's fast paths (plainUrl, the query split, siteOf's slice) must
 * read exactly what the slow paths read: WHATWG `new URL`, `URLSearchParams`
 * and the label split. Thousands of seeded URL-like strings, built from the
 * characters where the two could part (case, dots, digits, `%`, `+`, `@`,
 * `:`, ports, backslashes, `xn--`, hex and numeric labels, IPv4 spellings),
 * are read both ways.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normUrl, siteOf } from '../../src/lib/call/url.js';
import { plainUrl } from '../../src/lib/call/plain-url.js';
import { createRecent, RECENT_LIMIT, RECENT_TEXT_LIMIT } from '../../src/lib/call/recent.js';
import { mulberry32 as prng } from '../support/prng.js';

const HOST_PARTS = ['example', 'EXAMPLE', 'a', 'b-c', '-x', 'x-', 'xn--bcher-kva', 'XN--a', '0x1f', '0X', '09', '1', '255', 'www', 'api', '', 'ä', 'a_b', 'a%41', 'a b', 'localhost'];
const PATH_PARTS = ['', '/', '/a', '/A/b', '/./x', '/../y', '/%7e', '/a b', '/x:y', '/@z', "/q'", '/"', '/\\w', '/~u', '/é', '/a.', '/..', '/.', '//', '/a+b'];
const QUERY_PARTS = ['', '?', '?a=1', '?a=1&b=2', '?utm_source=x&q=1', '?a', '?&&a=&', '?a=b=c', '?x=%20', '?x=+', "?'", '?a=1#f', '#frag', '?é=1', '?a b', '?%zz'];
const SCHEMES = ['https://', 'http://', 'HTTP://', 'ftp://', 'https:/', ''];

function pick<T>(random: () => number, from: readonly T[]): T {
  return from[Math.floor(random() * from.length)] as T;
}

const PLAIN_HOSTS = ['example', 'EXAMPLE', 'api', 'b-c', 'x1', 'www', 'co', 'uk'];
// Number labels: four of them make an IPv4 address, which the fast path takes only as the parser writes it.
const NUMBER_LABELS = ['0', '1', '10', '255', '256', '00', '01', '099', '1000', '0x1', ''];
const PORTS = ['', '', '', ':', ':0', ':80', ':8080', ':65535', ':65536', ':08443', ':123456', ':8a', ':-1', '::1'];
const PLAIN_PATHS = ['', '/', '/a', '/A/b', '/x:y', '/@z', '/~u', '/a.', '/a+b', '/a/b/c/', '/v1/items;x=1'];
const PLAIN_QUERIES = ['', '?', '?a=1', '?a=1&b=2', '?utm_source=x&q=1', '?a', '?&&a=&', '?a=b=c', '?a=1#f', '#frag', '?q=a/b?c', '?x=%20', '?a=%2B&b=c+d', '?%zz', '?%', '?%5Fga=1'];

/** A host of plain labels, or of number labels (mostly four, an address or a near miss). */
function plainHost(random: () => number): string {
  if (random() < 0.7) return Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(random, PLAIN_HOSTS)).join('.');
  const count = random() < 0.8 ? 4 : 3 + Math.floor(random() * 3);
  return Array.from({ length: count }, () => (random() < 0.85 ? String(Math.floor(random() * 256)) : pick(random, NUMBER_LABELS))).join('.');
}

function urlLike(random: () => number): string {
  // Half the texts are spelled as the fast path expects, so it is taken often enough to prove something.
  if (random() < 0.5) {
    return `${random() < 0.5 ? 'https://' : 'http://'}${plainHost(random)}${random() < 0.1 ? '.' : ''}${pick(random, PORTS)}${pick(random, PLAIN_PATHS)}${pick(random, PLAIN_QUERIES)}`;
  }
  const labels = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(random, HOST_PARTS));
  const tail = random() < 0.1 ? '.' : random() < 0.05 ? ':8080' : random() < 0.05 ? '@evil' : '';
  return `${pick(random, SCHEMES)}${labels.join('.')}${tail}${pick(random, PATH_PARTS)}${pick(random, QUERY_PARTS)}`;
}

test('plainUrl reads the hostname, path and query new URL reads, or hands the text over', () => {
  const random = prng(20261130);
  let taken = 0;
  for (let i = 0; i < 20_000; i += 1) {
    const text = urlLike(random);
    const fast = plainUrl(text);
    if (fast === null) continue;
    taken += 1;
    const slow = new URL(text);
    assert.deepEqual({ hostname: fast.hostname, pathname: fast.pathname, search: fast.search }, { hostname: slow.hostname, pathname: slow.pathname, search: slow.search }, text);
  }
  // The fast path must actually be taken, or the comparison proves nothing.
  assert.ok(taken > 2_000, `fast path taken ${taken} times`);
});

test('normUrl gives the same identity whichever path reads the URL', () => {
  const random = prng(7);
  for (let i = 0; i < 5_000; i += 1) {
    const text = urlLike(random);
    // A space before the scheme makes plainUrl hand over (the text is trimmed first, so the reading is the same).
    const viaParser = normUrl(` ${text.replace(/^https:\/\//, 'HTTPS://').replace(/^http:\/\//, 'HTTP://')}`);
    assert.deepEqual(normUrl(text), viaParser, text);
  }
});

test("siteOf's slice gives the last two non-empty labels, as the label split does", () => {
  const random = prng(11);
  const split = (host: string): string => {
    const labels = host.split('.').filter((label) => label.length > 0);
    return labels.length <= 2 ? host : labels.slice(-2).join('.');
  };
  for (let i = 0; i < 20_000; i += 1) {
    const host = Array.from({ length: Math.floor(random() * 5) }, () => pick(random, ['a', 'bb', '', 'c-d', '1', 'x'])).join('.');
    if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) continue;
    assert.equal(siteOf(host), split(host), JSON.stringify(host));
  }
});

test('the recent readings hold at most RECENT_LIMIT texts, the least recently read going first, and never a long text', () => {
  const recent = createRecent<number>();
  let reads = 0;
  const read = (): number => (reads += 1);
  // As the fingerprints ask it: what is held, else a reading made and kept.
  const get = (text: string): number => recent.known(text) ?? recent.keep(text, read());
  for (let i = 0; i < RECENT_LIMIT; i += 1) get(`t${i}`);
  assert.equal(reads, RECENT_LIMIT);
  get('t0'); // t0 is now the most recent
  assert.equal(reads, RECENT_LIMIT, 'a held text is not read again');
  get('new'); // pushes out t1, the least recently read
  assert.equal(get('t0'), 1, 't0 kept its reading');
  const before = reads;
  get('t1');
  assert.equal(reads, before + 1, 't1 was let go and is read again');
  const long = 'x'.repeat(RECENT_TEXT_LIMIT + 1);
  get(long);
  get(long);
  assert.equal(reads, before + 3, 'a long text is read every time, never held');
});

/**
 * URLs in a command and their spelling-insensitive identity (§2.6, §2.8): the
 * raw material of the `net:`, `site:` and `host:` fingerprints.
 */

import { isDigitCode, isSpaceCode } from '../shell/tokenize.js';
import { plainUrl, type Parts } from './plain-url.js';

/** The identity of one URL: `href` is host + path + cleaned, sorted query. */
export interface NormalizedUrl {
  host: string;
  path: string;
  site: string;
  href: string;
}

// A URL ends at whitespace or at one of these (backtick included), as in the reference:
// the ASCII ones as a table, read once a character; beyond ASCII only spaces end it.
const URL_STOPS = ['"', "'", '\\', '<', '>', '`'];
const ENDS_URL: Uint8Array = (() => {
  const ends = new Uint8Array(128);
  // Stryker disable next-line EqualityOperator: a typed array ignores a write past its end
  for (let code = 0; code < 128; code += 1) if (isSpaceCode(code)) ends[code] = 1;
  for (const c of URL_STOPS) ends[c.charCodeAt(0)] = 1;
  return ends;
})();
// Sentence punctuation that follows a URL in prose rather than belonging to it (the
// reference's list also has both quotes, but a quote already ends the URL).
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}'].map((c) => c.charCodeAt(0)));

/** Length of the scheme marker (`http://` or `https://`) at `at`, where `http` starts, or 0. */
function schemeLength(text: string, at: number): number {
  if (text.startsWith('s://', at + 4)) return 8;
  return text.startsWith('://', at + 4) ? 7 : 0;
}

/**
 * Every distinct `http(s)://` URL in the text, in order of appearance, with
 * trailing punctuation cut. Edge cases: the scheme is case-sensitive
 * (`HTTPS://` is ignored), a backslash ends the URL, duplicates are judged by
 * raw spelling, and a non-string gives `[]`.
 */
export function extractUrls(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  const urls: string[] = [];
  // Made at the second URL: most commands name one or none.
  let seen: Set<string> | null = null;
  let from = 0;
  // One forward scan: each character is looked at a bounded number of times.
  for (let at = text.indexOf('http'); at >= 0; at = text.indexOf('http', from)) {
    const scheme = schemeLength(text, at);
    if (scheme === 0) {
      from = at + 1;
      continue;
    }
    let end = at + scheme;
    // Stryker disable next-line EqualityOperator: one step past the end reads NaN, which stops nothing, and the slice below ends at the text's end either way
    while (end < text.length) {
      const code = text.charCodeAt(end);
      // Stryker disable next-line EqualityOperator: the table has no entry 128 (undefined ends nothing), and U+0080 is no space either
      if (code < 128 ? ENDS_URL[code] === 1 : isSpaceCode(code)) break;
      end += 1;
    }
    // Past a bare scheme the search goes on: `ttp://` and `ttps://` hold no `http`.
    from = end;
    if (end === at + scheme) continue;
    // Manual scan from the end: a `[…]+$` regex backtracks quadratically on long runs.
    // The scheme's `/` is no punctuation, so the cut never reaches into it.
    let keep = end;
    while (TRAILING_PUNCTUATION.has(text.charCodeAt(keep - 1))) keep -= 1;
    const raw = text.slice(at, keep);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut: the first URL has nothing to be a duplicate of
    if (urls.length > 0) {
      seen ??= new Set(urls);
      if (seen.has(raw)) continue;
      seen.add(raw);
    }
    urls.push(raw);
  }
  return urls;
}

// Query keys that name the referrer, not the resource; `\w` here is ASCII only.
// This table and the locality patterns are exported for the tests' generators.
export const TRACKING_KEY = /^(?:utm_\w+|fbclid|gclid|msclkid|mc_eid|_ga|ref_src|igshid)$/i;
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/**
 * `TRACKING_KEY.test(key)`, the pattern tried only on a key that starts as one
 * of its names does (u, f, g, m, `_`, r, i in either case): most keys do not.
 */
function isTrackingKey(key: string): boolean {
  return startsLikeTrackingKey(key, 0) && TRACKING_KEY.test(key);
}

/** Whether the character at `at` is one a tracking key starts with: most keys' first is not, and need not be cut out to be tried. */
function startsLikeTrackingKey(text: string, at: number): boolean {
  const first = text.charCodeAt(at) | 0x20;
  // `_` (0x5f) reads as 0x7f here.
  // Stryker disable next-line ConditionalExpression: a shortcut: every key it lets through is still tried by the pattern
  return first === 0x75 || first === 0x66 || first === 0x67 || first === 0x6d || first === 0x7f || first === 0x72 || first === 0x69;
}

/** `key=value` pairs of the query without tracking keys, sorted as whole strings. */
function cleanQuery(search: string): string {
  // No query (a parsed one is `''` or starts with `?`): nothing to split or sort.
  // Stryker disable next-line ConditionalExpression: a shortcut: an empty query or a bare `?` splits into no pair
  if (search.length < 2) return '';
  // A parsed query is ASCII with non-ASCII percent-encoded: without `%` or `+` nothing decodes, so it is split as is.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: URLSearchParams reads every query right, so sending one there is no error (splitting an encoded one as is would be, and the oracle tests catch it)
  const pairs = search.indexOf('%') < 0 && search.indexOf('+') < 0 ? plainPairs(search) : decodedPairs(search);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: one pair or none sorts and joins to itself
  if (pairs.length < 2) return pairs[0] ?? '';
  // Stryker disable next-line ConditionalExpression,EqualityOperator: both orders are the same; the bound only keeps a hostile query of thousands of pairs off the quadratic insertion
  return pairs.length <= INSERTED_PAIRS ? sortedJoin(pairs) : pairs.sort().join('&');
}

/** Most pairs put in order by insertion; a longer query (a hostile one) takes the general sort. */
const INSERTED_PAIRS = 8;

/**
 * `pairs.sort().join('&')` for a query's handful of pairs: in order by
 * insertion, comparing UTF-16 code units as `sort()` does for strings, then
 * joined. The general sort's setup costs more than a few pairs do.
 */
function sortedJoin(pairs: string[]): string {
  for (let at = 1; at < pairs.length; at += 1) {
    const pair = pairs[at] as string;
    let slot = at;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: before the first pair `pairs[-1]` is undefined, which no pair is less than; equal pairs are the same text in either order
    for (; slot > 0 && pair < (pairs[slot - 1] as string); slot -= 1) pairs[slot] = pairs[slot - 1] as string;
    pairs[slot] = pair;
  }
  return pairs.join('&');
}

/**
 * The `key=value` texts of a query with nothing to decode, as `URLSearchParams`
 * would pair them: empty pairs skipped, a pair without `=` gets one. Read by
 * position, so only the pairs kept are cut out of the query.
 */
function plainPairs(search: string): string[] {
  const pairs: string[] = [];
  // Past the `?`; each pair ends at the next `&` or the end.
  // Stryker disable next-line EqualityOperator: at the end no pair is left: the next `&` is not found and the pair would be empty
  for (let from = 1; from < search.length; ) {
    let end = search.indexOf('&', from);
    // Stryker disable next-line EqualityOperator: a pair starts at 1 or later, so a found `&` is never at 0
    if (end < 0) end = search.length;
    if (end > from) {
      const eq = search.indexOf('=', from);
      // Stryker disable next-line EqualityOperator: a found `=` is at 1 or later, and never where the `&` is
      const keyEnd = eq < 0 || eq > end ? end : eq;
      if (!startsLikeTrackingKey(search, from) || !TRACKING_KEY.test(search.slice(from, keyEnd))) {
        pairs.push(keyEnd === end ? `${search.slice(from, end)}=` : search.slice(from, end));
      }
    }
    from = end + 1;
  }
  return pairs;
}

/** The `key=value` texts as `URLSearchParams` decodes them: percent-escapes, and `+` as a space. */
function decodedPairs(search: string): string[] {
  const pairs: string[] = [];
  for (const [key, value] of new URLSearchParams(search)) {
    if (!isTrackingKey(key)) pairs.push(`${key}=${value}`);
  }
  return pairs;
}

/** The path without trailing slashes, `/` when nothing is left. */
function trimPath(pathname: string): string {
  // Scan from the end: `/\/+$/` is quadratic on a path made of many slash runs. Before the start, NaN is no slash.
  let end = pathname.length;
  while (pathname.charCodeAt(end - 1) === 0x2f) end -= 1;
  return end === 0 ? '/' : pathname.slice(0, end);
}

/** The host's alias when the table has it as an own, non-empty string; else the host. */
function aliased(host: string, hostAliases: unknown): string {
  try {
    if (!Object.hasOwn(hostAliases as object, host)) return host;
    const mapped: unknown = (hostAliases as Record<string, unknown>)[host];
    return typeof mapped === 'string' && mapped.length > 0 ? mapped.toLowerCase() : host;
  } catch {
    // A table that is no table (null) or a hostile one (a throwing getter or Proxy) has no alias.
    return host;
  }
}

function parsed(text: string): Parts | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * Normalize a URL or bare host: `https://` is assumed, scheme, port, userinfo
 * and fragment are dropped, one trailing `.` and one leading `www.` go, then the
 * alias is folded. Edge cases: a non-string, blank or unparseable input gives
 * `null`; `http://127` is `0.0.0.127`; IPv6 keeps its brackets.
 */
export function normUrl(raw: unknown, hostAliases: Readonly<Record<string, string>> = {}): NormalizedUrl | null {
  if (typeof raw !== 'string') return null;
  // A blank text becomes `https://`, which has no host.
  let text = raw.trim();
  // Tried only when the text does not start `http(s)://`: a pattern that matches keeps its subject
  // alive until the next match, and a URL here is often a slice of a 1 MB command (P6).
  // Stryker disable next-line ConditionalExpression,LogicalOperator,MethodExpression: a shortcut: the pattern reads both schemes as schemes too
  if (!text.startsWith('https://') && !text.startsWith('http://') && !HAS_SCHEME.test(text)) text = `https://${text}`;
  const url = plainUrl(text) ?? parsed(text);
  if (url === null) return null;
  let host = url.hostname.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('www.')) host = host.slice(4);
  if (host.length === 0) return null;
  host = aliased(host, hostAliases);
  const path = trimPath(url.pathname);
  const query = cleanQuery(url.search);
  return {
    host,
    path,
    site: siteOf(host),
    href: query.length > 0 ? `${host}${path}?${query}` : `${host}${path}`,
  };
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * The site a host belongs to: its last two DNS labels. Edge cases: an IPv4
 * literal or anything containing `:` (IPv6) stays whole, so does a host of two
 * labels or fewer; `a.b.c.example.co.uk` gives `co.uk`; a non-string gives `''`.
 */
export function siteOf(host: string): string {
  if (typeof host !== 'string') return '';
  // An IPv4 address ends in a digit: only then is the pattern tried.
  if ((isDigitCode(host.charCodeAt(host.length - 1)) && IPV4.test(host)) || host.includes(':')) return host;
  // One dot or none is two labels or fewer, empty ones included: the host itself.
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut: siteSlice gives null for two labels or fewer, and the label split gives back the host
  if (host.indexOf('.') === host.lastIndexOf('.')) return host;
  return siteSlice(host) ?? siteOfLabels(host);
}

/**
 * The common host's site read as a slice: with no empty label (no leading,
 * trailing or double dot) and three labels or more, its last two labels; else
 * `null`. url-fuzz in the tests keeps it equal to the label split.
 */
export function siteSlice(host: string): string | null {
  const last = host.lastIndexOf('.');
  const second = host.lastIndexOf('.', last - 1);
  return second > 0 && last < host.length - 1 && !host.includes('..') ? host.slice(second + 1) : null;
}

/** The last two non-empty labels, or the host when it has two or fewer. */
function siteOfLabels(host: string): string {
  const labels = host.split('.').filter((label) => label.length > 0);
  return labels.length <= 2 ? host : labels.slice(-2).join('.');
}

// The reference's prefixes: they match DNS names too (`127.example.com` is local).
export const LOCAL_PREFIXES: readonly RegExp[] = [/^127\./, /^10\./, /^192\.168\./, /^172\.(?:1[6-9]|2\d|3[01])\./, /^169\.254\./];
export const UNIQUE_LOCAL = /^f[cd][0-9a-f]{2}:/i;
export const LINK_LOCAL = /^fe80:/i;

/** Loopback, unique-local or link-local IPv6, written without brackets. */
function isLocalIpv6(address: string): boolean {
  return address === '::1' || address === '0:0:0:0:0:0:0:1' || UNIQUE_LOCAL.test(address) || LINK_LOCAL.test(address);
}

/**
 * Whether a host is on this machine or the local network. Edge cases (kept from
 * the reference): case-sensitive `localhost`, so `LOCALHOST` is not local, and
 * `127.example.com` is; CGNAT is not. Decision P3: a bracketed IPv6 host is
 * local when the address inside is loopback, link-local or unique-local.
 */
export function isLocalHost(host: unknown): boolean {
  if (typeof host !== 'string') return false;
  if (host.startsWith('[') && host.endsWith(']')) return isLocalIpv6(host.slice(1, -1));
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // Every address below starts with 0, 1, `:` or f: a name such as `example.com` skips the patterns.
  const first = host.charCodeAt(0);
  // Stryker disable next-line ConditionalExpression: a shortcut: no address below starts otherwise
  if (first !== 0x30 && first !== 0x31 && first !== 0x3a && (first | 0x20) !== 0x66) return false;
  if (host === '0.0.0.0' || isLocalIpv6(host)) return true;
  return LOCAL_PREFIXES.some((prefix) => prefix.test(host));
}

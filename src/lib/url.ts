/**
 * URLs in a command and their spelling-insensitive identity (§2.6, §2.8): the
 * raw material of the `net:`, `site:` and `host:` fingerprints.
 */

import { isSpaceCode } from './tokenize.js';

/** The identity of one URL: `href` is host + path + cleaned, sorted query. */
export interface NormalizedUrl {
  host: string;
  path: string;
  site: string;
  href: string;
}

// A URL ends at whitespace or at one of these (backtick included), as in the reference.
const URL_STOPS = new Set(['"', "'", '\\', '<', '>', '`'].map((c) => c.charCodeAt(0)));
// Sentence punctuation that follows a URL in prose rather than belonging to it.
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', "'", '"'].map((c) => c.charCodeAt(0)));

/** Length of the scheme marker (`http://` or `https://`) at `at`, or 0. */
function schemeLength(text: string, at: number): number {
  if (!text.startsWith('http', at)) return 0;
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
  const seen = new Set<string>();
  let from = 0;
  // One forward scan: each character is looked at a bounded number of times.
  while (from < text.length) {
    const at = text.indexOf('http', from);
    if (at < 0) break;
    const scheme = schemeLength(text, at);
    let end = at + scheme;
    while (scheme > 0 && end < text.length) {
      const code = text.charCodeAt(end);
      if (isSpaceCode(code) || URL_STOPS.has(code)) break;
      end += 1;
    }
    if (scheme === 0 || end === at + scheme) {
      from = at + 1;
      continue;
    }
    from = end;
    // Manual scan from the end: a `[…]+$` regex backtracks quadratically on long runs.
    let keep = end;
    while (keep > at && TRAILING_PUNCTUATION.has(text.charCodeAt(keep - 1))) keep -= 1;
    if (keep === at) continue;
    const raw = text.slice(at, keep);
    if (seen.has(raw)) continue;
    seen.add(raw);
    urls.push(raw);
  }
  return urls;
}

// Query keys that name the referrer, not the resource; `\w` here is ASCII only.
// This table and the locality patterns are exported for the tests' generators.
export const TRACKING_KEY = /^(?:utm_\w+|fbclid|gclid|msclkid|mc_eid|_ga|ref_src|igshid)$/i;
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/** `key=value` pairs of the query without tracking keys, sorted as whole strings. */
function cleanQuery(search: string): string {
  if (search.length <= 1) return '';
  const pairs: string[] = [];
  for (const [key, value] of new URLSearchParams(search)) {
    if (!TRACKING_KEY.test(key)) pairs.push(`${key}=${value}`);
  }
  return pairs.sort().join('&');
}

/** The path without trailing slashes, `/` when nothing is left. */
function trimPath(pathname: string): string {
  if (pathname.length <= 1) return pathname.length === 0 ? '/' : pathname;
  // Scan from the end: `/\/+$/` is quadratic on a path made of many slash runs.
  let end = pathname.length;
  while (end > 0 && pathname.charCodeAt(end - 1) === 0x2f) end -= 1;
  return end === 0 ? '/' : pathname.slice(0, end);
}

/** The alias of a host when the table has it as an own, non-empty string. */
function aliasOf(host: string, hostAliases: unknown): string | null {
  if (hostAliases === null || typeof hostAliases !== 'object') return null;
  try {
    if (!Object.hasOwn(hostAliases, host)) return null;
    const mapped: unknown = (hostAliases as Record<string, unknown>)[host];
    return typeof mapped === 'string' && mapped.length > 0 ? mapped.toLowerCase() : null;
  } catch {
    // A hostile table (a throwing getter or Proxy) simply has no alias.
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
  let text = raw.trim();
  if (text.length === 0) return null;
  if (!HAS_SCHEME.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  let host = url.hostname.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('www.')) host = host.slice(4);
  if (host.length === 0) return null;
  host = aliasOf(host, hostAliases) ?? host;
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
  if (IPV4.test(host) || host.includes(':')) return host;
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
  if (typeof host !== 'string' || host.length === 0) return false;
  if (host.startsWith('[') && host.endsWith(']')) return isLocalIpv6(host.slice(1, -1));
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '0.0.0.0' || isLocalIpv6(host)) return true;
  return LOCAL_PREFIXES.some((prefix) => prefix.test(host));
}

/**
 * The URL parser's fast path: an `http(s)://` URL in the spelling the WHATWG
 * parser would give back unchanged is read with a few scans of its characters,
 * no parse and no pattern. Most URLs a model writes are spelled so; the rest
 * go to `new URL`. url-fuzz in the tests holds the two readings equal.
 */

/** The three parts of a parsed URL the identity reads. */
export interface Parts {
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
}

const IN_PATH = 1;
const IN_QUERY = 2;
/**
 * ASCII the parser keeps as it is: in a path letters, digits and
 * `-._~!$&()*+,;=:@/`; in a query those, `?` and `%`. Nothing to
 * percent-encode, no backslash or quote; `%` not in a path, where `%2e` is a dot.
 */
const KEPT: Uint8Array = (() => {
  const kept = new Uint8Array(128);
  for (let code = 0; code < 128; code += 1) {
    if (isAlnum(code) || "-._~!$&()*+,;=:@/".includes(String.fromCharCode(code))) kept[code] = IN_PATH | IN_QUERY;
  }
  kept[0x3f] = IN_QUERY;
  kept[0x25] = IN_QUERY;
  return kept;
})();

function isAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** Whether `text[from, to)` holds only characters `KEPT` marks with `part`. */
function isKept(text: string, from: number, to: number, part: number): boolean {
  for (let at = from; at < to; at += 1) {
    const code = text.charCodeAt(at);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the table has no entry past 127, and `undefined & part` is 0: refused alike
    if (code >= 128 || ((KEPT[code] as number) & part) === 0) return false;
  }
  return true;
}

/** Whether the path `text[from, to)` has a `.` or `..` segment, which the parser removes. */
function hasDotSegment(text: string, from: number, to: number): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a URL refused here goes to the parser, which reads it the same; `from` is past the scheme, never 0
  for (let at = text.indexOf('/.', from); at >= 0 && at < to; at = text.indexOf('/.', at + 1)) {
    let end = at + 2;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a URL refused here goes to the parser, which reads it the same
    if (end < to && text.charCodeAt(end) === 0x2e) end += 1;
    if (end === to || text.charCodeAt(end) === 0x2f) return true;
  }
  return false;
}

/** Whether the label at `at` starts with `xn--`, in any case (the parser decodes those). */
function isPunycodeLabel(host: string, at: number): boolean {
  return (host.charCodeAt(at) | 0x20) === 0x78 && (host.charCodeAt(at + 1) | 0x20) === 0x6e && host.startsWith('--', at + 2);
}

/**
 * A DNS name the URL parser only lowercases: labels of letters, digits and
 * inner hyphens, optionally a trailing dot; no `xn--` label (punycode is
 * checked) and no number or `0x…` as the last label (it would be read as IPv4).
 */
function isPlainHost(host: string): boolean {
  const end = host.endsWith('.') ? host.length - 1 : host.length;
  let label = 0;
  let last = 0;
  let digitsOnly = true;
  for (let at = 0; at <= end; at += 1) {
    if (at === end || host.charCodeAt(at) === 0x2e) {
      // An empty label fails the first test: a dot or the end of the host is where its first character would be.
      if (!isAlnum(host.charCodeAt(label)) || !isAlnum(host.charCodeAt(at - 1))) return false;
      if (isPunycodeLabel(host, label)) return false;
      last = label;
      label = at + 1;
      if (at < end) digitsOnly = true;
      continue;
    }
    const code = host.charCodeAt(at);
    if (code !== 0x2d && !isAlnum(code)) return false;
    if (code < 0x30 || code > 0x39) digitsOnly = false;
  }
  // Stryker disable next-line ConditionalExpression: a host refused here goes to the parser, which reads it the same
  return !digitsOnly && !(host.charCodeAt(last) === 0x30 && (host.charCodeAt(last + 1) | 0x20) === 0x78);
}

/** An IPv4 address as the parser writes it: four decimal numbers up to 255, none with a leading zero. */
function isCanonicalIpv4(host: string): boolean {
  let parts = 0;
  let digits = 0;
  let value = 0;
  for (let at = 0; at <= host.length; at += 1) {
    const code = host.charCodeAt(at);
    if (code >= 0x30 && code <= 0x39) {
      // A second digit after a leading 0 is an octal or padded spelling the parser rewrites.
      if (digits === 1 && value === 0) return false;
      digits += 1;
      value = value * 10 + code - 0x30;
      if (value > 255) return false;
      continue;
    }
    // Past the end (NaN) or a dot closes a part; anything else is no address.
    if ((code !== 0x2e && at < host.length) || digits === 0) return false;
    parts += 1;
    digits = 0;
    value = 0;
  }
  return parts === 4;
}

/**
 * The host of `host[:port]` when the port is one the parser takes (up to five
 * digits, at most 65535, or none) and drops from the hostname; else `null`.
 */
function withoutPort(authority: string): string | null {
  const colon = authority.indexOf(':');
  // Stryker disable next-line EqualityOperator: a host that starts with `:` is empty, which no test below passes
  if (colon < 0) return authority;
  // Stryker disable next-line ConditionalExpression: a bound: a longer port of digits is over 65535 or, padded with zeros, the parser's own reading
  if (authority.length - colon - 1 > 5) return null;
  let value = 0;
  for (let at = colon + 1; at < authority.length; at += 1) {
    const code = authority.charCodeAt(at);
    if (code < 0x30 || code > 0x39) return null;
    value = value * 10 + code - 0x30;
  }
  return value <= 65535 ? authority.slice(0, colon) : null;
}

/**
 * The parts `new URL` would give, read directly for the common spelling:
 * `http(s)://`, a plain DNS name or an IPv4 address as the parser writes it,
 * a port or none, no user, a path and query that need no encoding or
 * dot-segment removal. Anything else is `null` and goes to the URL parser.
 */
export function plainUrl(text: string): Parts | null {
  const start = text.startsWith('https://') ? 8 : text.startsWith('http://') ? 7 : 0;
  if (start === 0) return null;
  const hash = text.indexOf('#', start);
  const end = hash === -1 ? text.length : hash;
  const question = text.indexOf('?', start);
  // Stryker disable next-line EqualityOperator: a `?` is never where the `#` or the end of the text is
  const queryAt = question !== -1 && question < end ? question : end;
  const slash = text.indexOf('/', start);
  // Stryker disable next-line EqualityOperator: a `/` is never where the `?`, the `#` or the end of the text is
  const pathAt = slash !== -1 && slash < queryAt ? slash : queryAt;
  const host = withoutPort(text.slice(start, pathAt));
  if (host === null || !(isPlainHost(host) || isCanonicalIpv4(host))) return null;
  if (!isKept(text, pathAt, queryAt, IN_PATH) || hasDotSegment(text, pathAt, queryAt)) return null;
  // Without a query, queryAt is end and the query is empty.
  // Stryker disable next-line ArithmeticOperator: the `?` and the character before it are kept in a query too
  if (!isKept(text, queryAt + 1, end, IN_QUERY)) return null;
  return {
    hostname: host.toLowerCase(),
    pathname: pathAt === queryAt ? '/' : text.slice(pathAt, queryAt),
    search: queryAt + 1 >= end ? '' : text.slice(queryAt, end),
  };
}

// Seeded differential check against the 0.5.2 reference (the oracle): thousands of
// realistic commands, URLs and JSON-like values must come out identical. The
// deliberate differences on ordinary input are decision P3 (bracketed local IPv6),
// checked aside below, and P9 (volatile flags belong to curl and wget), which the
// reference copy loaded here carries as its oracle patch (test/parity/oracle.ts).
// Besides the hand-written lists below, the words come from the tables both sides
// key on (test/support/vocabulary.ts): every volatile flag, wrapper, sink, operator,
// tracking key and local range of either side is generated, so dropping one anywhere
// is a mismatch here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../src/lib/shell/tokenize.js';
import { extractUrls, normUrl, isLocalHost, siteOf } from '../../src/lib/call/url.js';
import { firstVerb, stripVolatileFlags, extractSink, isGenericSink } from '../../src/lib/shell/command.js';
import { canonical, canonicalIterative, stripDecoys } from '../../src/lib/call/canonical.js';
import { loadOracleModule } from '../parity/oracle.js';
import { mulberry32 } from '../support/prng.js';
import { localishHost, trackingKey, VOCABULARY, volatileWord, wrapperWords } from '../support/vocabulary.js';

// The reference's package `exports` hides lib/, so it is loaded by file URL (test-only).
interface Reference {
  tokenize(command: string): string[];
  extractUrls(command: unknown): string[];
  normUrl(raw: unknown, aliases?: Record<string, string>): unknown;
  isLocalHost(host: unknown): boolean;
  firstVerb(command: string): string;
  stripVolatileFlags(command: string): string;
  extractSink(command: string): string | null;
  canonical(value: unknown): string;
  omitIgnored(name: string, args: unknown, ignoreArgs?: Record<string, string[]>): Record<string, unknown>;
}
interface ReferenceFingerprints {
  isGenericSink(sink: unknown): boolean;
}
const refBase = new URL('../../node_modules/reference-breaker/lib/', import.meta.url);
const ref = await loadOracleModule<Reference>('lib/normalize.js', ['P9']);
const refFp = (await import(new URL('fingerprints.js', refBase).href)) as ReferenceFingerprints;

const SEED = 0x5eed_2025;
const COMMANDS = 6000;
const URLS = 4000;
const VALUES = 3000;

const random = mulberry32(SEED);
const int = (n: number): number => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
const chance = (p: number): boolean => random() < p;

const HOST_ALIASES = {
  'open-data.canada.ca': 'open.canada.ca',
  'www.open.canada.ca': 'open.canada.ca',
  'www.open-data.canada.ca': 'open.canada.ca',
  'Foo.com': 'bar.com',
  'alias.example': 'Target.Example',
  'empty.example': '',
};

const HOSTS = [
  'example.com',
  'Example.COM',
  'www.example.com',
  'www.www.example.com',
  'example.com.',
  'a.b.c.example.co.uk',
  'open-data.canada.ca',
  'open.canada.ca',
  'www.open.canada.ca',
  'www.open-data.canada.ca',
  'alias.example',
  'empty.example',
  'Foo.com',
  'a.com',
  'x.example.com',
  '127.0.0.1',
  '127',
  '10.0.0.5',
  '192.168.111.90',
  '172.16.0.1',
  '172.32.0.1',
  '169.254.1.1',
  '0.0.0.0',
  '100.64.0.1',
  'localhost',
  'api.localhost',
  'LOCALHOST',
  '127.example.com',
  '[::1]',
  '[fe80::1]',
  '[fd00::1]',
  '[2001:db8::1]',
  '[0:0:0:0:0:0:0:1]',
  'bücher.example',
  'xn--bcher-kva.example',
  'münchen.de',
  'a..b.c',
  '0x7f.1',
  '1.2.3.4.5',
  'host_with_underscore.io',
  'x',
];
const PATHS = ['', '/', '/a', '/a/', '/a//', '/a/b/', '/A/B', '/%20x', '/ü', '/a.b', '/a;b', '/a/./b/../c', '//', '/x)', '/[y]'];
const QUERIES = [
  '',
  '?',
  '?q=1',
  '?b=2&a=1&a=0',
  '?utm_source=x&fbclid=1&_ga=5&UTM_Medium=8&utm=9',
  '?a=%20b&c=d+e',
  '?flag',
  '?page=2',
  '?=x',
  '?&&',
  '?gclid=1&msclkid=2&mc_eid=3&ref_src=4&igshid=5&keep=6',
  '?utm_=1',
  '?UTM_X=1',
  '?é=ü',
];
const TAILS = ['', '', '', '.', ',', ')', ').', '...', '!?', ']', '}', ':', ';', "'", '"', '#frag', '>'];

/** A query with a key some tracking pattern (ours or the reference's) matches, or nearly matches. */
function trackingQuery(): string {
  return `?${trackingKey(random)}=1&keep=${int(3)}${chance(0.3) ? `&${trackingKey(random)}=2` : ''}`;
}

/** A host from the lists, or one drawn from the locality tables. */
function genHost(): string {
  if (!chance(0.15)) return pick(HOSTS);
  const host = localishHost(random);
  // An IPv6 address is written in brackets in a URL.
  return host.includes(':') && chance(0.7) ? `[${host}]` : host;
}

function genUrl(): string {
  const scheme = pick(['https://', 'http://', 'https://', 'HTTP://', 'ftp://', '', 'foo://']);
  const user = chance(0.08) ? pick(['user:pw@', 'u@', ':@']) : '';
  const port = chance(0.15) ? pick([':443', ':80', ':8080', ':18999', ':']) : '';
  const query = chance(0.2) ? trackingQuery() : pick(QUERIES);
  return scheme + user + genHost() + port + pick(PATHS) + query + (chance(0.1) ? '#f' : '');
}

const PREFIXES = [
  '',
  '',
  'FOO=1 ',
  'A=1 B_2=x ',
  'sudo ',
  'sudo -u root ',
  'timeout 30 ',
  'timeout --signal=KILL 30s ',
  'timeout -s KILL 30 ',
  'nice -n 10 ',
  'env A=1 ',
  'command -v ',
  'nohup ',
  'doas ',
  'exec ',
  'time ',
  'FOO=1 sudo timeout 5 ',
  'timeout 2.5 timeout 1m ',
  'sudo -u ',
  'env -i ',
  '_X=1 ',
  '1A=2 ',
];
const VERBS = [
  'curl',
  'curl',
  'wget',
  '/usr/bin/curl',
  'C:\\tools\\Curl.EXE',
  './run.sh',
  'python3 x.py',
  'ls',
  'http',
  'echo',
  'cat',
  'cd /w &&',
  '(curl',
  'Curl',
  'httpie',
  'tee',
  '',
];
const FLAGS = [
  '-s',
  '-S',
  '-sSL',
  '-sSLfk',
  '-sv',
  '-m60',
  '-m 60',
  '-m',
  '-A"UA"',
  '-A1',
  '--max-time=5',
  '--max-time 60',
  '--connect-timeout 5',
  '--retry 3',
  '--retry-delay=2',
  '--user-agent "x y"',
  '--silent',
  '--fail',
  '--location',
  '--insecure',
  '--compressed',
  '--no-progress-meter',
  '-o out.bin',
  '-o -',
  '-o',
  '-O',
  '-O file.bin',
  '--output=c.json',
  '--output "./d.html"',
  '--output-document d.html',
  '-X POST',
  "--data 'a=1'",
  "-H 'Accept: a b'",
  '-w "%{http_code}"',
  '-k',
  '-L',
  '-f',
  '-v',
  '--Max-Time=3',
  '--max_time=3',
  '-m=5',
  '-mx',
];
const REDIRECTS = [
  '> out.txt',
  '>> /tmp/log',
  '>out.bin',
  '>>/tmp/out.bin',
  '>>>x',
  '2>/dev/null',
  '2> err',
  '&> log.txt',
  '| tee -a ./out.bin',
  '| tee a.txt b.txt',
  '| tee',
  '| tee -a',
  '; echo b > y',
  '&& echo ok',
  '|| true',
  '| head',
  '< in.txt',
  '> ././res.txt',
  "> 'q.txt'",
  '> "./x y"',
  '> /dev/null',
  '> -',
  '> |',
  '> &',
  "> ''",
  '> "."',
];
const NOISE = [
  '\\',
  "'",
  '"',
  '\\ ',
  '\t',
  '\n',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\ufeff',
  '`',
  '<',
  '>',
  '|',
  ';',
  '&',
  '(',
  ')',
  'é',
  '\ud83d\ude00',
  '\ud800',
];

function quoteWord(word: string): string {
  switch (int(8)) {
    case 0:
      return `'${word}'`;
    case 1:
      return `"${word}"`;
    case 2:
      return word.replace(/([ :/])/g, '\\$1');
    case 3:
      return `"${word.replace(/"/g, '\\"')}"`;
    default:
      return word;
  }
}

/** Where a command writes, drawn from the generic sinks and shell operators of both sides. */
function sinkWords(): string {
  const sink = pick(VOCABULARY.genericSinks);
  const operator = pick(VOCABULARY.shellOperators);
  return pick([`-o ${sink}`, `> ${sink}`, `>${sink}`, `| tee ${sink}`, `> ${operator} x`, `| tee a.txt ${operator} b.txt`, `-O ${sink}`]);
}

function genCommand(): string {
  const parts: string[] = [(chance(0.3) ? wrapperWords(random) : '') + pick(PREFIXES) + pick(VERBS)];
  const n = 1 + int(6);
  for (let i = 0; i < n; i += 1) {
    const roll = int(10);
    if (roll < 4) parts.push(chance(0.5) ? pick(FLAGS) : volatileWord(random));
    else if (roll < 5 && chance(0.3)) parts.push(sinkWords());
    else if (roll < 7) parts.push(quoteWord(`${pick(['', '', '(', '<', '"', "'"])}${genUrl()}${pick(TAILS)}`));
    else if (roll < 9) parts.push(pick(REDIRECTS));
    else parts.push(pick(NOISE) + pick(FLAGS));
  }
  let command = parts.join(pick([' ', ' ', '  ', '\t']));
  if (chance(0.15)) {
    const at = int(command.length + 1);
    command = command.slice(0, at) + pick(NOISE) + command.slice(at);
  }
  if (chance(0.05)) command = ` ${command} `;
  return command;
}

function genString(): string {
  const pool = ['a', 'b', 'Z', ' ', '"', '\\', '\n', 'é', '\u2028', '\ud83d\ude00', '\ud800', '\u0000', '1st', 'x'];
  let out = '';
  for (let i = int(6); i > 0; i -= 1) out += pick(pool);
  return out;
}
const KEYS = [
  'a',
  'b',
  'B',
  '_',
  '10',
  '9',
  '01',
  '0',
  '-1',
  '1.5',
  '4294967294',
  '4294967295',
  'é',
  'Z',
  'description',
  'timeoutMs',
  'reason',
  'command',
  'value',
  '',
  ' ',
  'toString',
  'constructor',
];

function genValue(depth: number): unknown {
  const roll = int(depth > 3 ? 6 : 10);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return chance(0.5);
    case 2:
      return pick([0, -0, 1, -1.5, 1e21, 1e-7, 2 ** 53, NaN, Infinity, -Infinity, 0.1 + 0.2]);
    case 3:
    case 4:
      return genString();
    case 5:
      return pick([undefined, () => 1, Symbol('s'), 'plain']);
    case 6:
    case 7: {
      const items: unknown[] = [];
      for (let i = int(4); i > 0; i -= 1) items.push(genValue(depth + 1));
      return items;
    }
    default: {
      const obj: Record<string, unknown> = {};
      for (let i = int(5); i > 0; i -= 1) obj[pick(KEYS)] = genValue(depth + 1);
      return obj;
    }
  }
}

const IGNORE_ARGS: Record<string, string[]> = {
  '*': ['description', 'timeoutMs', 'run_in_background', 'justification', 'reason', 'title', 'comment'],
  bash: ['description', 'timeoutMs', 'run_in_background', 'justification'],
  edit: ['value', '10'],
};

/** P3: the only place the port answers differently on an ordinary host. */
function expectedLocal(host: string): boolean {
  if (host.startsWith('[') && host.endsWith(']')) {
    const inner = host.slice(1, -1);
    return inner === '::1' || inner === '0:0:0:0:0:0:0:1' || /^(?:f[cd][0-9a-f]{2}|fe80):/i.test(inner);
  }
  return ref.isLocalHost(host);
}

let cases = 0;
const check = (actual: unknown, expected: unknown, what: string, input: unknown): void => {
  cases += 1;
  assert.deepEqual(actual, expected, `${what} differs on ${JSON.stringify(input)}`);
};

test(`commands: ${COMMANDS} seeded shell commands match the reference`, () => {
  for (let k = 0; k < COMMANDS; k += 1) {
    const command = genCommand();
    check(tokenize(command), ref.tokenize(command), 'tokenize', command);
    check(firstVerb(command), ref.firstVerb(command), 'firstVerb', command);
    check(stripVolatileFlags(command), ref.stripVolatileFlags(command), 'stripVolatileFlags', command);
    const sink = extractSink(command);
    check(sink, ref.extractSink(command), 'extractSink', command);
    check(isGenericSink(sink), refFp.isGenericSink(sink), 'isGenericSink', sink);
    const urls = extractUrls(command);
    check(urls, ref.extractUrls(command), 'extractUrls', command);
    for (const raw of urls) check(normUrl(raw, HOST_ALIASES), ref.normUrl(raw, HOST_ALIASES), 'normUrl', raw);
  }
});

test(`urls: ${URLS} seeded URLs and hosts match the reference (P3 aside)`, () => {
  for (let k = 0; k < URLS; k += 1) {
    const raw = pick(['', ' ', '\t']) + genUrl() + pick(TAILS);
    const aliases = chance(0.5) ? HOST_ALIASES : undefined;
    const ours = normUrl(raw, aliases);
    check(ours, ref.normUrl(raw, aliases), 'normUrl', raw);
    if (ours !== null) {
      check(siteOf(ours.host), ours.site, 'siteOf', ours.host);
      check(isLocalHost(ours.host), expectedLocal(ours.host), 'isLocalHost', ours.host);
    }
    const host = chance(0.5) ? pick(HOSTS) : localishHost(random);
    check(isLocalHost(host), expectedLocal(host), 'isLocalHost', host);
    check(isLocalHost(host.toLowerCase()), expectedLocal(host.toLowerCase()), 'isLocalHost', host);
  }
});

test(`values: ${VALUES} seeded JSON-like values canonicalise like the reference`, () => {
  for (let k = 0; k < VALUES; k += 1) {
    const value = genValue(0);
    check(canonical(value), ref.canonical(value), 'canonical', value);
    // The fast recursive path and the iterative writer must never disagree.
    check(canonicalIterative(value), canonical(value), 'canonicalIterative', value);
    const name = pick(['bash', 'edit', 'x', '*']);
    check(canonical(stripDecoys(name, value, IGNORE_ARGS)), ref.canonical(ref.omitIgnored(name, value, IGNORE_ARGS)), 'stripDecoys', value);
    // JSON.parse defines `__proto__` as an own key: both sides must treat it alike.
    const parsed: unknown = JSON.parse(`{"__proto__":${JSON.stringify(genString())},"a":1}`);
    check(canonical(parsed), ref.canonical(parsed), 'canonical', parsed);
    check(canonicalIterative(parsed), canonical(parsed), 'canonicalIterative', parsed);
    check(
      canonical(stripDecoys(name, parsed, IGNORE_ARGS)),
      ref.canonical(ref.omitIgnored(name, parsed, IGNORE_ARGS)),
      'stripDecoys',
      parsed,
    );
  }
});

test('words of many runs (a quote or an escape every few characters) split like the reference', () => {
  // The tokenizer slices a word of one run, joins a few, and copies out past 64 runs: cross those sizes.
  const pieces = ['a', 'bc', '"x y"', "'q r'", '\\ ', '\\"', '\\\\', '""', "''", '"a\\"b"', 'é', '\u2028'];
  for (let k = 0; k < 2_000; k += 1) {
    const count = 1 + Math.floor(random() * (k % 10 === 0 ? 400 : 80));
    let command = '';
    for (let i = 0; i < count; i += 1) command += pick(pieces) + (chance(0.05) ? ' ' : '');
    check(tokenize(command), ref.tokenize(command), 'tokenize', command);
  }
});

test('the tokenizer splits on exactly the characters JavaScript calls \\s', () => {
  for (let code = 0; code < 0x10000; code += 1) {
    const text = `a${String.fromCharCode(code)}b`;
    check(tokenize(text), ref.tokenize(text), 'tokenize', text);
    check(
      extractUrls(`http://x${String.fromCharCode(code)}`),
      ref.extractUrls(`http://x${String.fromCharCode(code)}`),
      'extractUrls',
      code,
    );
  }
});

test('report', () => {
  assert.ok(cases > 50_000, `only ${cases} differential cases`);
  console.log(`# differential cases compared: ${cases}`);
});

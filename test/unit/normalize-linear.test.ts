// Decision P5: nothing a model sends makes the normalize modules throw or go
// superlinear. Timing is ratio-based (n versus 8n, best of three) so it holds on
// slow machines: a quadratic scan would be ~64x slower, a linear one ~8x. It uses
// process CPU time, not wall time, so a busy machine that deschedules us does not count.
// Shapes that make many words stay under ~16k words at 8n: past that V8 moves the word
// array to large-object pages, a one-off step in cost that is not superlinear growth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../src/lib/shell/tokenize.js';
import { extractUrls, normUrl, isLocalHost, siteOf } from '../../src/lib/call/url.js';
import { firstVerb, stripVolatileFlags, extractSink, isGenericSink } from '../../src/lib/shell/command.js';
import { canonical, stripDecoys } from '../../src/lib/call/canonical.js';

function bestOf3(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i += 1) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** Times `work(make(n))` against `work(make(8n))` and asserts a linear-looking ratio. */
function assertLinear(name: string, n: number, make: (n: number) => unknown, work: (input: unknown) => void): void {
  test(`linear: ${name}`, () => {
    const small = make(n);
    const large = make(8 * n);
    work(small); // warm-up, so the JIT is not timed
    // Up to three attempts at the same bound: a collection can land in one attempt; a quadratic scan fails all three.
    const seen: string[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const tSmall = bestOf3(() => work(small));
      const tLarge = bestOf3(() => work(large));
      seen.push(`t(n)=${tSmall.toFixed(2)}ms, t(8n)=${tLarge.toFixed(2)}ms`);
      if (tLarge < 8 * tSmall * 4 + 20) return;
    }
    assert.fail(`${name}: ${seen.join(' | ')}`);
  });
}

const commandFns = (input: unknown): void => {
  const text = input as string;
  tokenize(text);
  firstVerb(text);
  stripVolatileFlags(text);
  extractSink(text);
  extractUrls(text);
};

const N = 20_000;
assertLinear('a run of backslashes', 20_000, (n) => '\\'.repeat(n), commandFns);
assertLinear('backslash-escaped spaces', 8_000, (n) => 'a\\ '.repeat(n), commandFns);
assertLinear('an unbalanced double quote', 4_000, (n) => `curl "${'a \\" '.repeat(n)}`, commandFns);
assertLinear('an unbalanced single quote', 8_000, (n) => `echo '${'b\\ '.repeat(n)}`, commandFns);
assertLinear('alternating quotes', 8_000, (n) => `"a'`.repeat(n), commandFns);
assertLinear('punctuation after a URL', N, (n) => `curl https://a.com/${'.'.repeat(n)}`, commandFns);
assertLinear('punctuation runs inside a URL', N, (n) => `curl https://a.com/${'.,;)'.repeat(n)}x`, commandFns);
assertLinear('many URLs', 1_250, (n) => Array.from({ length: n }, (_, i) => `https://h${i}.example.com/p?i=${i}`).join(' '), commandFns);
assertLinear('many scheme-like fragments', 8_000, (n) => 'http:/https:/'.repeat(n), commandFns);
assertLinear('tee with many dash words', 800, (n) => `tee ${'-a '.repeat(n)}| tee ${'-b '.repeat(n)}`, commandFns);
assertLinear('a sink of many ./', N, (n) => `echo > ${'./'.repeat(n)}x`, commandFns);
assertLinear('wrappers and assignments', 250, (n) => `${'A=1 sudo -u r timeout --k 5 '.repeat(n)}curl`, commandFns);
assertLinear('a long word with no =', N, (n) => 'A'.repeat(n * 4), commandFns);
assertLinear(
  'normUrl on many trailing slashes',
  N,
  (n) => `https://a.com/${'/'.repeat(n)}x${'/'.repeat(n)}`,
  (u) => normUrl(u),
);
assertLinear(
  'normUrl on a long host',
  N,
  (n) => `https://${'a'.repeat(n)}.com/`,
  (u) => normUrl(u),
);
assertLinear(
  'normUrl on a long query',
  1_000,
  (n) => `https://a.com/?${Array.from({ length: n }, (_, i) => `utm_${i}=1&k${i}=${i}`).join('&')}`,
  (u) => normUrl(u),
);
assertLinear(
  'isLocalHost and siteOf on a long host',
  N,
  (n) => `127.${'a.'.repeat(n)}com`,
  (h) => {
    isLocalHost(h);
    siteOf(h as string);
  },
);

function deepArray(depth: number): unknown {
  let node: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) node = [node, i];
  return node;
}
function deepObject(depth: number): unknown {
  let node: unknown = { leaf: true };
  for (let i = 0; i < depth; i += 1) node = { z: node, a: i };
  return node;
}
assertLinear('canonical on deep arrays', 4_000, deepArray, (v) => canonical(v));
assertLinear('canonical on deep objects', 2_500, deepObject, (v) => canonical(v));

test('canonical handles 100,000 levels of arrays and of objects, and mixed nesting', () => {
  const arrays = canonical(deepArray(100_000));
  assert.ok(arrays.startsWith('[[[[') && arrays.endsWith(',99999]'), 'deep arrays serialise in full');
  const objects = canonical(deepObject(100_000));
  assert.ok(objects.startsWith('{"a":99999,"z":{"a":99998,'), 'deep objects serialise in full, keys sorted');
  let mixed: unknown = null;
  for (let i = 0; i < 20_000; i += 1) mixed = i % 2 === 0 ? [mixed] : { k: mixed };
  const both = canonical(mixed);
  assert.ok(both.startsWith('{"k":[{"k":[') && both.includes('{"k":[null]}]}') && both.endsWith(']}]}'), 'mixed nesting');
});

test('canonical: cycles, shared nodes, BigInt, symbols, functions, toJSON', () => {
  const shared = { x: 1 };
  assert.equal(canonical({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
  const loop: unknown[] = [];
  loop.push(loop, { back: loop });
  assert.equal(canonical(loop), '["[cycle]",{"back":"[cycle]"}]');
  assert.equal(canonical(10n), '"10n"');
  assert.equal(canonical({ n: -3n, s: Symbol('x'), f: () => 1, u: undefined }), '{"n":"-3n"}');
  assert.equal(canonical([Symbol('x'), () => 1, undefined, 1n]), '[null,null,null,"1n"]');
  assert.equal(canonical(Symbol('x')), 'null');
  assert.equal(
    canonical(() => 1),
    'null',
  );
  assert.equal(canonical(undefined), 'null');
  assert.equal(canonical({ toJSON: () => 'called', a: 1 }), '{"a":1}');
  assert.equal(canonical({ toJSON: 'kept' }), '{"toJSON":"kept"}');
});

const throwingGetter = Object.defineProperty({ ok: 1 }, 'bad', {
  enumerable: true,
  get() {
    throw new Error('getter');
  },
});
const throwingKeys = new Proxy(
  {},
  {
    ownKeys() {
      throw new Error('ownKeys');
    },
  },
);
const throwingGet = new Proxy(
  { a: 1, b: 2 },
  {
    get() {
      throw new Error('get');
    },
  },
);
const { proxy: revoked, revoke } = Proxy.revocable({ a: 1 }, {});
revoke();

test('canonical: unreadable members and objects', () => {
  assert.equal(canonical(throwingGetter), '{"bad":"[unreadable]","ok":1}');
  assert.equal(canonical({ x: throwingKeys }), '{"x":"[unreadable]"}');
  assert.equal(canonical(throwingGet), '{"a":"[unreadable]","b":"[unreadable]"}');
  assert.equal(canonical([revoked]), '["[unreadable]"]');
  assert.equal(canonical(revoked), '"[unreadable]"');
});

test('stripDecoys: hostile arguments and tables never throw', () => {
  const table = { '*': ['reason'], bash: ['description'] };
  assert.deepEqual(stripDecoys('bash', throwingGetter, table), { ok: 1 });
  assert.deepEqual(stripDecoys('bash', throwingKeys, table), {});
  assert.deepEqual(stripDecoys('bash', throwingGet, table), {});
  assert.deepEqual(stripDecoys('bash', revoked, table), {});
  assert.deepEqual(stripDecoys('constructor', { a: 1 }, table), { a: 1 });
  assert.deepEqual(stripDecoys('__proto__', { a: 1 }, table), { a: 1 });
  const hostileTable = throwingKeys as unknown as Record<string, string[]>;
  assert.deepEqual(stripDecoys('bash', { a: 1, reason: 2 }, hostileTable), { a: 1, reason: 2 });
  assert.deepEqual(stripDecoys('bash', { a: 1 }, null as unknown as Record<string, string[]>), { a: 1 });
  assert.deepEqual(stripDecoys('x', 5, { '*': ['value'] }), {});
});

test('every function answers non-strings and odd values without throwing', () => {
  const odd: unknown[] = [undefined, null, 42, 10n, true, {}, [], Symbol('s'), () => 1, throwingKeys, revoked, throwingGetter];
  for (const value of odd) {
    const text = value as string;
    assert.deepEqual(tokenize(text), []);
    assert.equal(firstVerb(text), '');
    assert.equal(stripVolatileFlags(text), '');
    assert.equal(extractSink(text), null);
    assert.deepEqual(extractUrls(value), []);
    assert.equal(normUrl(value), null);
    assert.equal(normUrl('https://a.com/', value as Record<string, string>)?.host, 'a.com');
    assert.equal(isLocalHost(value), false);
    assert.equal(siteOf(text), '');
    assert.equal(isGenericSink(value), true);
    assert.equal(typeof canonical(value), 'string');
  }
  assert.equal(normUrl('https://a.com/', throwingGet as unknown as Record<string, string>)?.host, 'a.com');
});

test('normUrl stays fast on a 10 MB string and a 100,000-character host', () => {
  const start = process.cpuUsage();
  assert.equal(normUrl(`https://a.com/${'a'.repeat(10_000_000)}`)?.host, 'a.com');
  assert.equal(normUrl(`https://a.com/${'/'.repeat(1_000_000)}`)?.path, '/');
  const longHost = `${'h'.repeat(100_000)}.com`;
  assert.equal(normUrl(`https://www.${longHost}./x`)?.site, longHost);
  assert.deepEqual(extractUrls(`https://a.com/x${')'.repeat(1_000_000)}`), ['https://a.com/x']);
  const used = process.cpuUsage(start);
  assert.ok((used.user + used.system) / 1000 < 2_000, `normUrl used ${(used.user + used.system) / 1000} ms of CPU`);
});

/**
 * The edges of the `exact:` argument identity (contract §2.4): key order
 * (index-like keys, keys that only look numeric), silent values, cycles and
 * shared nodes, read by both writers (the fast native path and the iterative
 * one) against the adjusted oracle, and the decoy table read against its
 * `omitIgnored`. Where 0.5.2 throws or calls user code (BigInt, `toJSON`,
 * throwing getters, Proxies, deep nesting), the expectation is ours, by
 * decision P5 (docs/deviations.md), and the test name says so.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { argumentsJson, canonical, canonicalIterative, decoysFor, decoysOf, flatJson, stripDecoys, withoutDecoys } from '../../src/lib/call/canonical.js';
import { loadOracleModule } from '../parity/oracle.js';

interface OracleNormalize {
  canonical(value: unknown): string;
  omitIgnored(name: string, args: unknown, ignoreArgs?: Record<string, readonly (string | number)[]>): Record<string, unknown>;
}
const ref = await loadOracleModule<OracleNormalize>('lib/normalize.js');

type Table = Readonly<Record<string, readonly string[]>>;

/** Nests a value past the fast path's depth, so only the iterative writer writes it (shallow enough for the oracle's recursion). */
function deep(value: unknown, levels = 600): unknown {
  let node = value;
  for (let i = 0; i < levels; i += 1) node = i % 2 === 0 ? [node] : { k: node };
  return node;
}

/** Both writers, directly, nested and nested past the fast path, against the oracle. */
function agrees(value: unknown, label: string): void {
  const expected = ref.canonical(value);
  assert.equal(canonical(value), expected, `canonical: ${label}`);
  assert.equal(canonicalIterative(value), expected, `canonicalIterative: ${label}`);
  assert.equal(canonical({ m: value, n: [value] }), ref.canonical({ m: value, n: [value] }), `nested: ${label}`);
  assert.equal(canonical(deep(value)), ref.canonical(deep(value)), `deep: ${label}`);
}

/** Throws when read. */
const boom = (): never => {
  throw new Error('boom');
};

const NUMERIC_LOOKING = ['', '-1', ' 1', '\t1', '\u00a01', '\ufeff5', '1 ', '1\u00a0', '01', '0', '1', '9', '10', '19', '90', '1.5', '1e3', '4294967294', '4294967295', '10000000000', 'a', 'B', '_', 'é'];

test('index-like keys come first in numeric order and the rest by code unit, as the reference writes them', () => {
  // Inserted in reverse, so an unsorted copy shows.
  const obj: Record<string, unknown> = {};
  for (const key of [...NUMERIC_LOOKING].reverse()) obj[key] = key.length;
  agrees(obj, 'numeric-looking keys');
  assert.equal(flatJson(obj), ref.canonical(obj));
  // Each key beside the ones it could be confused with, one pair at a time.
  for (const key of NUMERIC_LOOKING) {
    for (const other of ['0', '1', '9', '10', '', '-1', 'a']) {
      if (key === other) continue;
      const pair = { [other]: 1, [key]: 2, z: 3, '!': 4 };
      agrees(pair, `keys ${JSON.stringify(key)} and ${JSON.stringify(other)}`);
      assert.equal(flatJson(pair), ref.canonical(pair));
    }
  }
});

test('a Proxy listing its keys out of order is written in the reference order, index-like keys by number', () => {
  const values: Record<string, number> = { 10: 1, 2: 2, b: 3, a: 4, 0: 5, 4294967294: 6, 4294967295: 7 };
  const listed = ['b', '10', '4294967295', '2', 'a', '4294967294', '0'];
  const proxy = new Proxy(
    {},
    {
      ownKeys: () => listed,
      getOwnPropertyDescriptor: (_target, key) => ({ value: values[key as string], enumerable: true, configurable: true }),
      get: (_target, key) => values[key as string],
    },
  );
  agrees(proxy, 'a proxy with shuffled keys');
  assert.equal(canonical(proxy), '{"0":5,"2":2,"10":1,"4294967294":6,"4294967295":7,"a":4,"b":3}');
});

test('a __proto__ own key (as JSON.parse makes it) is left out, as the reference drops it', () => {
  for (const json of ['{"__proto__":"x","a":1,"":2}', '{"__proto__":{"p":1},"b":[1]}', '{"__proto__":null}', '{"a":{"__proto__":1,"0":2}}']) {
    const parsed: unknown = JSON.parse(json);
    agrees(parsed, json);
  }
  assert.equal(canonical(JSON.parse('{"__proto__":"x","":2,"a":1}')), '{"":2,"a":1}');
});

test('undefined, functions and symbols vanish as members, are null as items and at the top, as in the reference', () => {
  const silent: unknown[] = [undefined, () => 1, Symbol('s'), Math.max];
  for (const value of silent) {
    agrees(value, String(value));
    agrees({ a: value, b: 1 }, `member ${String(value)}`);
    agrees({ b: 1, a: value }, `member ${String(value)} after another`);
    agrees([value, 1, value], `items ${String(value)}`);
    assert.equal(flatJson({ a: value, b: 1 }), '{"b":1}');
    assert.equal(flatJson({ a: value }), '{}');
  }
  assert.equal(canonical([undefined, () => 1, Symbol('s')]), '[null,null,null]');
  assert.equal(canonicalIterative({ a: undefined, b: Symbol('s'), c: () => 1 }), '{}');
  // Holes in an array read as undefined.
  agrees([1, , 3], 'a sparse array');
});

test('plain values are written as JSON writes them, at the top, as members and as items, like the reference', () => {
  const plain: unknown[] = ['', 'a"b\\c\n', '\ud800', 'é', 0, -0, 1.5, -1e21, 1e-7, NaN, Infinity, true, false, null];
  for (const value of plain) {
    agrees(value, String(value));
    agrees({ v: value }, `member ${String(value)}`);
    agrees([value, value], `items ${String(value)}`);
  }
  agrees({}, 'an empty object');
  agrees([], 'an empty array');
  agrees([[], {}, [[]], { a: {} }], 'empty containers');
  // Boxed primitives and other objects are read by their own enumerable keys only.
  agrees([new String('ab'), new Number(5), new Date(0), new Map([[1, 2]]), /x/g], 'boxed values, a Date, a Map, a RegExp');
  agrees(Object.assign([1, 2], { extra: 3 }), 'an array with a named member');
});

test('a node already on the current path is "[cycle]"; a shared node off the path is written each time, like the reference', () => {
  const shared = { x: [1], y: 'z' };
  agrees({ a: shared, b: shared, c: [shared, shared] }, 'a shared object');
  const self: Record<string, unknown> = { a: 1 };
  self.self = self;
  self.list = [self, { back: self }];
  agrees(self, 'an object reaching itself');
  const loop: unknown[] = [1];
  loop.push(loop, { inner: [loop] });
  agrees(loop, 'an array reaching itself');
  assert.equal(canonicalIterative(self), '{"a":1,"list":["[cycle]",{"back":"[cycle]"}],"self":"[cycle]"}');
  assert.equal(canonicalIterative(loop), '[1,"[cycle]",{"inner":["[cycle]"]}]');
  // Siblings after a closed frame: the path forgets a node once it is written.
  const leaf = [0];
  assert.equal(canonicalIterative([leaf, leaf, { a: leaf }]), '[[0],[0],{"a":[0]}]');
});

test('nesting past the fast path is written by the iterative writer as the reference writes it', () => {
  const value = { b: [1, { d: 'x', c: null }], a: undefined, s: Symbol('s') };
  for (const levels of [511, 512, 513, 514, 1_000]) {
    const nested = deep(value, levels);
    assert.equal(canonical(nested), ref.canonical(nested), `${levels} levels`);
    assert.equal(canonicalIterative(nested), ref.canonical(nested), `${levels} levels, iterative`);
  }
});

test('P5: BigInt is written as "<n>n" wherever it stands (0.5.2 throws)', () => {
  assert.equal(canonical(10n), '"10n"');
  assert.equal(canonical({ n: -3n, a: 'x' }), '{"a":"x","n":"-3n"}');
  assert.equal(flatJson({ n: -3n, a: 'x' }), '{"a":"x","n":"-3n"}');
  assert.equal(canonical({ a: { n: 0n } }), '{"a":{"n":"0n"}}');
  assert.equal(canonical([1n, { n: 2n }]), '["1n",{"n":"2n"}]');
  assert.equal(canonicalIterative([1n, { n: 2n }]), '["1n",{"n":"2n"}]');
  assert.equal(canonical(deep(5n, 3)), '[{"k":["5n"]}]');
  assert.equal(canonical(deep(5n, 600)), canonicalIterative(deep(5n, 600)));
  assert.ok(canonical(deep(5n, 600)).includes('"5n"'), 'a deeply nested BigInt is written as a string');
});

test('P5: no toJSON is ever called, not on a member, a function, nor one added to BigInt.prototype', () => {
  const calledFn = Object.assign(() => 1, { toJSON: () => 'called' });
  assert.equal(canonical({ toJSON: () => 'called', a: 1 }), '{"a":1}');
  assert.equal(canonical({ o: { toJSON: () => 'called', a: 1 } }), '{"o":{"a":1}}');
  assert.equal(canonical({ toJSON: 'kept' }), '{"toJSON":"kept"}');
  assert.equal(canonical(calledFn), 'null');
  assert.equal(canonical([calledFn, 1]), '[null,1]');
  assert.equal(canonical({ a: [calledFn] }), '{"a":[null]}');
  assert.equal(canonicalIterative([calledFn]), '[null]');
  const proto = BigInt.prototype as { toJSON?: () => string };
  proto.toJSON = () => 'called';
  try {
    assert.equal(canonical({ a: { n: 7n } }), '{"a":{"n":"7n"}}');
    assert.equal(canonical([7n]), '["7n"]');
    assert.equal(canonical({ n: 7n }), '{"n":"7n"}');
  } finally {
    delete proto.toJSON;
  }
});

test('P5: what cannot be read is "[unreadable]": a throwing getter, a throwing Proxy, a revoked one (0.5.2 throws)', () => {
  const getter = Object.defineProperty({ ok: 1 }, 'bad', { enumerable: true, get: boom });
  assert.equal(canonical(getter), '{"bad":"[unreadable]","ok":1}');
  assert.equal(canonical({ g: getter }), '{"g":{"bad":"[unreadable]","ok":1}}');
  const item = Object.defineProperty([1, 2], 0, { get: boom });
  assert.equal(canonical(item), '["[unreadable]",2]');
  assert.equal(canonicalIterative({ a: item }), '{"a":["[unreadable]",2]}');
  const noKeys = new Proxy({}, { ownKeys: boom });
  assert.equal(canonical({ x: noKeys, y: 1 }), '{"x":"[unreadable]","y":1}');
  assert.equal(canonical([noKeys, noKeys]), '["[unreadable]","[unreadable]"]');
  assert.equal(canonical(noKeys), '"[unreadable]"');
  const noGet = new Proxy({ a: 1, b: 2 }, { get: boom });
  assert.equal(canonical(noGet), '{"a":"[unreadable]","b":"[unreadable]"}');
  const { proxy: revoked, revoke } = Proxy.revocable({ a: 1 }, {});
  revoke();
  assert.equal(canonical(revoked), '"[unreadable]"');
  assert.equal(canonical({ r: revoked }), '{"r":"[unreadable]"}');
  assert.equal(canonicalIterative([revoked, 1]), '["[unreadable]",1]');
});

test('the fast path writes every object of plain values, exactly as the full writers do, and hands everything else over', () => {
  const flat = [{}, { command: 'ls -la', workdir: '/w' }, { a: null, b: true, c: 0, d: '', e: undefined, 1: 'x' }, { n: NaN, m: -0 }];
  for (const args of flat) {
    assert.equal(flatJson(args), canonicalIterative(args), JSON.stringify(args));
    assert.equal(flatJson(args), ref.canonical(args), JSON.stringify(args));
  }
  for (const other of [null, undefined, 'ab', 5, true, [1], [], { a: {} }, { a: [] }, { a: { b: 1 } }, () => 1]) {
    assert.equal(flatJson(other), null, String(other));
  }
});

test('canonical of nothing is null, as in the reference', () => {
  assert.equal(canonical(undefined), 'null');
  assert.equal(canonical(null), 'null');
  assert.equal(canonicalIterative(undefined), 'null');
  assert.equal(canonicalIterative(null), 'null');
  assert.equal(canonicalIterative([null, { a: null }]), '[null,{"a":null}]');
});

const TABLE: Table = {
  '*': ['description', 'reason'],
  bash: ['timeoutMs', 'workdir'],
  edit: ['value', '10'],
  '': ['empty'],
};

test('decoys are dropped from the top level as the reference drops them, for every argument shape', () => {
  const shapes: unknown[] = [
    { command: 'ls', description: 'x', timeoutMs: 5, workdir: '/w', nested: { description: 'kept' } },
    { value: 1, 10: 'ten', 9: 'nine', empty: 'e', reason: 'r' },
    JSON.parse('{"__proto__":{"p":1},"a":1,"toString":"t"}'),
    'a string',
    '',
    5,
    0,
    false,
    [1, { description: 'x' }],
    null,
    undefined,
    Object.assign(() => 1, { description: 'x', a: 1 }),
  ];
  for (const name of ['bash', 'edit', 'x', '*', '']) {
    for (const [i, args] of shapes.entries()) {
      const ours = stripDecoys(name, args, TABLE);
      assert.deepEqual(ours, ref.omitIgnored(name, args, TABLE), `${name}: shape ${i}`);
      assert.equal(canonical(ours), ref.canonical(ref.omitIgnored(name, args, TABLE)));
      assert.deepEqual(withoutDecoys(args, decoysFor(name, TABLE)), ours, `${name}: shape ${i}, cached table`);
    }
  }
  // A __proto__ key stays an own key of the copy, not its prototype.
  const copy = stripDecoys('x', JSON.parse('{"__proto__":{"p":1},"a":1}'), TABLE);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.deepEqual(Object.keys(copy), ['__proto__', 'a']);
});

test("exact:'s text written in one pass is the canonical text of the copy without decoys, for every argument shape", () => {
  const boom = (): never => {
    throw new Error('hostile');
  };
  const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${11 - i}`, i]));
  const shapes: unknown[] = [
    { command: 'ls', description: 'x', timeoutMs: 5, workdir: '/w', nested: { description: 'kept' } },
    { command: 'ls -la' },
    { command: undefined },
    { value: 1, 10: 'ten', 9: 'nine', empty: 'e', reason: 'r', f: () => 1, s: Symbol('s'), b: 3n },
    JSON.parse('{"__proto__":{"p":1},"a":1,"toString":"t"}'),
    JSON.parse('{"__proto__":1}'),
    JSON.parse('{"__proto__":{"p":1},"a":{"b":1}}'),
    many,
    { ...many, nested: [1] },
    Object.defineProperty({ a: 1, c: 3 }, 'b', { get: boom, enumerable: true }),
    new Proxy({ a: 1 }, { ownKeys: boom }),
    new Proxy({ a: 1, b: 2 }, { get: boom }),
    'a string',
    5,
    [1, { description: 'x' }],
    null,
    undefined,
    Object.assign(() => 1, { description: 'x', a: 1 }),
  ];
  const { proxy: revoked, revoke } = Proxy.revocable({ a: 1 }, {});
  revoke();
  shapes.push(revoked);
  for (const name of ['bash', 'edit', 'x', '*', '']) {
    for (const [i, args] of shapes.entries()) {
      assert.equal(argumentsJson(args, decoysFor(name, TABLE)), canonical(withoutDecoys(args, decoysFor(name, TABLE))), `${name}: shape ${i}`);
    }
  }
});

test('exact:\'s text reads each member once, as the copy does, also when it hands over to the copy', () => {
  for (const nested of [false, true]) {
    let reads = 0;
    const args = Object.defineProperty({ a: nested ? { b: 1 } : 1, description: 'x' }, 'counted', { get: () => (reads += 1), enumerable: true });
    argumentsJson(args, decoysFor('x', TABLE));
    assert.equal(reads, 1);
  }
});

test('every member of the copy is an ordinary data property, as object spread makes it, `__proto__` too', () => {
  const args = JSON.parse('{"__proto__":{"p":1},"a":1,"toString":2}') as Record<string, unknown>;
  assert.deepEqual(Object.getOwnPropertyDescriptors(stripDecoys('x', args, TABLE)), Object.getOwnPropertyDescriptors({ ...args }));
});

test('decoy names may be numbers, as the reference deletes them by property name', () => {
  const table = { '*': [10, 'a'] } as unknown as Table;
  const args = { 10: 'ten', a: 1, b: 2 };
  assert.deepEqual(stripDecoys('x', args, table), ref.omitIgnored('x', args, table));
  assert.deepEqual(stripDecoys('x', args, table), { b: 2 });
});

test('a table lists the `*` names for every tool and its own names only for the tool it names', () => {
  assert.deepEqual([...decoysOf('bash', TABLE)].sort(), ['description', 'reason', 'timeoutMs', 'workdir']);
  assert.deepEqual([...decoysOf('other', TABLE)].sort(), ['description', 'reason']);
  for (let round = 0; round < 2; round += 1) {
    assert.deepEqual([...decoysFor('bash', TABLE)].sort(), ['description', 'reason', 'timeoutMs', 'workdir'], `round ${round}`);
    assert.deepEqual([...decoysFor('other', TABLE)].sort(), ['description', 'reason'], `round ${round}`);
    assert.deepEqual([...decoysFor('', TABLE)].sort(), ['description', 'empty', 'reason'], `round ${round}`);
    assert.deepEqual([...decoysFor('*', TABLE)].sort(), ['description', 'reason'], `round ${round}`);
  }
});

test('a table is listed once: each later call hands back the very set the first one listed', () => {
  const table = { '*': ['reason'], bash: ['workdir'] };
  for (const name of ['bash', 'other']) assert.equal(decoysFor(name, table), decoysFor(name, table), name);
});

test('P5: hostile arguments lose what cannot be read, and never throw (0.5.2 throws on them)', () => {
  const getter = Object.defineProperty({ ok: 1, reason: 'r' }, 'bad', { enumerable: true, get: boom });
  assert.deepEqual(stripDecoys('bash', getter, TABLE), { ok: 1 });
  assert.deepEqual(stripDecoys('bash', new Proxy({}, { ownKeys: boom }), TABLE), {});
  assert.deepEqual(stripDecoys('bash', new Proxy({ a: 1 }, { get: boom }), TABLE), {});
  const { proxy: revoked, revoke } = Proxy.revocable({ a: 1 }, {});
  revoke();
  assert.deepEqual(stripDecoys('bash', revoked, TABLE), {});
  assert.deepEqual(withoutDecoys(revoked, new Set()), {});
});

test('P5: a table is read defensively: only own lists that are arrays count, a table that is not an object declares nothing', () => {
  const args = { a: 1, b: 2, reason: 3 };
  assert.deepEqual(stripDecoys('bash', args, null as unknown as Table), args);
  assert.deepEqual(stripDecoys('bash', args, 'ab' as unknown as Table), args);
  assert.deepEqual(stripDecoys('bash', args, Object.assign(() => 1, { '*': ['a'] }) as unknown as Table), args);
  assert.deepEqual(stripDecoys('bash', args, Object.create({ '*': ['a'] }) as Table), args);
  assert.deepEqual(stripDecoys('bash', args, { '*': 'ab', bash: 'b' } as unknown as Table), args);
  assert.deepEqual(stripDecoys('bash', args, { '*': ['a', null, true, { b: 1 }] } as unknown as Table), { b: 2, reason: 3 });
  // Only strings and numbers name an argument (0.5.2 would delete `null`, `true` and `[object Object]`).
  const odd = { null: 1, true: 2, '[object Object]': 3, undefined: 4 };
  assert.deepEqual(stripDecoys('bash', odd, { bash: [null, true, {}, undefined] } as unknown as Table), odd);
  assert.deepEqual(stripDecoys('bash', args, new Proxy({}, { ownKeys: boom, getOwnPropertyDescriptor: boom }) as Table), args);
  assert.deepEqual(stripDecoys('constructor', args, TABLE), { a: 1, b: 2 });
  assert.deepEqual(stripDecoys('__proto__', args, TABLE), { a: 1, b: 2 });
});

test('argumentsJson orders a few plain members as sort() orders their names, not by length: "aa" before "b"', () => {
  const decoys = new Set<string>();
  assert.equal(argumentsJson({ b: 1, aa: 2 }, decoys), '{"aa":2,"b":1}');
  assert.equal(argumentsJson({ zz: 1, b: 2, aaa: 3 }, decoys), '{"aaa":3,"b":2,"zz":1}');
  assert.equal(argumentsJson({ b: 1, aa: 2 }, decoys), canonical({ b: 1, aa: 2 }));
  // Index-like keys first, by value, then the names.
  assert.equal(argumentsJson({ name: 1, 10: 2, 9: 3 }, decoys), '{"9":3,"10":2,"name":1}');
});

test('argumentsJson puts index-like keys in order by value when they come out of order (a Proxy lists its own), by ours (P5)', () => {
  const target: Record<string, number> = { 10: 1, 9: 2, 100: 3, 20: 4 };
  const listed = new Proxy(target, { ownKeys: () => ['100', '10', '20', '9'] });
  assert.equal(argumentsJson(listed, new Set()), '{"9":2,"10":1,"20":4,"100":3}');
});

test('decoysFor hands every tool the table does not name its one set of `*` names (a model inventing tool names adds nothing)', () => {
  const table: Table = { '*': ['description'], bash: ['workdir'] };
  const invented = decoysFor('made_up_tool', table);
  assert.equal(decoysFor('another_made_up_tool', table), invented, 'the very same set');
  assert.deepEqual([...invented], ['description']);
  assert.notEqual(decoysFor('bash', table), invented);
});

/**
 * The policy layer at its edges: tool patterns against the regular-expression
 * reading the reference gives them (`*` as `.*`, which does not cross a line
 * break), the configuration equality that decides whether a saved change is a
 * change, the bound on scopes one turn can collect, and the stricter of two
 * settings in the direction the live-settings suite does not take.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../src/lib/config/config.js';
import { SCOPE_LIMIT, compilePolicy, sameData, tightenPolicy } from '../../src/lib/policy/policy.js';
import { compileScope } from '../../src/lib/policy/scope.js';
import { stricterConfig } from '../../src/lib/policy/strictness.js';
import { mulberry32 as random } from '../support/prng.js';

/** The reference's reading of a pattern: literal pieces joined by `.*`, anchored, `.` not matching a line break. */
function oracle(pattern: string, name: string): boolean {
  const source = pattern
    .split('*')
    .map((piece) => piece.replace(/[\\^$.|?+()[\]{}*]/g, '\\$&'))
    .join('.*');
  return name !== '' && new RegExp(`^${source}$`).test(name);
}

function word(next: () => number, alphabet: readonly string[], most: number): string {
  let text = '';
  const length = Math.floor(next() * (most + 1));
  for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(next() * alphabet.length)];
  return text;
}

describe('tool patterns', () => {
  test('a pattern matches a tool name exactly when the reference\u2019s regular expression does (30,000 pairs)', () => {
    const next = random(20261130);
    const letters = ['a', 'b', 'ab', '.', '(', '\\', '?', '\n', '\u2028', 'fs_'];
    let matched = 0;
    for (let i = 0; i < 30_000; i += 1) {
      const pattern = word(next, [...letters, '*', '*'], 5);
      // Half the names are the pattern with its stars filled in, so that many pairs match.
      const name = next() < 0.5 ? word(next, letters, 7) : pattern.replace(/\*/g, () => word(next, letters, 3));
      const ours = compileScope({ include: [pattern], exclude: [] })(name);
      assert.equal(ours, oracle(pattern, name), `pattern ${JSON.stringify(pattern)}, name ${JSON.stringify(name)}`);
      if (ours) matched += 1;
    }
    assert.ok(matched > 5_000, `the pairs match often enough to mean something (${matched})`);
  });

  test('examples: the middle piece must fit between head and tail, and `*` stops at a line break', () => {
    const matches = (pattern: string, name: string): boolean => compileScope({ include: [pattern], exclude: [] })(name);
    assert.equal(matches('a*b*c', 'abc'), true);
    assert.equal(matches('a*b*c', 'acb'), false);
    assert.equal(matches('ab*bc', 'abc'), false, 'head and tail may not overlap');
    assert.equal(matches('a*bb*a', 'abba'), true);
    assert.equal(matches('a*bb*a', 'aba'), false);
    assert.equal(matches('*x*', 'x'), true);
    assert.equal(matches('a*b*b', 'ab'), false, 'a middle piece may not reach into the tail');
    assert.equal(matches('a*b*b*c', 'abc'), false, 'two middle pieces need two places');
    assert.equal(matches('a*b*b*c', 'abbc'), true);
    assert.equal(matches('fs_*', 'fs_read\nwrite'), false);
    assert.equal(matches('fs_*\n*', 'fs_read\nwrite'), true, 'a pattern with a line break of its own');
    assert.equal(matches('fs_*\n*', 'fs_read\nwr\nite'), false);
  });
});

describe('configuration equality', () => {
  test('values of different kinds are different', () => {
    assert.equal(sameData(5, {}), false);
    assert.equal(sameData({}, 5), false);
    assert.equal(sameData(null, {}), false);
    assert.equal(sameData({}, null), false);
    assert.equal(sameData('ab', { 0: 'a', 1: 'b' }), false);
    assert.equal(sameData([], {}), false);
    assert.equal(sameData({}, []), false);
  });

  test('mappings are the same when they have the same keys with the same values, in any order', () => {
    assert.equal(sameData({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }), true);
    assert.equal(sameData({ a: 1 }, { a: 1, b: 2 }), false);
    assert.equal(sameData({ a: 1, b: 2 }, { a: 1 }), false);
    assert.equal(sameData({ a: undefined }, { b: undefined }), false);
    assert.equal(sameData([1, 2], [1, 2, 3]), false);
  });
});

describe('tool scopes within a turn', () => {
  test('a scope whose include differs by one entry is new; the union is kept to SCOPE_LIMIT scopes', () => {
    const base = resolveConfig({ include: ['a'] });
    let policy = compilePolicy(base);
    policy = tightenPolicy(policy, compilePolicy(resolveConfig({ include: ['a', 'b'] })));
    assert.equal(policy.scopes.length, 2);
    assert.equal(policy.tracked('b'), true);
    for (let i = 0; i < SCOPE_LIMIT * 2; i += 1) policy = tightenPolicy(policy, compilePolicy(resolveConfig({ include: [`tool${i}`] })));
    assert.equal(policy.scopes.length, SCOPE_LIMIT, 'bounded');
    assert.equal(policy.tracked('a'), true, 'never narrower than it was');
    assert.equal(policy.tracked(`tool${SCOPE_LIMIT * 2 - 1}`), false, 'past the bound, a new scope is not added');
  });
});

describe('the stricter of two settings, both ways', () => {
  const loose = resolveConfig({ onLimit: 'ask', localHosts: 'allow', includeLocal: false, progress: 'results' });
  const strict = resolveConfig({ onLimit: 'deny', localHosts: 'deny', includeLocal: true, progress: 'ignore', sequence: { length: 3 } });

  test('two loose settings stay loose', () => {
    const both = stricterConfig(loose, loose);
    assert.deepEqual([both.onLimit, both.localHosts, both.includeLocal, both.progress, both.sequence], ['ask', 'allow', false, 'results', null]);
  });

  test('a strict setting wins from either side', () => {
    for (const [current, next] of [
      [strict, loose],
      [loose, strict],
    ] as const) {
      const both = stricterConfig(current, next);
      assert.deepEqual([both.onLimit, both.localHosts, both.includeLocal, both.progress], ['deny', 'deny', true, 'ignore']);
      assert.deepEqual(both.sequence, { length: 3, count: 3, limit: null }, 'the sequence track on, whichever side has it');
    }
  });
});

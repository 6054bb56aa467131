/**
 * Configuration of the opt-in features (`sequence`, `progress`,
 * `exemptionCeiling`): off by default, and every bad value fails loud at load
 * naming the key, the value and the fix.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { SEQUENCE } from '../../src/lib/tracks/sequence.meta.js';

const PREFIX = 'repeat-tool-breaker: ';

function throwsNaming(config: unknown, ...parts: string[]): void {
  assert.throws(
    () => resolveConfig(config),
    (error: unknown) => {
      assert.ok(error instanceof Error, 'throws an Error');
      assert.ok(error.message.startsWith(PREFIX), error.message);
      for (const part of parts) assert.ok(error.message.includes(part), `"${error.message}" should mention ${part}`);
      return true;
    },
  );
}

describe('the opt-in settings are off by default', () => {
  test('DEFAULTS has sequence null, progress ignore and exemptionCeiling null', () => {
    assert.equal(DEFAULTS.sequence, null);
    assert.equal(DEFAULTS.progress, 'ignore');
    assert.equal(DEFAULTS.exemptionCeiling, null);
    const cfg = resolveConfig({});
    assert.equal(cfg.sequence, null);
    assert.equal(cfg.progress, 'ignore');
    assert.equal(cfg.exemptionCeiling, null);
  });

  test('the sequence defaults are length 4, count 3, no limit, frozen', () => {
    assert.deepEqual({ ...SEQUENCE.defaults }, { length: 4, count: 3, limit: null });
    assert.ok(Object.isFrozen(SEQUENCE.defaults), 'the sequence defaults are frozen');
  });
});

describe('sequence', () => {
  test('an empty mapping turns the track on with the defaults, and a partial one is completed from them', () => {
    assert.deepEqual(resolveConfig({ sequence: {} }).sequence, { length: 4, count: 3, limit: null });
    assert.deepEqual(resolveConfig({ sequence: { limit: 4 } }).sequence, { length: 4, count: 3, limit: 4 });
    assert.deepEqual(resolveConfig({ sequence: { length: 2, count: 2, limit: 8 } }).sequence, { length: 2, count: 2, limit: 8 });
  });

  test('null leaves the track off', () => {
    assert.equal(resolveConfig({ sequence: null }).sequence, null);
  });

  for (const bad of [true, 4, 'on', [4, 3], undefined]) {
    test(`sequence: ${bad === undefined ? 'undefined' : JSON.stringify(bad)} throws naming sequence and the accepted shape`, () => {
      throwsNaming({ sequence: bad }, '`sequence`', 'mapping', 'null');
    });
  }

  test('an unknown key inside sequence throws naming it and the three settings', () => {
    throwsNaming({ sequence: { lenght: 5 } }, '`sequence.lenght`', '`length`', '`count`', '`limit`');
  });

  for (const [key, bad] of [
    ['length', 1],
    ['length', 2.5],
    ['length', '4'],
    ['count', 1],
    ['count', null],
    ['count', Number.NaN],
  ] as const) {
    test(`sequence.${key}: ${String(bad)} throws naming the key, the value and the minimum`, () => {
      throwsNaming(
        { sequence: { [key]: bad } },
        `\`sequence.${key}\``,
        '>= 2',
        `got ${typeof bad === 'string' ? JSON.stringify(bad) : String(bad)}`,
      );
    });
  }

  test('sequence.limit below count throws, naming count as the minimum', () => {
    throwsNaming({ sequence: { count: 3, limit: 2 } }, '`sequence.limit`', '>= `sequence.count` (3)', 'got 2');
  });

  test('sequence.limit must be a whole number or null', () => {
    throwsNaming({ sequence: { limit: 4.5 } }, '`sequence.limit`', 'got 4.5');
    throwsNaming({ sequence: { limit: 'never' } }, '`sequence.limit`', 'got "never"');
  });

  test('a count the window can never hold throws, naming both keys, the product and the fix', () => {
    throwsNaming({ window: 8, sequence: {} }, '`sequence.count`', '`window`', '3 × 4 = 12', 'raise `window` to at least 12');
  });

  test('a limit the window can never hold throws the same way', () => {
    throwsNaming({ sequence: { limit: 5 } }, '`sequence.limit`', '5 × 4 = 20', '(16)', 'raise `window` to at least 20');
  });

  test('a cycle that exactly fills the window is accepted', () => {
    assert.deepEqual(resolveConfig({ sequence: { limit: 4 } }).sequence, { length: 4, count: 3, limit: 4 });
    assert.deepEqual(resolveConfig({ window: 6, sequence: { length: 3, count: 2 } }).sequence, { length: 3, count: 2, limit: null });
  });
});

describe('progress', () => {
  test('ignore and results are accepted', () => {
    assert.equal(resolveConfig({ progress: 'ignore' }).progress, 'ignore');
    assert.equal(resolveConfig({ progress: 'results' }).progress, 'results');
  });

  for (const bad of ['result', 'RESULTS', true, null, undefined]) {
    test(`progress: ${bad === undefined ? 'undefined' : JSON.stringify(bad)} throws naming the key, the value and the two choices`, () => {
      throwsNaming(
        { progress: bad },
        '`progress`',
        '`ignore`',
        '`results`',
        `got ${bad === undefined ? 'undefined' : JSON.stringify(bad)}`,
      );
    });
  }
});

describe('exemptionCeiling', () => {
  test('a positive integer or null is accepted', () => {
    assert.equal(resolveConfig({ exemptionCeiling: 1 }).exemptionCeiling, 1);
    assert.equal(resolveConfig({ exemptionCeiling: 50 }).exemptionCeiling, 50);
    assert.equal(resolveConfig({ exemptionCeiling: null }).exemptionCeiling, null);
  });

  for (const bad of [0, -1, 2.5, '3', Number.POSITIVE_INFINITY, undefined]) {
    test(`exemptionCeiling: ${bad === undefined ? 'undefined' : String(bad)} throws naming the key, the value and null as the off switch`, () => {
      throwsNaming({ exemptionCeiling: bad }, '`exemptionCeiling`', '>= 1', 'null');
    });
  }
});

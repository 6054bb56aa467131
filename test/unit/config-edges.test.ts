/**
 * The edges of loading a config: how an offending value is shown in the error
 * (bounded, and never a second error while rendering the first), keys that are
 * only inherited names, a key given as `undefined`, and the meaning each
 * opt-in setting's error explains. Also the one-field readers every hook uses
 * on values a model controls.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, mergeConfig, resolveConfig, validateConfig } from '../../src/lib/config/config.js';
import { member, safeMember } from '../../src/lib/host/member.js';

function errorOf(config: unknown): string {
  try {
    resolveConfig(config);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`${JSON.stringify(config)} was accepted`);
}

describe('an offending value in a config error', () => {
  test('a BigInt is shown with its n', () => {
    assert.match(errorOf({ window: 5n }), /\(got 5n\)/);
  });

  test('an array or a mapping that JSON cannot render is named by its kind', () => {
    assert.match(errorOf([1n]), /\(got an array\)/);
    assert.match(errorOf({ include: [1n] }), /\(got an array\)/);
    assert.match(errorOf({ sequence: { length: { size: 1n } } }), /\(got an object\)/);
  });

  test('null is shown as null', () => {
    assert.match(errorOf({ window: null }), /\(got null\)/);
  });

  test('up to 80 characters are shown whole; a longer value is cut at 80 with an ellipsis', () => {
    const fits = `"${'x'.repeat(78)}"`;
    assert.ok(errorOf({ window: 'x'.repeat(78) }).includes(`(got ${fits});`), 'a 78-character value is shown whole');
    const long = errorOf({ window: 'y'.repeat(500) });
    assert.ok(long.includes(`(got "${'y'.repeat(79)}\u2026)`), long);
  });
});

describe('keys of a config', () => {
  test('P11: a key named like an inherited member (constructor, toString) is an unknown key, refused like any other', () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
      assert.match(errorOf({ [key]: 1 }), new RegExp(`^repeat-tool-breaker: \`${key}\` is not a setting`), key);
    }
  });

  test('duplicateText given as undefined leaves the track off, as leaving it out does', () => {
    assert.equal(resolveConfig({ duplicateText: undefined }).duplicateText, null);
  });

  test('a misspelt duplicateText sub-key is named with the list of real ones', () => {
    assert.match(
      errorOf({ duplicateText: { minChar: 80 } }),
      /`duplicateText\.minChar` is not a setting; the settings are `minChars`, `threshold`, `windowMs`, `cooldownMs` \(did you mean `duplicateText\.minChars`\?\)$/,
    );
  });
});

describe('the order of the settings, and what a resolved config carries', () => {
  test('the opt-ins follow 0.5.2\u2019s settings in the order they came into the product, the core\u2019s among the tracks\u2019', () => {
    assert.deepEqual(Object.keys(DEFAULTS).slice(Object.keys(DEFAULTS).indexOf('limits') + 1), [
      'sequence',
      'progress',
      'exemptionCeiling',
      'duplicateText',
      'stale',
      'spin',
      'guess',
      'editRetry',
      'timeouts',
      'failureProgress',
      'stopAfter',
      'preset',
    ]);
  });

  test('of two refused opt-ins, the one that came first is named: a track\u2019s before a later core setting', () => {
    assert.match(errorOf({ stopAfter: 'x', sequence: 'x' }), /^repeat-tool-breaker: `sequence` must be/);
    assert.match(errorOf({ failureProgress: 'x', stale: 'x' }), /^repeat-tool-breaker: `stale`/);
  });

  test('an unknown key is named with the nearest setting', () => {
    assert.match(errorOf({ onlimit: 'deny' }), /^repeat-tool-breaker: `onlimit` is not a setting \(got "deny"\)\. Did you mean `onLimit`\? /);
  });

  test('a limits key that names no measure is refused with the list of measures', () => {
    assert.equal(
      errorOf({ limits: { hots: 3 } }),
      'repeat-tool-breaker: `limits.hots` names no measure (got 3): a cap is a measure (`exact`, `verb`, `family`, `cmd`, `act`, `net`, `site`, `host`, `sink`) or a full fingerprint that starts with one, such as `verb:curl`; did you mean `host`?',
    );
    // Before a leading colon the measure is empty: no measure is near it.
    assert.match(errorOf({ limits: { ':host': 3 } }), /`limits\.:host` names no measure \(got 3\): .*such as `verb:curl`$/);
  });

  test('a symbol key a caller\u2019s config object carries rides along on the resolved config, after every setting', () => {
    const mark = Symbol('caller');
    const cfg = resolveConfig({ warnAt: 5, [mark]: 'kept' }) as unknown as Record<symbol, unknown>;
    assert.equal(cfg[mark], 'kept');
    assert.deepEqual(Reflect.ownKeys(cfg).slice(-2), ['preset', mark]);
  });

  test('a merged config without an opt-in\u2019s key reads it as off', () => {
    const merged: Record<string, unknown> = mergeConfig({});
    delete merged.stale;
    const cfg = validateConfig(merged);
    assert.equal(cfg.stale, null);
    assert.deepEqual(Object.keys(cfg).sort(), Object.keys(DEFAULTS).sort());
  });
});

describe('what an opt-in setting\u2019s error says it is', () => {
  const meanings: [Record<string, unknown>, RegExp][] = [
    [{ duplicateText: { minChars: 0 } }, /it is the shortest text block, in characters, that is fingerprinted$/],
    [{ duplicateText: { threshold: 1 } }, /it is how many occurrences within the window earn a notice/],
    [{ duplicateText: { windowMs: 0 } }, /it is the time window, in milliseconds/],
    [{ duplicateText: { cooldownMs: -1 } }, /it is how long, in milliseconds, one text stays silent/],
    [{ sequence: { length: 1 } }, /it is the longest cycle looked for, in distinct calls$/],
    [{ sequence: { count: 1 } }, /it is how many back-to-back repetitions of a cycle earn the advisory$/],
    [{ sequence: { limit: 1 } }, /`sequence\.limit` must be an integer >= `sequence\.count` \(3\) \(got 1\): the gate comes after the advisory; null advises only$/],
    [{ exemptionCeiling: 0 }, /it is how many calls an approved exemption allows/],
  ];
  for (const [config, meaning] of meanings) {
    test(`${JSON.stringify(config)} explains the setting`, () => {
      assert.match(errorOf(config), meaning);
    });
  }
});

describe('reading one member of a value a model controls', () => {
  test('only objects have members: null, primitives and functions have none', () => {
    for (const holder of [null, undefined, 'text', 7, true, () => 1]) assert.equal(member(holder, 'length'), undefined);
    assert.equal(member({ name: 'bash' }, 'name'), 'bash');
  });

  test('a throwing getter throws through member and reads as absent through safeMember', () => {
    const hostile = {
      get name(): string {
        throw new Error('no');
      },
    };
    assert.throws(() => member(hostile, 'name'));
    assert.equal(safeMember(hostile, 'name'), undefined);
    assert.equal(safeMember({ name: 'bash' }, 'name'), 'bash');
  });
});

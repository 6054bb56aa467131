/**
 * The settings issue 26 adds: the preset and how it meets the user's keys, the
 * stage mappings of the new tracks, `failureProgress`, `progress: changes`,
 * how each tightens mid-turn, and the helpers behind the messages.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, MEASURES, resolveConfig } from '../../src/lib/config/config.js';
import { editDistance, nearestName } from '../../src/lib/setting/nearest.js';
import { layConfig, PRESET_NAMES, PRESETS, presetConfig } from '../../src/lib/config/preset.js';
import { fingerprints, RANKED } from '../../src/lib/call/fingerprint.js';
import { stricterConfig } from '../../src/lib/policy/strictness.js';

const throwsWith = (config: unknown, ...parts: string[]): void => {
  assert.throws(() => resolveConfig(config), (error: Error) => parts.every((part) => error.message.includes(part)), parts.join(' '));
};

describe('preset: recommended', () => {
  test('without a preset every setting is the default: parity is untouched', () => {
    assert.deepEqual(resolveConfig({}), resolveConfig({ preset: null }));
    assert.equal(resolveConfig({}).preset, null);
  });

  test('the preset turns on what its parts name, and says which preset it is', () => {
    const cfg = resolveConfig({ preset: 'recommended' });
    assert.equal(cfg.preset, 'recommended');
    assert.deepEqual(cfg.stale, { warnAt: 3, limit: 5, backToBack: 3, cycle: 5 });
    assert.deepEqual(cfg.editRetry, { warnAt: 3, limit: 4, applied: 2, resent: 3 });
    assert.deepEqual(cfg.timeouts, { warnAt: 4, limit: 5, respelled: null }, 'the respelled gate stays out of the preset');
    assert.deepEqual(cfg.spin, { warnAt: 5, limit: 7 });
    assert.deepEqual(cfg.guess, { warnAt: 4, limit: 6 });
    assert.equal(cfg.failureProgress, 'outcomes');
    assert.equal(cfg.progress, 'outcomes');
    assert.equal(cfg.limits.act, 12);
    assert.equal(cfg.limits.exact, DEFAULTS.limits.exact, 'the caps of 0.5.2 stay');
  });

  test('explicit keys override it: a scalar replaces, a map or mapping merges one level', () => {
    const cfg = resolveConfig({ preset: 'recommended', progress: 'ignore', stale: { limit: 8 }, limits: { exact: 9 } });
    assert.equal(cfg.progress, 'ignore');
    assert.deepEqual(cfg.stale, { warnAt: 3, limit: 8, backToBack: 3, cycle: 5 }, "the preset's warnAt and backToBack stay");
    assert.equal(cfg.limits.exact, 9);
    assert.equal(cfg.limits.act, 12, "the preset's other caps stay");
  });

  test('a null turns a part of it off', () => {
    assert.equal(resolveConfig({ preset: 'recommended', stale: null }).stale, null);
    assert.equal(resolveConfig({ preset: 'recommended', limits: { act: null } }).limits.act, null);
  });

  test('an unknown preset fails, listing the presets and the nearest one', () => {
    throwsWith({ preset: 'recomended' }, '`preset` must be one of `recommended`', 'did you mean `recommended`?');
    throwsWith({ preset: 3 }, '`preset` must be one of');
    // No nearest name for what is no name.
    assert.throws(() => resolveConfig({ preset: 3 }), { message: 'repeat-tool-breaker: `preset` must be one of `recommended`, or null for none (got 3)' });
  });

  test('a preset is named by a string: a list or an object that prints as a name is refused', () => {
    throwsWith({ preset: ['recommended'] }, '`preset` must be one of', '(got ["recommended"])');
    throwsWith({ preset: { toString: () => 'recommended' } }, '`preset` must be one of');
  });

  test('every part has a distinct name, a line of what it does, and a config the plugin accepts on its own', () => {
    for (const name of PRESET_NAMES) {
      const preset = PRESETS[name]!;
      assert.equal(new Set(preset.parts.map((part) => part.name)).size, preset.parts.length, name);
      for (const part of preset.parts) {
        assert.ok(part.what.length > 20, `${name}/${part.name} says what it does`);
        assert.doesNotThrow(() => resolveConfig(part.config), `${name}/${part.name} resolves alone`);
      }
    }
  });

  test('presetConfig lays the parts in order and leaves out the ones it is told to (the ablation)', () => {
    const preset = PRESETS.recommended!;
    const without = presetConfig(preset, new Set(['stale']));
    assert.equal(Object.hasOwn(without, 'stale'), false);
    assert.deepEqual(presetConfig(preset).stale, { warnAt: 3, limit: 5, backToBack: 3, cycle: 5 });
  });

  test('layConfig: top-level keys replace; limits, ignoreArgs, hostAliases and the track mappings merge', () => {
    assert.deepEqual(layConfig({ limits: { a: 1 }, warnAt: 3 }, { limits: { b: 2 }, warnAt: 5 }), { limits: { a: 1, b: 2 }, warnAt: 5 });
    assert.deepEqual(layConfig({ stale: { warnAt: 3, limit: 5 } }, { stale: { limit: 9 } }), { stale: { warnAt: 3, limit: 9 } });
    assert.deepEqual(layConfig({ stale: { warnAt: 3 } }, { stale: null }), { stale: null });
    assert.deepEqual(layConfig({ exclude: ['a'] }, { exclude: ['b'] }), { exclude: ['b'] }, 'a list replaces');
  });
});

describe('the stage mappings: stale, editRetry, timeouts', () => {
  test('off by default; `{}` turns each on with its defaults', () => {
    const cfg = resolveConfig({ stale: {}, editRetry: {}, timeouts: {} });
    assert.deepEqual([DEFAULTS.stale, DEFAULTS.editRetry, DEFAULTS.timeouts], [null, null, null]);
    assert.deepEqual(cfg.stale, { warnAt: 3, limit: 4, backToBack: null, cycle: null }, 'the back-to-back gate stays off unless given');
    assert.deepEqual(cfg.editRetry, { warnAt: 3, limit: 4, applied: null, resent: null }, 'the gates on an edit sent again stay off unless given');
    assert.deepEqual(cfg.timeouts, { warnAt: 3, limit: null, respelled: null }, 'the respelled gate stays off unless given');
  });

  test('each stage is a whole number of at least 2, or null; the message names the key, the value and what it is', () => {
    throwsWith({ stale: { limit: 1 } }, '`stale.limit` must be an integer >= 2', '(got 1)', 'null advises only');
    throwsWith({ editRetry: { warnAt: 2.5 } }, '`editRetry.warnAt`', '(got 2.5)');
    throwsWith({ timeouts: 'on' }, '`timeouts` must be a mapping', '{}` turns it on');
    assert.deepEqual(resolveConfig({ stale: { warnAt: null, limit: null } }).stale, { warnAt: null, limit: null, backToBack: null, cycle: null });
    throwsWith({ stale: { backToBack: 1 } }, '`stale.backToBack` must be an integer >= 2', '(got 1)', 'back to back');
    throwsWith({ editRetry: { backToBack: 3 } }, '`editRetry.backToBack` is not a setting', 'takes `warnAt`, `limit`');
    throwsWith({ stale: { backTo: 3 } }, '`stale.backTo` is not a setting', '`backToBack`');
    throwsWith({ stale: { cycle: 1 } }, '`stale.cycle` must be an integer >= 2', '(got 1)', 'answered before');
    assert.deepEqual(resolveConfig({ stale: { cycle: 5 } }).stale, { warnAt: 3, limit: 4, backToBack: null, cycle: 5 }, 'the round gate beside the back-to-back one');
    throwsWith({ editRetry: { applied: 1 } }, '`editRetry.applied` must be an integer >= 2', '(got 1)', 'the same edit');
    throwsWith({ editRetry: { resent: 1 } }, '`editRetry.resent` must be an integer >= 2', '(got 1)', 'rejected');
    throwsWith({ editRetry: { apllied: 2 } }, '`editRetry.apllied` is not a setting', '`applied`');
  });

  test('an advisory past the gate is refused: it would never be read', () => {
    throwsWith({ stale: { warnAt: 6, limit: 5 } }, '`stale.warnAt` (6) is past `stale.limit` (5)', 'lower warnAt to at most 5');
    throwsWith({ stale: { warnAt: 3, backToBack: 2 } }, '`stale.backToBack` (2) is before `stale.warnAt` (3)', 'raise backToBack to at least 3');
    throwsWith({ stale: { warnAt: 3, cycle: 2 } }, '`stale.cycle` (2) is before `stale.warnAt` (3)', 'raise cycle to at least 3');
    assert.deepEqual(resolveConfig({ stale: { warnAt: null, backToBack: 2 } }).stale, { warnAt: null, limit: 4, backToBack: 2, cycle: null }, 'without an advisory it may come at 2');
    assert.deepEqual(resolveConfig({ editRetry: { warnAt: 4, limit: 4 } }).editRetry, { warnAt: 4, limit: 4, applied: null, resent: null }, 'at the gate is fine: the advisory comes with the last call that runs');
    throwsWith({ editRetry: { warnAt: 3, resent: 2 } }, '`editRetry.resent` (2) is before `editRetry.warnAt` (3)', 'raise resent to at least 3');
    assert.deepEqual(resolveConfig({ editRetry: { warnAt: 3, applied: 2 } }).editRetry, { warnAt: 3, limit: 4, applied: 2, resent: null }, 'applied counts landings, which the advisory does not, and has an advisory of its own: it may come before warnAt');
    assert.deepEqual(resolveConfig({ timeouts: { warnAt: 4, limit: 5, respelled: 3 } }).timeouts, { warnAt: 4, limit: 5, respelled: 3 }, 'the respelled gate advises as it arms, so it may come before warnAt');
    throwsWith({ timeouts: { respelled: 1 } }, '`timeouts.respelled` must be an integer >= 2', '(got 1)', 'spelled anew');
  });

  test('failureProgress is ignore, restart or outcomes; progress takes changes and outcomes besides ignore and results', () => {
    assert.equal(resolveConfig({ failureProgress: 'restart' }).failureProgress, 'restart');
    assert.equal(resolveConfig({ failureProgress: 'outcomes' }).failureProgress, 'outcomes');
    throwsWith({ failureProgress: 'yes' }, '`failureProgress` must be `ignore`, `restart` or `outcomes`', '"yes"');
    assert.equal(resolveConfig({ progress: 'changes' }).progress, 'changes');
    assert.equal(resolveConfig({ progress: 'outcomes' }).progress, 'outcomes');
    throwsWith({ progress: 'edits' }, '`progress` must be `ignore`, `results`, `changes` or `outcomes`');
  });

  test('failureProgress mid-turn: the less forgiving of two values is kept (ignore, then outcomes, then restart)', () => {
    const of = (failureProgress: string): ReturnType<typeof resolveConfig> => resolveConfig({ failureProgress });
    assert.equal(stricterConfig(of('restart'), of('outcomes')).failureProgress, 'outcomes');
    assert.equal(stricterConfig(of('outcomes'), of('restart')).failureProgress, 'outcomes');
    assert.equal(stricterConfig(of('outcomes'), of('ignore')).failureProgress, 'ignore');
    assert.equal(stricterConfig(of('restart'), of('restart')).failureProgress, 'restart');
  });
});

describe('tightening mid-turn: the new settings', () => {
  const base = resolveConfig({});
  test('a track turned on reaches a running agent at once; turned off, it waits (the stricter is kept)', () => {
    assert.deepEqual(stricterConfig(base, resolveConfig({ stale: {} })).stale, { warnAt: 3, limit: 4, backToBack: null, cycle: null });
    assert.deepEqual(stricterConfig(resolveConfig({ stale: {} }), base).stale, { warnAt: 3, limit: 4, backToBack: null, cycle: null });
    assert.deepEqual(stricterConfig(resolveConfig({ stale: { backToBack: 4 } }), resolveConfig({ stale: { backToBack: 3 } })).stale, { warnAt: 3, limit: 4, backToBack: 3, cycle: null }, 'the earlier back-to-back gate');
    assert.deepEqual(stricterConfig(resolveConfig({ stale: { backToBack: 4 } }), resolveConfig({ stale: {} })).stale, { warnAt: 3, limit: 4, backToBack: 4, cycle: null }, 'on beats off');
    assert.deepEqual(stricterConfig(resolveConfig({ editRetry: { warnAt: 2, limit: 6 } }), resolveConfig({ editRetry: { warnAt: 3, limit: 3 } })).editRetry, { warnAt: 2, limit: 3, applied: null, resent: null });
    assert.deepEqual(stricterConfig(resolveConfig({ editRetry: { applied: 3, resent: 4 } }), resolveConfig({ editRetry: { applied: 2 } })).editRetry, { warnAt: 3, limit: 4, applied: 2, resent: 4 }, 'the earlier gate, and on beats off');
  });

  test('failureProgress restart and progress changes forgive, so they wait; ignore applies at once', () => {
    assert.equal(stricterConfig(base, resolveConfig({ failureProgress: 'restart' })).failureProgress, 'ignore');
    assert.equal(stricterConfig(resolveConfig({ failureProgress: 'restart' }), base).failureProgress, 'ignore');
    assert.equal(stricterConfig(base, resolveConfig({ progress: 'changes' })).progress, 'ignore');
    assert.equal(stricterConfig(resolveConfig({ progress: 'results' }), resolveConfig({ progress: 'changes' })).progress, 'ignore');
  });

  test('the preset mid-turn: its tightening parts apply at once, its forgiving ones wait for a human message', () => {
    const tightened = stricterConfig(base, resolveConfig({ preset: 'recommended' }));
    assert.deepEqual(tightened.stale, { warnAt: 3, limit: 5, backToBack: 3, cycle: 5 });
    assert.equal(tightened.failureProgress, 'ignore');
    assert.equal(tightened.progress, 'ignore');
  });
});

describe('MEASURES and nearestName', () => {
  test('MEASURES holds every measure the fingerprints emit and rank', () => {
    const calls = [
      { name: 'bash', args: { command: 'curl -s https://a.com/x -o out.bin && make test' } },
      { name: 'web_fetch', args: { url: 'https://a.com/y' } },
      { name: 'read', args: { file_path: 'x' } },
    ];
    const cfg = resolveConfig({ limits: { act: 12 } });
    for (const call of calls) for (const fp of fingerprints(call, cfg).fps) assert.ok(MEASURES.includes(fp.slice(0, fp.indexOf(':'))), fp);
    for (const measure of RANKED) assert.ok(MEASURES.includes(measure), measure);
  });

  test('nearestName: case first, then a few edits; nothing when nothing is close; nothing for a huge name', () => {
    assert.equal(nearestName('onlimit', ['window', 'onLimit']), 'onLimit');
    assert.equal(nearestName('widnow', ['window', 'onLimit']), 'window');
    assert.equal(nearestName('zzzzzz', ['window', 'onLimit']), undefined);
    assert.equal(nearestName('x'.repeat(65), ['x'.repeat(65)]), undefined);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });
});

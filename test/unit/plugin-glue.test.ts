/**
 * What every hook registration shares (the fault barrier, handing the
 * waterfall on, attaching notices) and the offer of the live settings
 * namespace, read directly rather than through a whole host: the fallbacks,
 * the identity of an unchanged decision, and each step of the settings
 * registration (validation, a refused stored value, teardown back to YAML).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig, type BreakerConfig } from '../../src/lib/config/config.js';
import { passOn, safely, withNotices } from '../../src/lib/plugin/hook.js';
import { SETTINGS_NAMESPACE, offerSettings } from '../../src/lib/plugin/settings.js';

describe('the hooks\u2019 helpers', () => {
  test('safely returns the step\u2019s value, or the fallback when the step throws', () => {
    assert.equal(safely(() => 'value', 'fallback'), 'value');
    assert.equal(
      safely(() => {
        throw new Error('inside the plugin');
      }, 'fallback'),
      'fallback',
    );
  });

  test('passOn hands a throw downstream on as a rejection', async () => {
    const fault = new Error('a later plugin');
    await assert.rejects(
      passOn(() => {
        throw fault;
      }),
      (error) => error === fault,
    );
    assert.equal(await passOn(() => 7), 7);
  });

  test('withNotices leaves a decision untouched when nothing is owed, and puts ours ahead of a later plugin\u2019s', () => {
    const downstream = { kind: 'accept' as const, additionalContexts: ['later'] };
    assert.equal(withNotices(downstream, []), downstream);
    assert.deepEqual(withNotices(downstream, ['ours']), { kind: 'accept', additionalContexts: ['ours', 'later'] });
    assert.deepEqual(withNotices(undefined as never, ['ours']), { additionalContexts: ['ours'] }, 'a later plugin that resolved nothing');
  });

  test('withNotices copies a decision as a spread would: its keys in order, an own __proto__ key kept as a key', () => {
    const later = { kind: 'accept' as const, note: 1, additionalContexts: ['later'], extra: 2 };
    assert.deepEqual(Object.keys(withNotices(later, ['ours'])), ['kind', 'note', 'additionalContexts', 'extra']);
    const parsed = JSON.parse('{"kind":"accept","__proto__":{"polluted":true}}') as never;
    const noticed = withNotices(parsed, ['ours']);
    assert.equal(Object.getPrototypeOf(noticed), Object.prototype);
    assert.deepEqual(Object.keys(noticed), ['kind', '__proto__', 'additionalContexts']);
    assert.equal((noticed as { polluted?: boolean }).polluted, undefined);
  });
});

interface Offered {
  followed: BreakerConfig[];
  registered: { ns: string; options: { validate: (value: unknown) => void } }[];
  watchers: ((value: unknown) => void)[];
  dispose: (() => void) | undefined;
}

/** A cordis-like context whose settings service records what the plugin does with it. */
function offer(stored: unknown = {}, base: unknown = {}): Offered {
  const seen: Offered = { followed: [], registered: [], watchers: [], dispose: undefined };
  const effects: (() => void)[] = [];
  const settings = {
    register(ns: string, _schema: unknown, options: { validate: (value: unknown) => void }) {
      seen.registered.push({ ns, options });
      return { get: () => stored, watch: (watcher: (value: unknown) => void) => seen.watchers.push(watcher) };
    },
  };
  const ctx = {
    inject(deps: string[], callback: (sctx: unknown) => void) {
      assert.deepEqual(deps, ['settings']);
      callback({ settings, effect: (execute: () => () => void) => effects.push(execute()) });
      return { dispose: () => effects.splice(0).forEach((dispose) => dispose()) };
    },
  };
  seen.dispose = offerSettings(ctx, base, resolveConfig(base), (cfg) => seen.followed.push(cfg));
  return seen;
}

describe('the live settings namespace', () => {
  test('is `repeat-tool-breaker`, the key settings.yaml and the web UI use', () => {
    assert.equal(SETTINGS_NAMESPACE, 'repeat-tool-breaker');
    assert.equal(offer().registered[0]?.ns, 'repeat-tool-breaker');
  });

  test('is not offered where the host has no ctx.inject', () => {
    assert.equal(offerSettings({}, {}, resolveConfig({}), () => undefined), undefined);
    assert.equal(offerSettings(null, {}, resolveConfig({}), () => undefined), undefined);
  });

  test('the registration validates with our checks, naming the setting', () => {
    const { registered } = offer();
    const validate = registered[0]?.options.validate;
    assert.ok(validate !== undefined, 'the registration carries a validate');
    assert.doesNotThrow(() => validate({ window: 8 }));
    assert.throws(() => validate({ window: 2 }), /repeat-tool-breaker: `window`/);
  });

  test('the stored value is followed at once and after each change; a value our checks refuse is not', () => {
    const seen = offer({ limits: { exact: 6 } });
    assert.deepEqual(seen.followed.map((cfg) => cfg.limits.exact), [6]);
    const watcher = seen.watchers[0];
    assert.ok(watcher !== undefined, 'the stored value is watched');
    watcher({ limits: { exact: 9 } });
    assert.doesNotThrow(() => watcher({ window: 2 }));
    assert.deepEqual(seen.followed.map((cfg) => cfg.limits.exact), [6, 9]);
  });

  test('when the plugin is disposed, the breaker goes back to its YAML config', () => {
    const seen = offer({ limits: { exact: 6 } }, { limits: { exact: 4 } });
    assert.ok(seen.dispose !== undefined, 'offering the namespace gives a dispose');
    seen.dispose();
    assert.deepEqual(seen.followed.map((cfg) => cfg.limits.exact), [6, 4]);
  });
});

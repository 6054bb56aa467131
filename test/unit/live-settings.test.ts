/**
 * Live settings: the ordering rules that decide what a change does to an agent
 * in the middle of its turn (strictness.ts, policy.ts), the namespace schema
 * (settings-schema.ts), and the whole path through the fake host with a fake
 * settings service (the genuine one is in test/host/suites/settings.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import plugin from '../../src/index.js';
import { DEFAULTS, resolveConfig, type BreakerConfig } from '../../src/lib/config/config.js';
import { compilePolicy, createPolicyBook, SCOPE_LIMIT, tightenPolicy } from '../../src/lib/policy/policy.js';
import { configText } from '../../src/lib/config/messages.js';
import { createSettingsSchema, settingsTree } from '../../src/lib/config/schema.js';
import { namedPaths, resolveStored } from '../../src/lib/config/stored.js';
import { mergeLayers } from '../../client/layers.js';
import { SETTINGS_NAMESPACE } from '../../src/lib/plugin/settings.js';
import { lowerLimits, stricterConfig } from '../../src/lib/policy/strictness.js';
import { earlier } from '../../src/lib/setting/setting.js';
import { bashResult, FakeHost, type HostResult } from '../support/fake-host.js';
import { FakeSettings, withSettings, type InjectLog } from '../support/fake-settings.js';
import { bash, deniedAt, repeat, succeeding } from '../support/session.js';
import { errorOf } from '../support/errors.js';

const cfg = (config: Record<string, unknown> = {}): BreakerConfig => resolveConfig(config);
const NS = SETTINGS_NAMESPACE;

describe('the stricter of two settings', () => {
  test('a threshold: the earlier one, and off (null) is the loosest', () => {
    assert.equal(earlier(7, 5), 5);
    assert.equal(earlier(null, 5), 5);
    assert.equal(earlier(5, null), 5);
    assert.equal(earlier(null, null), null);
  });

  test('caps: every fingerprint gets the lower of its caps under either map, per-fingerprint keys included', () => {
    const merged = lowerLimits({ exact: 12, host: 16, site: null, 'verb:curl': 30 }, { exact: 20, host: null, site: 9, cmd: 4 });
    assert.equal(merged.exact, 12);
    assert.equal(merged.host, 16, 'null (off) under one map: the cap of the other');
    assert.equal(merged.site, 9);
    assert.equal(merged.cmd, 4, 'a measure only one map caps');
    // `verb:curl` is 30 under the first map; under the second it falls back to `verb`, which neither caps.
    assert.equal(merged['verb:curl'], 30);
    assert.equal(lowerLimits({ verb: 5 }, { 'verb:curl': 30 })['verb:curl'], 5, 'a per-fingerprint cap never loosens its measure cap');
  });

  test('each ordered setting moves to the stricter value, whichever side it comes from', () => {
    const loose = cfg({ window: 8, onLimit: 'ask', localHosts: 'allow', warnAt: 9, summarizeAt: null, failWarnAt: 4, failLimit: null, includeLocal: false, progress: 'results', exemptionCeiling: null });
    const tight = cfg({ window: 20, onLimit: 'deny', localHosts: 'deny', warnAt: 5, summarizeAt: 11, failWarnAt: 6, failLimit: 5, includeLocal: true, progress: 'ignore', exemptionCeiling: 2 });
    for (const [a, b] of [[loose, tight], [tight, loose]] as const) {
      const s = stricterConfig(a, b);
      assert.equal(s.window, 20, 'the longer window');
      assert.equal(s.onLimit, 'deny');
      assert.equal(s.localHosts, 'deny');
      assert.equal(s.warnAt, 5);
      assert.equal(s.summarizeAt, 11);
      assert.equal(s.failWarnAt, 4);
      assert.equal(s.failLimit, 5);
      assert.equal(s.includeLocal, true);
      assert.equal(s.progress, 'ignore');
      assert.equal(s.exemptionCeiling, 2);
    }
  });

  test('the opt-in tracks: on beats off, and within a track the one that catches soonest', () => {
    const off = cfg();
    const a = cfg({ window: 24, sequence: { length: 3, count: 4, limit: null }, duplicateText: { minChars: 200, threshold: 2, windowMs: 1000, cooldownMs: 50 } });
    const b = cfg({ window: 24, sequence: { length: 5, count: 2, limit: 4 }, duplicateText: { minChars: 80, threshold: 5, windowMs: 9000, cooldownMs: 10 } });
    assert.deepEqual(stricterConfig(off, a).sequence, a.sequence);
    assert.deepEqual(stricterConfig(a, off).duplicateText, a.duplicateText);
    assert.deepEqual(stricterConfig(a, b).sequence, { length: 5, count: 2, limit: 4 });
    assert.deepEqual(stricterConfig(a, b).duplicateText, { minChars: 80, threshold: 2, windowMs: 9000, cooldownMs: 10 });
  });

  test('settings with no order keep the current value: quoting lengths, decoys, aliases, include and exclude', () => {
    const current = cfg();
    const next = cfg({ previewChars: 10, resultPreviewChars: 20, ignoreArgs: { bash: [] }, hostAliases: { a: 'b' }, exclude: ['bash'], include: ['read'] });
    const s = stricterConfig(current, next);
    for (const key of ['previewChars', 'resultPreviewChars', 'ignoreArgs', 'hostAliases', 'exclude', 'include'] as const) {
      assert.deepEqual(s[key], current[key], key);
    }
  });
});

describe('an agent’s policy mid-turn', () => {
  test('the tool scope widens at once and never narrows: a tool tracked under either scope is tracked', () => {
    const current = compilePolicy(cfg({ include: ['bash'] }));
    const next = compilePolicy(cfg({ exclude: ['bash'] }));
    const moved = tightenPolicy(current, next);
    assert.equal(moved.tracked('bash'), true, 'newly excluded: still tracked this turn');
    assert.equal(moved.tracked('read'), true, 'newly in scope: tracked at once');
    assert.equal(moved.scopes.length, 2);
    assert.equal(tightenPolicy(moved, next).scopes.length, 2, 'a scope already held is not added twice');
  });

  test(`at most ${SCOPE_LIMIT} scopes: past that, the union held is kept`, () => {
    let policy = compilePolicy(cfg({ include: ['t0'] }));
    for (let i = 1; i < SCOPE_LIMIT * 3; i += 1) policy = tightenPolicy(policy, compilePolicy(cfg({ include: [`t${i}`] })));
    assert.equal(policy.scopes.length, SCOPE_LIMIT);
    assert.equal(policy.tracked('t0'), true, 'never narrower than before');
    assert.equal(policy.tracked(`t${SCOPE_LIMIT * 3 - 1}`), false);
  });

  test('until the first change the book holds nothing and every agent shares the load-time policy', () => {
    const book = createPolicyBook(cfg(), () => undefined);
    const a = {};
    book.reset(a);
    assert.equal(book.of(a), book.of({}));
    assert.equal(book.of(a).cfg.limits.exact, DEFAULTS.limits.exact);
  });

  test('a saved value equal to the current one is no change: every call stays on the load-time path', () => {
    const book = createPolicyBook(cfg({ window: 20 }), () => undefined);
    const before = book.of({});
    book.update(cfg({ window: 20 }));
    book.update(JSON.parse(JSON.stringify(cfg({ window: 20 }))) as BreakerConfig);
    assert.equal(book.of({}), before);
  });

  test('a change tightens every agent at once, and reaches it in full at its next human message', () => {
    const moves: string[] = [];
    const book = createPolicyBook(cfg(), (_agent, before, after) => moves.push(`${before.cfg.limits.exact}->${after.cfg.limits.exact}`));
    const agent = {};
    book.update(cfg({ limits: { exact: 30 }, warnAt: 3 }));
    assert.equal(book.of(agent).cfg.limits.exact, DEFAULTS.limits.exact, 'a higher cap waits');
    assert.equal(book.of(agent).cfg.warnAt, 3, 'an earlier advisory applies at once');
    assert.deepEqual(moves, [`${DEFAULTS.limits.exact}->${DEFAULTS.limits.exact}`], 'the agent moved once');
    book.reset(agent);
    assert.equal(book.of(agent).cfg.limits.exact, 30, 'after a human message, the saved value');
    book.update(cfg({ limits: { exact: 4 } }));
    assert.equal(book.of(agent).cfg.limits.exact, 4, 'a lower cap applies at once');
    assert.equal(book.of(agent).cfg.warnAt, 3, 'and the later advisory waits');
  });
});

describe('the namespace schema', () => {
  test('calling it is resolveConfig: the resolved value, or the very error a bad YAML config gets at load', () => {
    const schema = createSettingsSchema();
    assert.deepEqual(schema({ window: 20 }), resolveConfig({ window: 20 }));
    assert.deepEqual(schema(undefined), resolveConfig({}));
    for (const bad of [{ window: 2 }, { limits: { exact: 1 } }, { onLimit: 'maybe' }, { denyAfter: 3 }, { blockShellHttp: true }, { sequence: { lenght: 4 } }]) {
      assert.equal(errorOf(() => schema(bad)), errorOf(() => resolveConfig(bad)), JSON.stringify(bad));
      assert.match(errorOf(() => schema(bad)), /^repeat-tool-breaker: /);
    }
    const verdict = schema['~standard'].validate({ window: 2 });
    assert.ok(
      'issues' in verdict && verdict.issues[0]?.message === errorOf(() => resolveConfig({ window: 2 })),
      'the standard validate reports the load error as its issue',
    );
  });

  test('toJSON is schemastery’s serialised form, with every setting and every measure of DEFAULTS.limits', () => {
    const json = createSettingsSchema().toJSON();
    const root = json.refs[json.uid] as { type: string; dict: Record<string, number> };
    assert.equal(root.type, 'object');
    assert.deepEqual(Object.keys(root.dict).sort(), Object.keys(DEFAULTS).sort());
    for (const [key, uid] of Object.entries(root.dict)) {
      const node = json.refs[uid] as { meta: { default: unknown; description?: string } };
      assert.deepEqual(node.meta.default, (DEFAULTS as unknown as Record<string, unknown>)[key], `default of ${key}`);
      assert.ok((node.meta.description ?? '').length > 0, `${key} is described`);
    }
    const limits = json.refs[root.dict.limits as number] as { dict: Record<string, number> };
    assert.deepEqual(Object.keys(limits.dict), Object.keys(DEFAULTS.limits));
    assert.doesNotThrow(() => JSON.stringify(json));
  });

  test('the tree is built from DEFAULTS, so a measure added there is a field of the namespace', () => {
    const tree = settingsTree();
    assert.deepEqual(Object.keys(tree.dict?.limits?.dict ?? {}), Object.keys(DEFAULTS.limits));
  });
});

describe('a stored section: a refused value costs that value, not the section', () => {
  const stored = (base: Record<string, unknown>, user: Record<string, unknown>) => resolveStored(base, mergeLayers(base, user));

  test('each refused value is left out, as the layer below has it; the rest applies, the preset included', () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, string[], Record<string, unknown>][] = [
      [{}, { onlimit: 'deny', preset: 'recommended' }, ['onlimit'], { preset: 'recommended' }],
      [{ window: 20 }, { window: 2, warnAt: 3 }, ['window'], { window: 20, warnAt: 3 }],
      [{ limits: { host: 9 } }, { limits: { exact: 5, exactt: 4 } }, ['limits.exactt'], { limits: { host: 9, exact: 5 } }],
      [{}, { limits: 5, warnAt: 3 }, ['limits'], { warnAt: 3 }],
      [{}, { localHosts: 'ask', onLimit: 'deny' }, ['localHosts'], { onLimit: 'deny' }],
      [{}, { preset: 'recomended', warnAt: 3 }, ['preset'], { warnAt: 3 }],
      [{}, { denyAfter: 3, blockShellHttp: true, warnAt: 3 }, ['denyAfter', 'blockShellHttp'], { warnAt: 3 }],
      [{}, { stale: { warnAt: 5, limit: 2 } }, ['stale.warnAt', 'stale.limit'], { stale: {} }],
      [{ sequence: { length: 4, count: 3 } }, { window: 8 }, ['window'], { sequence: { length: 4, count: 3 } }],
      [{}, { ignoreArgs: { bash: 'x', '*': ['y'] } }, ['ignoreArgs.bash'], { ignoreArgs: { '*': ['y'] } }],
    ];
    for (const [base, user, paths, rest] of cases) {
      const { config, dropped } = stored(base, user);
      assert.deepEqual(dropped.map((d) => d.path), paths, JSON.stringify(user));
      assert.deepEqual(config, resolveConfig(mergeLayers(base, rest)), `${JSON.stringify(user)}: the section without ${paths.join(', ')}`);
    }
  });

  test('each value left out carries the refusal resolveConfig gives for it', () => {
    const [drop] = stored({}, { onlimit: 'deny' }).dropped;
    assert.equal(configText(drop!.refusal), errorOf(() => resolveConfig({ onlimit: 'deny' })).replace(/^repeat-tool-breaker: /, ''));
  });

  test('a section that resolves is taken as it is, with nothing left out', () => {
    assert.deepEqual(stored({ warnAt: 2 }, { limits: { exact: 4 } }), { config: resolveConfig({ warnAt: 2, limits: { exact: 4 } }), dropped: [] });
  });

  test('a section whose refusal names only values of the layer below is refused whole, with the section’s own refusal', () => {
    const base = { timeouts: { limit: 3 } };
    const user = { preset: 'recommended', limits: { exact: 8 } };
    assert.throws(() => stored(base, user), { message: errorOf(() => resolveConfig(mergeLayers(base, user))) });
  });

  test('the paths a refusal names come from its English text, its subject first', () => {
    // A later span may be a value (`allow`): no section sets a key of that name, so none is dropped for it.
    assert.deepEqual(namedPaths({ id: 'localHostsAsk', params: {} }), ['localHosts', 'onLimit', 'allow']);
    assert.deepEqual(namedPaths({ id: 'limitsCap', params: { key: 'verb:curl', got: '1' } }), ['limits.verb:curl']);
  });
});

/** A fake host running the plugin beside a fake settings service. */
function liveHost(config: Record<string, unknown> = {}, settings = new FakeSettings(), log: InjectLog = { asked: [], errors: [] }): { host: FakeHost; settings: FakeSettings; log: InjectLog } {
  return { host: new FakeHost(withSettings(plugin, settings, log), config), settings, log };
}

const X = bash('cat /etc/hosts');
const Y = bash('ls -la /var/log');

describe('the namespace through the hooks', () => {
  test('registers `repeat-tool-breaker`, live, with the row config as the base layer', () => {
    const { settings, log } = liveHost({ onLimit: 'deny', limits: { exact: 6 } });
    assert.deepEqual(log.asked, [['settings']]);
    const registration = settings.registrations.get(NS);
    assert.ok(registration, 'the namespace is registered');
    assert.deepEqual(registration.base, { onLimit: 'deny', limits: { exact: 6 } });
    assert.equal(registration.applies, 'live');
    assert.deepEqual(settings.get(NS), resolveConfig({ onLimit: 'deny', limits: { exact: 6 } }));
  });

  test('a stored user layer applies from the start', async () => {
    const settings = new FakeSettings();
    settings.document[NS] = { limits: { exact: 4 } };
    const { host } = liveHost({ onLimit: 'deny' }, settings);
    assert.deepEqual(deniedAt(await repeat(host, {}, 5, X)), [4, 5]);
  });

  test('an invalid value is refused with resolveConfig’s message and nothing is stored', async () => {
    const { settings } = liveHost();
    await assert.rejects(settings.update(NS, { window: 2 }), { message: errorOf(() => resolveConfig({ window: 2 })) });
    assert.equal(settings.writes, 0);
    assert.equal(settings.document[NS], undefined);
    assert.deepEqual(settings.get(NS), resolveConfig({}));
  });

  test('P11: a misspelt key is refused with the nearest setting named, and nothing is stored', async () => {
    const { settings } = liveHost();
    await assert.rejects(settings.update(NS, { onlimit: 'deny' }), /`onlimit` is not a setting \(got "deny"\)\. Did you mean `onLimit`\?/);
    await assert.rejects(settings.update(NS, { sequence: { lenght: 3 } }), /did you mean `sequence\.length`\?/);
    assert.equal(settings.writes, 0);
    assert.equal(settings.document[NS], undefined);
  });

  test('a stored value our checks refuse is left out: the rest of the section applies, preset included, and the terminal names it', async (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const settings = new FakeSettings();
    settings.document[NS] = { preset: 'recommended', onlimit: 'deny', limits: { exact: 3 } };
    const { host, log } = liveHost({ onLimit: 'ask', limits: { exact: 8 } }, settings);
    assert.deepEqual(log.errors, [], 'the registration did not fail');
    assert.ok(settings.registrations.has(NS), 'the namespace is registered');
    assert.deepEqual(settings.get(NS), resolveConfig({ onLimit: 'ask', preset: 'recommended', limits: { exact: 3 } }), 'its value is the section without `onlimit`: the preset and the cap of 3 apply');
    assert.deepEqual(settings.describe()[0]?.user, { preset: 'recommended', onlimit: 'deny', limits: { exact: 3 } }, 'the stored section is still described, for the card to show');
    assert.equal(warn.mock.callCount(), 1, 'one line on the terminal');
    const line = String(warn.mock.calls[0]?.arguments[0]);
    assert.match(line, /^repeat-tool-breaker: `onlimit` in the `repeat-tool-breaker:` section of \/home\/operator\/\.dsh\/settings\.yaml is left out, and the rest of the section applies: /);
    assert.ok(line.includes(errorOf(() => resolveConfig({ onlimit: 'deny' })).replace(/^repeat-tool-breaker: /, '')), 'with the refusal, naming the key');
    assert.match(line, /Fix it or remove it in \/home\/operator\/\.dsh\/settings\.yaml, or in Settings → Plugins → Repeat-tool breaker\.$/);
    assert.deepEqual(deniedAt(await repeat(host, {}, 4, X)), [3, 4], "the section's cap of 3 gates, not the row's 8");
    // A write may keep the value left out (it stays left out, and is not said again), but adds nothing refused.
    await settings.update(NS, { window: 20 });
    assert.equal((settings.get(NS) as BreakerConfig).window, 20, 'an edit beside the value left out applies');
    assert.deepEqual(settings.document[NS], { preset: 'recommended', onlimit: 'deny', limits: { exact: 3 }, window: 20 });
    await assert.rejects(settings.update(NS, { onLimit: 'maybe' }), { message: errorOf(() => resolveConfig({ onLimit: 'maybe' })) });
    await assert.rejects(settings.update(NS, { onlimit: 'ask' }), /`onlimit` is not a setting \(got "ask"\)/, 'a new bad value where one is left out is refused');
    assert.equal(warn.mock.callCount(), 1, 'nothing new to say');
    await settings.unset(NS, 'onlimit');
    assert.deepEqual(settings.get(NS), resolveConfig({ onLimit: 'ask', preset: 'recommended', limits: { exact: 3 }, window: 20 }), 'the same value, now as stored');
    assert.match(String(warn.mock.calls.at(-1)?.arguments[0]), /section of \/home\/operator\/\.dsh\/settings\.yaml is accepted again; the breaker follows it\.$/);
    assert.equal(warn.mock.callCount(), 2);
  });

  test('each refused value of a stored section is left out and named once: a bad number, a misspelt cap, a key of the 0.6 line', (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const settings = new FakeSettings();
    settings.document[NS] = { window: 2, warnAt: 3, limits: { exact: 5, exactt: 4 }, blockShellHttp: true };
    liveHost({ window: 20 }, settings);
    const value = settings.get(NS) as BreakerConfig;
    assert.equal(value.window, 20, "`window: 2` left out: the row's 20 applies");
    assert.equal(value.warnAt, 3, 'the values beside it apply');
    assert.deepEqual(value.limits, { ...DEFAULTS.limits, exact: 5 }, 'the misspelt cap is left out of its mapping, the cap beside it kept');
    const lines = warn.mock.calls.map((call) => String(call.arguments[0]));
    assert.deepEqual(lines.map((line) => /^repeat-tool-breaker: `([^`]+)`/.exec(line)?.[1]), ['blockShellHttp', 'window', 'limits.exactt'], 'one line per value left out, in the order the checks meet them');
    settings.publish(NS, { window: 2, warnAt: 3, limits: { exact: 5, exactt: 4 }, blockShellHttp: true });
    assert.equal(warn.mock.callCount(), 3, 'the same section published again is not said again');
    settings.publish(NS, { window: 2, warnAt: 3 });
    assert.equal(warn.mock.callCount(), 3, 'nor is a value already said when others go');
    assert.equal((settings.get(NS) as BreakerConfig).limits.exact, 12);
  });

  test('a stored section refused whole (no value it names is the section’s own) keeps the namespace, and the breaker runs on the row config', async (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const settings = new FakeSettings();
    // The preset's time-out advisory (4) comes after the row's gate (3): the refusal names only the row's values.
    const row = { onLimit: 'ask', limits: { exact: 3 }, timeouts: { limit: 3 } };
    settings.document[NS] = { preset: 'recommended', limits: { exact: 8 } };
    const { host, log } = liveHost(row, settings);
    assert.deepEqual(log.errors, [], 'the registration did not fail');
    assert.ok(settings.registrations.has(NS), 'the namespace is registered');
    assert.deepEqual(settings.get(NS), resolveConfig(row), 'its value is the row config: none of the refused section applies');
    assert.equal(warn.mock.callCount(), 1, 'one line on the terminal');
    const line = String(warn.mock.calls[0]?.arguments[0]);
    assert.match(line, /^repeat-tool-breaker: the `repeat-tool-breaker:` section of \/home\/operator\/\.dsh\/settings\.yaml is refused, so none of that section applies: the breaker runs on the profile's config/);
    assert.ok(line.includes(errorOf(() => resolveConfig({ ...row, preset: 'recommended' })).replace(/^repeat-tool-breaker: /, '')), 'with the refusal');
    assert.match(line, /Fix it in \/home\/operator\/\.dsh\/settings\.yaml, or with Reset in Settings → Plugins → Repeat-tool breaker\.$/);
    assert.deepEqual(deniedAt(await repeat(host, {}, 4, X)), [3, 4], "the row's cap of 3 gates, not the refused section's 8");
    await assert.rejects(settings.update(NS, { window: 20 }), /`timeouts\.warnAt` \(4\) is past `timeouts\.limit` \(3\)/);
    await settings.unset(NS, 'preset');
    assert.equal((settings.get(NS) as BreakerConfig).limits.exact, 8, 'the rest of the section applies once the preset is gone');
    assert.match(String(warn.mock.calls.at(-1)?.arguments[0]), /is accepted again; the breaker follows it\.$/);
    assert.equal(warn.mock.callCount(), 2);
  });

  test('a value refused in an edit while DSH runs is left out of it, said once, and the rest of the edit applies', async (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const { host, settings } = liveHost({ onLimit: 'deny' });
    settings.publish(NS, { limits: { exact: 7 } });
    settings.publish(NS, { limits: { exact: 5 }, window: 2 });
    assert.equal(settings.warnings.length, 0, 'the service does not refuse it (it would keep the value silently and tell no card)');
    assert.equal((settings.get(NS) as BreakerConfig).limits.exact, 5, 'the rest of the edit applies');
    assert.equal((settings.get(NS) as BreakerConfig).window, 16, '`window: 2` is left out');
    settings.publish(NS, { limits: { exact: 5 }, window: 2 });
    assert.equal(warn.mock.callCount(), 1, 'reported once');
    assert.match(String(warn.mock.calls[0]?.arguments[0]), /`window` in the `repeat-tool-breaker:` section of \S+ is left out, and the rest of the section applies: `window` must be an integer >= 4 \(got 2\)/);
    assert.deepEqual(deniedAt(await repeat(host, {}, 6, X)), [5, 6], 'the edited cap of 5 gates');
    settings.publish(NS, { limits: { exact: 7 } });
    assert.equal((settings.get(NS) as BreakerConfig).limits.exact, 7);
    assert.equal(warn.mock.callCount(), 2, 'and the section accepted in full is announced');
  });

  test('a section refused whole while DSH runs keeps the value in force, is reported once, and the next good edit applies', async (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const { host, settings } = liveHost({ onLimit: 'deny', timeouts: { limit: 3 } });
    settings.publish(NS, { limits: { exact: 5 } });
    const inForce = settings.get(NS);
    settings.publish(NS, { limits: { exact: 4 }, preset: 'recommended' });
    assert.equal(settings.warnings.length, 0, 'the service does not refuse it (it would keep the value silently and tell no card)');
    assert.deepEqual(settings.get(NS), inForce, 'the value in force is kept');
    settings.publish(NS, { limits: { exact: 4 }, preset: 'recommended' });
    assert.equal(warn.mock.callCount(), 1, 'reported once');
    assert.match(String(warn.mock.calls[0]?.arguments[0]), /is refused, so none of the edit applies: the breaker keeps the settings it ran on before it\. `timeouts\.warnAt` \(4\) is past `timeouts\.limit` \(3\)/);
    assert.deepEqual(deniedAt(await repeat(host, {}, 6, X)), [5, 6], 'the kept cap of 5 still gates');
    settings.publish(NS, { limits: { exact: 7 } });
    assert.equal((settings.get(NS) as BreakerConfig).limits.exact, 7);
    assert.equal(warn.mock.callCount(), 2, 'and the good edit is announced');
  });

  test('a settings service that cannot register the namespace is reported on the terminal, and the breaker runs on the row config', async (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const service = { register: () => { throw new TypeError('settings section "repeat-tool-breaker" must be an object of keys'); } };
    const { host } = liveHost({ onLimit: 'deny', limits: { exact: 3 } }, service as unknown as FakeSettings);
    assert.match(String(warn.mock.calls[0]?.arguments[0]), /could not be registered \(settings section "repeat-tool-breaker" must be an object of keys\); the breaker runs on the profile's config\.$/);
    assert.deepEqual(deniedAt(await repeat(host, {}, 4, X)), [3, 4]);
  });

  test('a lower cap saved mid-turn applies to the next call', async () => {
    const { host, settings } = liveHost({ onLimit: 'deny' });
    const agent = {};
    assert.deepEqual(deniedAt(await repeat(host, agent, 5, X)), []);
    await settings.update(NS, { limits: { exact: 6 } });
    const after = await repeat(host, agent, 2, X);
    assert.deepEqual(after.map((o) => o.denied), [true, true], 'the sixth and seventh identical calls are denied');
  });

  test('progress switched to `ignore` mid-turn gates a poll that makes progress from the next call', async () => {
    const { host, settings } = liveHost({ onLimit: 'deny', progress: 'results', limits: { exact: 4, cmd: 4 } });
    const agent = {};
    let n = 0;
    const body = (): HostResult => bashResult(0, `progress ${(n += 1)}`);
    const poll = async (count: number): Promise<boolean[]> => {
      const out: boolean[] = [];
      for (let i = 0; i < count; i += 1) out.push((await host.call({ agent, ...bash('cat /var/log/build.log'), body })).denied);
      return out;
    };
    assert.deepEqual(await poll(6), [false, false, false, false, false, false], 'held back while the results change');
    await settings.update(NS, { progress: 'ignore' });
    assert.deepEqual(await poll(1), [true]);
  });

  test('a higher cap saved mid-turn waits for the next human message', async () => {
    const { host, settings } = liveHost({ onLimit: 'deny', limits: { exact: 5 } });
    const agent = {};
    await repeat(host, agent, 3, X);
    await settings.update(NS, { limits: { exact: 40, cmd: 40 } });
    assert.deepEqual(deniedAt(await repeat(host, agent, 3, X)), [2, 3], 'still capped at 5 this turn');
    await host.human(agent);
    assert.deepEqual(deniedAt(await repeat(host, agent, 20, X)), [], 'the next turn runs on the saved cap');
  });

  test('a tool excluded mid-turn is still tracked until the next human message', async () => {
    const { host, settings } = liveHost({ onLimit: 'deny', limits: { exact: 3 } });
    const agent = {};
    await settings.update(NS, { exclude: ['bash'] });
    // The agent never had a human message: it holds the load-time policy, tightened by the change.
    assert.deepEqual(deniedAt(await repeat(host, agent, 4, X)), [3, 4]);
    await host.human(agent);
    assert.deepEqual(deniedAt(await repeat(host, agent, 6, X)), []);
  });

  test('deny → ask waits; ask → deny applies at once', async () => {
    const a = liveHost({ onLimit: 'deny', limits: { exact: 3 } });
    const agent = {};
    await repeat(a.host, agent, 2, X);
    await a.settings.update(NS, { onLimit: 'ask' });
    const gated = await a.host.call({ agent, ...X, answer: 'approve' });
    assert.equal(gated.asked, false, 'no ask this turn');
    assert.equal(gated.denied, true);
    const b = liveHost({ onLimit: 'ask', limits: { exact: 3 } });
    await repeat(b.host, agent, 2, X);
    await b.settings.update(NS, { onLimit: 'deny' });
    const denied = await b.host.call({ agent, ...X, answer: 'approve' });
    assert.equal(denied.asked, false);
    assert.equal(denied.denied, true);
  });

  test('a longer window saved mid-turn keeps the calls the agent already made', async () => {
    const others = [bash('ls a'), bash('ls b'), bash('ls c')];
    const run = async (update: boolean): Promise<number[]> => {
      const { host, settings } = liveHost({ onLimit: 'deny', window: 4, limits: { exact: 3 } });
      const agent = {};
      const outcomes = [await host.call({ agent, ...X })];
      for (const other of others) outcomes.push(await host.call({ agent, ...other }));
      if (update) await settings.update(NS, { window: 16 });
      outcomes.push(...(await repeat(host, agent, 2, X)));
      return deniedAt(outcomes);
    };
    assert.deepEqual(await run(false), [], 'with a window of 4 the first call has slid out: two in the window at most');
    assert.deepEqual(await run(true), [6], 'with 16 it is still there: the third identical call meets the cap');
  });

  test('an exemption ceiling set mid-turn limits an exemption approved before it', async () => {
    const { host, settings } = liveHost({ limits: { exact: 3 } });
    const agent = {};
    const before = await repeat(host, agent, 3, { ...X, answer: 'approve' });
    assert.equal(before[2]?.asked, true, 'approved at the cap');
    assert.deepEqual(deniedAt(await repeat(host, agent, 5, X)), [], 'an approval exempts the rest of the turn');
    await settings.update(NS, { exemptionCeiling: 2 });
    assert.deepEqual(deniedAt(await repeat(host, agent, 3, X)), [3], 'two more calls, then denied without asking');
  });

  test('the sequence track switched on mid-turn starts watching at once', async () => {
    const { host, settings } = liveHost({ onLimit: 'deny' });
    const agent = {};
    await host.call({ agent, ...X });
    await settings.update(NS, { sequence: { length: 2, count: 2, limit: 2 } });
    const outcomes: boolean[] = [];
    for (let i = 0; i < 6; i += 1) outcomes.push((await host.call({ agent, ...(i % 2 === 0 ? Y : X) })).denied);
    assert.deepEqual(outcomes, [false, false, false, false, true, true]);
  });

  test('the preset chosen mid-turn: its stale gate applies at once, its forgiving parts wait for the human message', async () => {
    const { host, settings } = liveHost({ onLimit: 'deny' });
    const agent = {};
    const same = { ...X, body: succeeding('no matches') };
    await host.call({ agent, ...same });
    await settings.update(NS, { preset: 'recommended' });
    // The stale track tightens at once, from the first call after the change (the track did not watch the one before).
    // Its back-to-back gate (stale.backToBack: 3) counts from there too: three same results in a row, then the fourth is denied.
    assert.deepEqual(deniedAt(await repeat(host, agent, 6, same)), [4, 5, 6], 'three same results back to back, then the fourth and after are denied');
    let errors = 0;
    // A new error each run: progress by any reading of it, once the preset applies.
    const failing = { ...bash('python run.py'), body: () => bashResult(1, `KeyError: 'k${(errors += 1)}'`) };
    const edit = { name: 'edit', arguments: { file_path: 'run.py', old_string: 'a', new_string: 'b' } };
    const editAndFail = async (n: number): Promise<boolean[]> => {
      const denied: boolean[] = [];
      for (let i = 0; i < n; i += 1) {
        await host.call({ agent, ...edit, arguments: { ...edit.arguments, new_string: `b${i}` } });
        denied.push((await host.call({ agent, ...failing })).denied);
      }
      return denied;
    };
    // failureProgress: outcomes loosens, so until a human message edit → rerun still builds the failure streak.
    assert.deepEqual(await editAndFail(6), [false, false, false, false, false, true]);
    await host.human(agent);
    assert.deepEqual(await editAndFail(6), [false, false, false, false, false, false], 'after the human message the preset applies in full');
  });

  test('another agent that had a human message after the change runs on the saved settings in full', async () => {
    const { host, settings } = liveHost({ onLimit: 'deny', limits: { exact: 3 } });
    await settings.update(NS, { limits: { exact: 10 } });
    const fresh = {};
    await host.human(fresh);
    assert.deepEqual(deniedAt(await repeat(host, fresh, 10, { ...X, body: succeeding('x') })), [10]);
  });
});

describe('without a usable settings service the plugin behaves as before', () => {
  const shapes: [string, unknown][] = [
    ['no register', {}],
    ['a register that throws', { register: () => { throw new Error('settings API changed'); } }],
    ['a register returning nothing', { register: () => undefined }],
    ['a scope whose get and watch throw', { register: () => ({ get: () => { throw new Error('x'); }, watch: () => { throw new Error('y'); } }) }],
  ];
  for (const [label, service] of shapes) {
    test(label, async () => {
      const log: InjectLog = { asked: [], errors: [] };
      const host = new FakeHost(withSettings(plugin, service, log), { onLimit: 'deny', limits: { exact: 3 } });
      assert.deepEqual(log.errors, [], 'nothing thrown into the host');
      assert.deepEqual(deniedAt(await repeat(host, {}, 4, X)), [3, 4]);
    });
  }

  test('a ctx.inject that throws', async () => {
    const throwing = { apply: (ctx: Record<string, unknown>, config?: unknown) => plugin.apply({ ...ctx, inject: () => { throw new Error('no'); } } as never, config) };
    const host = new FakeHost(throwing, { onLimit: 'deny', limits: { exact: 3 } });
    assert.deepEqual(deniedAt(await repeat(host, {}, 4, X)), [3, 4]);
  });
});

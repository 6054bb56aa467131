/**
 * Chinese and English (issue 28): the two dictionaries of the card and of the
 * refusals hold the same keys, the same placeholders and no empty value; the
 * English texts read exactly as before; the Chinese ones are complete and use
 * the glossary's words; on the host, the ask and a refused settings write
 * follow `locale.preference` where the settings service holds one, and stay
 * English where it does not (or where the model, not an operator, would read
 * the ask).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { COPY, wordsOf } from '../../client/copy.js';
import { capField, groupsFor } from '../../client/fields.js';
import { viewForm } from '../../client/form.js';
import { DICTIONARIES, translator, type Key, type Translate } from '../../client/i18n.js';
import { EN } from '../../client/locales/en.js';
import { ZH } from '../../client/locales/zh.js';
import { inCardWords } from '../../client/wording.js';
import plugin from '../../src/index.js';
import { resolveConfig } from '../../src/lib/config/config.js';
import { asLocale, fill } from '../../src/lib/text/locale.js';
import { CONFIG_MESSAGES, ConfigError, configText, inLocale, refusalOf } from '../../src/lib/config/messages.js';
import type { ConfigMessage } from '../../src/lib/text/refusal.js';
import { createSettingsSchema } from '../../src/lib/config/schema.js';
import { createOperatorLocale, offerSettings, SETTINGS_NAMESPACE } from '../../src/lib/plugin/settings.js';
import { askMessage } from '../../src/lib/text/ask.js';
import type { HitFacts } from '../../src/lib/text/message.js';
import { failureTrack } from '../../src/lib/tracks/failure.js';
import { CALL_TRACKS } from '../../src/lib/tracks/index.js';
import { repeatTrack } from '../../src/lib/tracks/repeat.js';
import { FakeHost, type PluginModule } from '../support/fake-host.js';
import { FakeSettings, withSettings } from '../support/fake-settings.js';
import { allPairs, readGlossary, readmeProse } from '../support/glossary.js';
import { bash, repeat } from '../support/session.js';

const PREFIX = 'repeat-tool-breaker: ';
const ZH_WORDS = wordsOf(translator('zh'), 'zh');

function sortedKeys(record: object): string[] {
  return Object.keys(record).sort();
}

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();
}

/** What `resolveConfig` throws for a config. */
function thrown(config: unknown): unknown {
  try {
    resolveConfig(config);
  } catch (error) {
    return error;
  }
  throw new Error(`resolveConfig accepted ${JSON.stringify(config)}`);
}

function refusal(config: unknown): ConfigMessage {
  const data = refusalOf(thrown(config));
  if (data === undefined) throw new Error(`not one of our refusals: ${JSON.stringify(config)}`);
  return data;
}

/** Invalid configs that reach every template (nested ones included). */
const INVALID: readonly unknown[] = [
  5,
  { denyAfter: 2 },
  { blockShellHttp: true },
  { warnAfter: 3 },
  { maxSamePath: 1 },
  { readTools: [] },
  { limits: 5 },
  { exclude: 'x' },
  { onlimit: 'ask' },
  { xyz: 1 },
  { preset: 'recomended' },
  { preset: 7 },
  { warnAt: 'x' },
  { warnAt: 2.5 },
  { window: 2 },
  { exemptionCeiling: 0 },
  { stopAfter: 0 },
  { duplicateText: { threshold: 1 } },
  { duplicateText: { minChars: 0 } },
  { duplicateText: { windowMs: 0 } },
  { duplicateText: { cooldownMs: -1 } },
  { duplicateText: 5 },
  { duplicateText: { minchars: 3 } },
  { sequence: 5 },
  { sequence: { lenght: 3 } },
  { sequence: { length: 1 } },
  { sequence: { count: 1 } },
  { sequence: { limit: 1 } },
  { window: 8, sequence: {} },
  { stale: 5 },
  { stale: { warnat: 3 } },
  { stale: { warnAt: 1 } },
  { stale: { limit: 1 } },
  { stale: { warnAt: 5, limit: 3 } },
  { stale: { backToBack: 1 } },
  { stale: { warnAt: 3, limit: 5, backToBack: 2 } },
  { stale: { cycle: 1 } },
  { stale: { warnAt: 3, limit: 5, cycle: 2 } },
  { timeouts: { respelled: 1 } },
  { spin: { warnAt: 1 } },
  { spin: { limit: 1 } },
  { guess: { warnAt: 1 } },
  { guess: { limit: 1 } },
  { editRetry: { warnAt: 1 } },
  { editRetry: { limit: 1 } },
  { editRetry: { applied: 1 } },
  { editRetry: { resent: 1 } },
  { timeouts: { warnAt: 1 } },
  { timeouts: { limit: 1 } },
  { timeouts: 'on' },
  { localHosts: 'ask' },
  { localHosts: 'x' },
  { onLimit: 'x' },
  { includeLocal: 'yes' },
  { failLimit: 1 },
  { previewChars: 0 },
  { limits: { exakt: 3 } },
  { limits: { 'hots:x': 3 } },
  { limits: { exact: 1 } },
  { ignoreArgs: { bash: 'x' } },
  { progress: 1 },
  { failureProgress: 'x' },
];

describe('the two dictionaries', () => {
  test("the card's zh and en dictionaries have exactly the same keys, and no value is empty", () => {
    assert.deepEqual(sortedKeys(ZH), sortedKeys(EN));
    for (const [key, value] of [...Object.entries(EN), ...Object.entries(ZH)]) assert.notEqual(value.trim(), '', `${key} is empty`);
  });

  test('the refusal templates have the same keys in both languages, and no value is empty', () => {
    assert.deepEqual(sortedKeys(CONFIG_MESSAGES.zh), sortedKeys(CONFIG_MESSAGES.en));
    for (const locale of ['en', 'zh'] as const) {
      for (const [id, text] of Object.entries(CONFIG_MESSAGES[locale])) assert.notEqual(text.trim(), '', `${locale} ${id} is empty`);
    }
  });

  test('each Chinese template fills the same placeholders as its English one', () => {
    for (const key of Object.keys(DICTIONARIES.en) as Key[]) assert.deepEqual(placeholders(DICTIONARIES.zh[key] as string), placeholders(DICTIONARIES.en[key] as string), `card ${key}`);
    for (const id of Object.keys(CONFIG_MESSAGES.en)) {
      assert.deepEqual(placeholders(CONFIG_MESSAGES.zh[id] as string), placeholders(CONFIG_MESSAGES.en[id] as string), `refusal ${id}`);
    }
  });

  test('what the card registers with the locale service: the same keys in zh and en, the refusals under config.', () => {
    assert.deepEqual(sortedKeys(DICTIONARIES.zh), sortedKeys(DICTIONARIES.en));
    assert.equal(DICTIONARIES.zh['config.limitsCap'], CONFIG_MESSAGES.zh.limitsCap);
    assert.equal(DICTIONARIES.en.title, EN.title);
  });

  test('every key the card asks for is in the dictionaries, in both languages', () => {
    for (const locale of ['en', 'zh'] as const) {
      const missing = new Set<string>();
      const own = translator(locale);
      const t: Translate = (key, params) => {
        if (!Object.hasOwn(DICTIONARIES[locale], key)) missing.add(key);
        return own(key, params);
      };
      const words = wordsOf(t, locale);
      // Every call the card makes, with every branch of its plurals.
      for (const n of [1, 2]) {
        words.needFixing(n);
        words.defaultLines(n);
        words.deadStage(n === 1 ? ['a'] : ['a', 'b', 'c']);
      }
      words.header(true, 'x');
      words.header(false, 'x');
      words.deadAtCap(3, [{ key: 'warnAt', at: 7 }]);
      words.deadAtCap(3, [{ key: 'summarizeAt', at: 7 }, { key: 'failWarnAt', at: 9 }]);
      for (const config of INVALID) words.refusal(refusal(config));
      groupsFor(['exact', 'verb:curl:x'], words);
      assert.deepEqual([...missing], [], `${locale}: keys asked for but missing`);
    }
  });

  test('a missing key falls back to English, then to the key itself, as DSH looks keys up', () => {
    const t = translator('zh');
    assert.equal(t('nope' as Key), 'nope');
    assert.equal(fill('{a} and {b}', { a: 1 }), '1 and {b}', 'a placeholder without a param stays as written');
    assert.equal(asLocale('zh'), 'zh');
    for (const other of ['en', 'fr', undefined, null, 3]) assert.equal(asLocale(other), 'en', String(other));
  });
});

describe('the English texts read as before', () => {
  test("a thrown refusal's message is its English rendering, prefix and all, for every template", () => {
    const reached = new Set<string>();
    const collect = (message: ConfigMessage): void => {
      reached.add(message.id);
      for (const value of Object.values(message.params)) if (typeof value === 'object') collect(value);
    };
    for (const config of INVALID) {
      const error = thrown(config);
      assert.ok(error instanceof ConfigError, `a ConfigError for ${JSON.stringify(config)}`);
      assert.equal(error.message, PREFIX + configText(error.refusal), JSON.stringify(config));
      collect(error.refusal);
    }
    assert.deepEqual([...reached].sort(), sortedKeys(CONFIG_MESSAGES.en), 'the corpus reaches every template');
  });

  test("the card's own words for a refusal are the ones its English rewording gave (off for null)", () => {
    const cases: [string, unknown][] = [
      ['limits.exact', { limits: { exact: 1 } }],
      ['failLimit', { failLimit: 1 }],
      ['warnAt', { warnAt: 'x' }],
      ['exemptionCeiling', { exemptionCeiling: 0 }],
      ['stopAfter', { stopAfter: 0 }],
      ['sequence.limit', { sequence: { limit: 1 } }],
      ['stale.limit', { stale: { limit: 1 } }],
      ['stale.warnAt', { stale: { warnAt: 1 } }],
      ['window', { window: 2 }],
      ['duplicateText', { duplicateText: 5 }],
      ['sequence', { sequence: 5 }],
    ];
    const fields = new Map(groupsFor(['exact']).flatMap((g) => g.fields.map((f) => [f.path, f] as const)));
    for (const [path, config] of cases) {
      const field = fields.get(path);
      assert.ok(field !== undefined, `a field ${path}`);
      const english = (thrown(config) as Error).message.slice(PREFIX.length);
      assert.equal(inCardWords(refusal(config), field), inCardWords(english, field), path);
    }
    assert.match(inCardWords(refusal({ limits: { exact: 1 } }), capField('exact')), /must be a number >= 2, or `off` to stop counting it/);
    assert.match(inCardWords(refusal({ warnAt: 'x' }), fields.get('warnAt')), /1 or more; `off`, 0 or a negative number turns the stage off \(got "x"\)$/);
  });

  test('the English card words are the ones the tests and screenshots know', () => {
    assert.equal(COPY.header(false, COPY.title), 'Show settings: Repeat-tool breaker');
    assert.equal(COPY.needFixing(2), '2 fields need fixing:');
    assert.equal(COPY.defaultLines(1), 'Default: 1 line; Reset to default brings them back.');
    assert.equal(
      COPY.deadAtCap(3, [{ key: 'warnAt', at: 7 }, { key: 'summarizeAt', at: 11 }]),
      'The gate at 3 comes first: the first advisory (at 7) and second advisory (at 11) never fire for this measure.',
    );
    assert.equal(COPY.deadStage(['A', 'B', 'C']), 'Never fires for A, B and C: their caps are at or below it.');
    assert.equal(COPY.badLine('hostAliases', 2, 'from = to', 'x'), '`hostAliases` line 2 must read `from = to` (got "x")');
  });

  test('the ask is English unless another language is asked for', () => {
    const words = repeatTrack.words;
    const hits: HitFacts[] = [{ words, quote: 'exact:x', count: 4, cap: 4, detail: '' }];
    const bash = { name: 'bash', shell: true };
    assert.equal(askMessage(bash, hits, 2), askMessage(bash, hits, 2, 'en'));
    assert.match(askMessage(bash, hits), /^Loop breaker: this would be the 4th run of this command among the agent's recent calls\. Allow once /);
  });
});

describe('the refusals in Chinese', () => {
  test('every refusal renders in Chinese, every placeholder filled', () => {
    for (const config of INVALID) {
      const text = configText(refusal(config), 'zh');
      assert.doesNotMatch(text, /\{\w+\}/, `an unfilled placeholder: ${text}`);
      assert.match(text, /[\u4e00-\u9fff]/, `Chinese: ${text}`);
    }
  });

  test('the card says a refusal in its language with its own words for what a control takes', () => {
    assert.equal(
      inCardWords(refusal({ limits: { exact: 1 } }), capField('exact', ZH_WORDS), ZH_WORDS),
      '`limits.exact` 必须是不小于 2 的数字，或填 `off` 停止计数（实际为 1）；低于 2 的上限会拒绝第一次调用',
      'the card takes what the host takes: a number, fractions included',
    );
    assert.equal(configText(refusal({ limits: { exact: 1 } }), 'zh'), '`limits.exact` 必须是不小于 2 的数字，或填 null 停止计数（实际为 1）；低于 2 的上限会拒绝第一次调用', 'YAML words on the host');
    const form = viewForm({}, {}, new Map([['window', { kind: 'text', text: '2' }]]), ZH_WORDS);
    const window = form.groups.flatMap((g) => g.fields).find((f) => f.field.path === 'window');
    assert.equal(window?.error, '`window` 必须是不小于 4 的整数（实际为 2）；它表示每个 agent 计入多少次最近的调用');
    assert.equal(window?.field.label, '窗口');
    assert.deepEqual(form.problems, [{ path: 'window', label: `${ZH_WORDS.folds.counted} › 窗口` }]);
  });

  test('inLocale: our refusal in Chinese keeps the prefix and the refusal; English and foreign errors pass as they are', () => {
    const error = thrown({ window: 2 });
    const zh = inLocale(error, 'zh');
    assert.ok(zh instanceof ConfigError, 'still one of ours');
    assert.equal(zh.message, PREFIX + configText(refusal({ window: 2 }), 'zh'));
    assert.equal(inLocale(error, 'en'), error);
    const foreign = new Error('x');
    assert.equal(inLocale(foreign, 'zh'), foreign);
  });

  test('the live schema refuses in the language it is given, through its call and its standard validate', () => {
    const schema = createSettingsSchema(() => 'zh');
    assert.throws(() => schema({ window: 2 }), { message: PREFIX + configText(refusal({ window: 2 }), 'zh') });
    const result = schema['~standard'].validate({ window: 2 });
    assert.ok('issues' in result, 'refused');
    assert.equal(result.issues[0]?.message, PREFIX + configText(refusal({ window: 2 }), 'zh'));
    assert.throws(() => createSettingsSchema()({ window: 2 }), { message: (thrown({ window: 2 }) as Error).message }, 'English by default');
  });
});

/** A settings service holding DSH's `locale` namespace at `preference`. */
function settingsWithLocale(preference: string | undefined): FakeSettings {
  const settings = new FakeSettings();
  if (preference !== undefined) settings.document.locale = { preference };
  settings.register('locale', (value) => value);
  return settings;
}

/** The plugin on a host that has an approval service (the web profile): `ctx.get('approval')` answers. */
function withApproval(module: PluginModule): PluginModule {
  return { apply: (ctx: Record<string, unknown>, config?: unknown) => module.apply({ ...ctx, get: (name: string) => (name === 'approval' ? {} : undefined) }, config) };
}

async function refusedWith(settings: FakeSettings, patch: Record<string, unknown>): Promise<string> {
  try {
    await settings.update(SETTINGS_NAMESPACE, patch);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the update was accepted');
}

describe("the operator's language on the host", () => {
  test('a settings write refused while locale.preference is zh says why in Chinese; after a switch to en, in English', async () => {
    const settings = settingsWithLocale('zh');
    new FakeHost(withSettings(plugin, settings), {});
    assert.equal(await refusedWith(settings, { window: 2 }), PREFIX + configText(refusal({ window: 2 }), 'zh'));
    assert.equal(settings.writes, 0, 'nothing stored');
    await settings.update('locale', { preference: 'en' });
    assert.equal(await refusedWith(settings, { window: 2 }), (thrown({ window: 2 }) as Error).message);
  });

  test('with no locale namespace (headless) a refusal is English, and the plugin runs as before', async () => {
    const settings = new FakeSettings();
    const host = new FakeHost(withApproval(withSettings(plugin, settings)), { limits: { exact: 3 } });
    assert.equal(await refusedWith(settings, { window: 2 }), (thrown({ window: 2 }) as Error).message);
    const asked = (await repeat(host, {}, 3, bash('make'))).at(-1);
    assert.match(asked?.askReason ?? '', /^Loop breaker: /);
  });

  test('the ask follows the preference where an approval panel shows it', async () => {
    const settings = settingsWithLocale('zh');
    const host = new FakeHost(withApproval(withSettings(plugin, settings)), { limits: { exact: 3 } });
    const outcomes = await repeat(host, {}, 3, bash('make'));
    assert.equal(outcomes[2]?.asked, true, 'the third call is asked about');
    assert.match(outcomes[2]?.askReason ?? '', /^重复调用断路器：这将是 agent 最近的调用中第 3 次运行这条命令。允许一次：/);
    await settings.update('locale', { preference: 'en' });
    // Another agent (the first has refused the measure this turn, so it is not asked again).
    const again = await repeat(host, {}, 3, bash('make'));
    assert.match(again[2]?.askReason ?? '', /^Loop breaker: /, 'a switch applies to the next ask');
  });

  test('without an approval service the ask stays English: DSH denies with its reason, and the model reads it', async () => {
    const settings = settingsWithLocale('zh');
    const host = new FakeHost(withSettings(plugin, settings), { limits: { exact: 3 } });
    const outcomes = await repeat(host, {}, 3, bash('make'));
    assert.match(outcomes[2]?.askReason ?? '', /^Loop breaker: /);
  });

  test('the operator locale: English with no service, a broken service, or once the service is gone', () => {
    const operator = createOperatorLocale();
    assert.equal(operator.current(), 'en', 'no service yet');
    const broken = {
      register: () => ({ get: () => ({}), watch: () => () => undefined }),
      get: () => {
        throw new Error('no');
      },
    };
    const effects: (() => void)[] = [];
    const ctx = { inject: (_: unknown, callback: (sctx: unknown) => void) => callback({ settings: broken, effect: (run: () => () => void) => effects.push(run()) }) };
    offerSettings(ctx, {}, resolveConfig({}), () => undefined, operator);
    assert.equal(operator.current(), 'en', 'a service whose get throws');
    const zh = createOperatorLocale();
    const service = settingsWithLocale('zh');
    const gone: (() => void)[] = [];
    offerSettings({ inject: (_: unknown, callback: (sctx: unknown) => void) => callback({ settings: service, effect: (run: () => () => void) => gone.push(run()) }) }, {}, resolveConfig({}), () => undefined, zh);
    assert.equal(zh.current(), 'zh');
    for (const dispose of gone) dispose();
    assert.equal(zh.current(), 'en', 'the service went away');
  });
});

describe('the ask in Chinese', () => {
  const bash = { name: 'bash', shell: true };

  test('every track has Chinese words for its ask, none of them English', () => {
    for (const { words } of CALL_TRACKS) {
      const text = askMessage(bash, [{ words, quote: 'exact:bash:{"command":"make"}', count: 4, cap: 4, detail: '' }], null, 'zh');
      assert.match(text, /^重复调用断路器：.+。允许一次：.+。拒绝：.+。$/, `${words.track}: ${text}`);
      assert.doesNotMatch(text.replace(/\u201c[^\u201d]*\u201d/g, '').replaceAll('agent', ''), /[A-Za-z]{3,}/, `${words.track}: no English outside its quotations but "agent": ${text}`);
    }
  });

  test('one hit: what and why, then the buttons named as DSH names them in Chinese', () => {
    const words = repeatTrack.words;
    const hit: HitFacts = { words, quote: 'exact:bash:{"command":"make"}', count: 12, cap: 12, detail: '' };
    assert.equal(
      askMessage(bash, [hit], null, 'zh'),
      '重复调用断路器：这将是 agent 最近的调用中第 12 次运行这条命令。' +
        '允许一次：放行这次调用，并在你发送下一条消息之前不再对同类调用计数。' +
        '拒绝：阻止这次调用和同类调用，直到你发送下一条消息。',
    );
  });

  test('two tracks and a ceiling: the failure worded in Chinese, the other track after 另外, how many more calls', () => {
    const failure = failureTrack.words;
    const repeat = repeatTrack.words;
    const hits: HitFacts[] = [
      { words: failure, quote: 'cmd:make:make', count: 5, cap: 5, detail: 'the command exited with status 2', failure: { reason: 'exit', detail: '2' } },
      { words: repeat, quote: 'exact:a', count: 12, cap: 12, detail: '' },
    ];
    const text = askMessage(bash, hits, 2, 'zh');
    assert.equal(
      text,
      '重复调用断路器：这条命令已连续失败 5 次（退出状态 2）。另外：在 agent 最近的调用中出现 12 次。' +
        '允许一次：放行这次调用及之后至多 2 次同类调用；再往后的同类调用在你发送下一条消息之前都会被阻止。' +
        '拒绝：阻止这次调用和同类调用，直到你发送下一条消息。',
    );
    assert.doesNotMatch(text, /exited|Allow once|Reject/, 'no English in it');
  });
});

describe('the glossary', () => {
  const terms = readGlossary();
  const pairs = allPairs();

  test('the glossary table has its terms, each with its Chinese word', () => {
    assert.ok(terms.length >= 30, `${terms.length} terms`);
    for (const term of ['measure', 'fingerprint', 'stage', 'gate', 'exemption', 'track', 'advisory', 'window']) {
      assert.ok(terms.some((t) => t.english === term), `a row for ${term}`);
    }
    assert.equal(terms.find((t) => t.english === 'gate')?.chinese, '闸门');
  });

  test('no Chinese text uses a word the glossary rules out', () => {
    const texts = [...pairs.map((p) => [p.where, p.zh] as const), ['README.zh.md', readmeProse()] as const];
    const found: string[] = [];
    for (const term of terms) for (const word of term.avoid) for (const [where, text] of texts) if (text.includes(word)) found.push(`${where}: ${word} (say ${term.chinese})`);
    assert.deepEqual(found, []);
  });

  test('wherever the English says a glossary term, the Chinese beside it says the chosen word', () => {
    const missing: string[] = [];
    for (const term of terms) {
      if (term.pattern === undefined) continue;
      for (const pair of pairs) {
        // A quotation is the model's text (P15), the same in both languages: only our own words are held to the glossary.
        const prose = pair.en.replace(/\u201c[^\u201d]*\u201d/g, '\u201c\u2026\u201d');
        if (term.pattern.test(prose) && !pair.zh.toLowerCase().includes(term.chinese.toLowerCase())) missing.push(`${pair.where}: "${term.english}" but no ${term.chinese}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('every chosen word is used by some Chinese text', () => {
    const corpus = pairs.map((p) => p.zh).join('\n');
    for (const term of terms) assert.ok(corpus.toLowerCase().includes(term.chinese.toLowerCase()), `${term.chinese} (${term.english}) is used`);
  });
});

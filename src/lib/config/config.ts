/**
 * Configuration: the shipped defaults, how a user config is laid over them, and
 * the fail-loud checks that run once, at load. The core settings are here; each
 * track's own comes from its meta (`meta.setting`, over the registry's
 * SETTINGS), so this file names no track. Every error names the key, the value
 * it got and what would be accepted, so a broken profile is fixed in one read.
 */

import { deepFreeze } from '../host/freeze.js';
import { isMapping } from '../host/member.js';
import { atLeast, message, near, refuse, shown } from '../setting/check.js';
import type { CoreConfig } from '../setting/core.js';
import type { Locale } from '../text/locale.js';
import { SETTINGS, type TrackSettings } from '../tracks/meta.js';
import { asConfigError, inLocale } from './messages.js';
import { layConfig, PRESET_NAMES, PRESETS, presetConfig } from './preset.js';

export type { FailureProgress, LocalHosts, OnLimit, Progress } from '../setting/core.js';
export type { StagesConfig } from '../setting/stages.js';
export type { SequenceConfig } from '../tracks/sequence.meta.js';
export type { DuplicateTextConfig } from '../tracks/duplicate-text.meta.js';

/** The configuration every call is judged by: the core settings, and each track's own (off, `null`, by default). */
export type BreakerConfig = CoreConfig & TrackSettings;

const DECOYS_EVERYWHERE = ['description', 'timeoutMs', 'run_in_background', 'justification', 'reason', 'title', 'comment'];
const DECOYS_SHELL = ['description', 'timeoutMs', 'run_in_background', 'justification'];

/** 0.5.2's settings as shipped (the reference's numbers). */
const REFERENCE_DEFAULTS = {
  window: 16,
  onLimit: 'ask',
  localHosts: 'deny',
  warnAt: 7,
  summarizeAt: 11,
  failWarnAt: 3,
  failLimit: 5,
  includeLocal: false,
  previewChars: 400,
  resultPreviewChars: 800,
  exclude: ['todo_write'],
  include: [],
  ignoreArgs: {
    '*': DECOYS_EVERYWHERE,
    bash: DECOYS_SHELL,
    pwsh: [...DECOYS_SHELL],
    shell: [...DECOYS_SHELL],
  },
  // The two `www.` keys never match (www. is stripped before the lookup); kept as shipped.
  hostAliases: {
    'open-data.canada.ca': 'open.canada.ca',
    'www.open.canada.ca': 'open.canada.ca',
    'www.open-data.canada.ca': 'open.canada.ca',
  },
  limits: {
    exact: 12,
    cmd: 12,
    net: 12,
    sink: 12,
    host: 16,
    site: null,
    'family:http-fetch': null,
    'verb:curl': null,
    'verb:wget': null,
    // Opt-in beyond 0.5.2: the spelling-insensitive action of a shell command (docs/act.md).
    act: null,
  },
} satisfies Omit<CoreConfig, OptInKey | 'preset'>;

/** The core's settings beyond 0.5.2: each off by default, so the defaults stay the reference's. */
type OptInKey = 'progress' | 'exemptionCeiling' | 'failureProgress' | 'stopAfter';

/**
 * An opt-in setting, the core's or a track's: where it comes (`order`, shared
 * with the tracks' settings), its value when off, and its check.
 */
interface OptIn {
  readonly key: string;
  readonly order: number;
  readonly off: unknown;
  check(value: unknown, core: CoreConfig): unknown;
}

/**
 * The core's opt-ins. Each sits among the tracks' own by `order` (the
 * numbering `Setting.order` shares): the shipped config lists the opt-ins,
 * and the checks read them, in the order they were added to the product, so a
 * config with two refused values names the same one first as it always did.
 */
const CORE_OPT_INS: readonly OptIn[] = [
  { key: 'progress', order: 2, off: 'ignore', check: progressOf },
  { key: 'exemptionCeiling', order: 3, off: null, check: exemptionCeilingOf },
  { key: 'failureProgress', order: 10, off: 'ignore', check: failureProgressOf },
  { key: 'stopAfter', order: 11, off: null, check: stopAfterOf },
];

/** Every opt-in, the core's and each track's (off: `null`), in their order. */
const OPT_INS: readonly OptIn[] = [
  ...CORE_OPT_INS,
  ...SETTINGS.map((setting): OptIn => ({ key: setting.key, order: setting.order, off: null, check: (value, core) => setting.check(value, core) })),
].sort((a, b) => a.order - b.order);

/** The shipped configuration: 0.5.2's settings, then every opt-in, off, then the preset (none). Deep-frozen. */
export const DEFAULTS: BreakerConfig = deepFreeze({
  ...REFERENCE_DEFAULTS,
  ...Object.fromEntries(OPT_INS.map((optIn) => [optIn.key, optIn.off])),
  preset: null,
} as unknown as BreakerConfig);

/** Keys removed in 0.2.0, each with where its intent lives now (the words are in text/refusal.ts). */
const REMOVED_KEYS: Readonly<Record<string, string>> = {
  denyAfter: 'removed.denyAfter',
  warnAfter: 'removed.warnAt',
  registerAdvisory: 'removed.warnAt',
  maxSamePath: 'removed.maxSamePath',
  readTools: 'removed.readLike',
  matchReadBySubstring: 'removed.readLike',
};

/**
 * The settings of the JavaScript 0.6 line's shell-HTTP block (a refusal of
 * curl/wget that sent the model to a `web_fetch_file` tool). This line does not
 * carry the block, so a profile or a `settings.yaml` written for 0.6.1 is told
 * where the key came from rather than that it is no setting.
 */
const JS_LINE_KEYS: ReadonlySet<string> = new Set(['blockShellHttp', 'blockLocalHttp', 'fetchWithCurl', 'shellHttpBlock', 'shellHttpAllow']);

/**
 * Keys with no setting behind them that are still accepted: `pathAliases` was
 * ignored by 0.5.2 and older profiles still carry it (contract §1.5).
 */
const IGNORED_KEYS: ReadonlySet<string> = new Set(['pathAliases']);

/**
 * The measures a `limits` key can name, alone (`exact`) or as the head of a
 * full fingerprint (`verb:curl`, `host:api.example.com`): every measure the
 * fingerprints emit (call/fingerprint.ts; a unit test keeps the two in step).
 */
export const MEASURES: readonly string[] = ['exact', 'verb', 'family', 'cmd', 'act', 'net', 'site', 'host', 'sink'];

const MAP_KEYS = ['ignoreArgs', 'hostAliases', 'limits'] as const;
const LIST_KEYS = ['exclude', 'include'] as const;

/** A check's refusal said in words (`ConfigError`): what every entry point below throws. */
function checked<A extends unknown[], R>(check: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return check(...args);
    } catch (error) {
      throw asConfigError(error);
    }
  };
}

/**
 * Lays a user config over DEFAULTS: scalars and arrays replace, the three maps
 * merge one level deep (a user entry replaces that entry's default value), and a
 * key present with the value `undefined` still replaces. An unknown key fails (P11).
 */
export const mergeConfig: (given?: unknown) => Record<string, unknown> = checked((given: unknown = {}) => {
  if (!isMapping(given)) refuse('notObject', { got: shown(given) });
  for (const key of Object.keys(given)) {
    // Own keys only: `constructor` or `toString` is an unknown key, not a removed one.
    if (Object.hasOwn(REMOVED_KEYS, key)) refuse('removed', { key, hint: message(REMOVED_KEYS[key] as string) });
    if (JS_LINE_KEYS.has(key)) refuse('jsLine', { key, got: shown(given[key]) });
  }
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(DEFAULTS, key) && !IGNORED_KEYS.has(key)) unknownKey(key, given[key]);
  }
  const config = withPreset(given);
  const merged: Record<string, unknown> = { ...DEFAULTS, ...config };
  for (const key of MAP_KEYS) {
    const value = config[key];
    if (value === undefined) {
      merged[key] = { ...DEFAULTS[key] };
      continue;
    }
    if (!isMapping(value)) refuse('notMapping', { key, got: shown(value) });
    merged[key] = { ...DEFAULTS[key], ...value };
  }
  for (const key of LIST_KEYS) {
    const value = merged[key];
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
      refuse('notList', { key, got: shown(value) });
    }
    merged[key] = [...(value as string[])];
  }
  return merged;
});

/**
 * An unknown key fails the load (decision P11): a typo such as `onlimit` would
 * otherwise leave the setting at its default while the user believes it is set.
 */
function unknownKey(key: string, value: unknown): never {
  refuse('unknownKey', { path: key, got: shown(value), near: near('unknownKey.near', key, Object.keys(DEFAULTS)) });
}

/**
 * The user's config with its preset laid underneath (preset.ts): the preset's
 * settings, then every key the user wrote. No preset: the config as given.
 */
function withPreset(config: Record<string, unknown>): Record<string, unknown> {
  const name = config.preset;
  if (name === undefined || name === null) return config;
  if (typeof name !== 'string' || !Object.hasOwn(PRESETS, name)) {
    // Stryker disable next-line StringLiteral: with one preset no separator shows
    const separator = ', ';
    refuse('preset', { names: PRESET_NAMES.map((known) => `\`${known}\``).join(separator), got: shown(name), near: typeof name === 'string' ? near('nearTail', name, PRESET_NAMES) : '' });
  }
  return layConfig(presetConfig(PRESETS[name] as (typeof PRESETS)[string]), config);
}

/** A stage threshold: off when absent, zero or negative; otherwise a positive integer. */
function stage(value: unknown, key: string): number | null {
  if (value === null || value === undefined) return null;
  // Number.isFinite is false for every non-number.
  if (!Number.isFinite(value)) {
    refuse('stageNumber', { key, got: shown(value) });
  }
  const calls = value as number;
  if (calls <= 0) return null;
  if (!Number.isInteger(calls)) refuse('stageWhole', { key, got: shown(calls) });
  return calls;
}

function isCap(value: unknown): boolean {
  // Number.isFinite is false for every non-number.
  return Number.isFinite(value) && (value as number) >= 2;
}

/** The `limits` entries: each names a measure, or a full fingerprint that starts with one (P11), and is a cap or null. */
function checkLimits(limits: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(limits)) {
    const colon = key.indexOf(':');
    const measure = colon < 0 ? key : key.slice(0, colon);
    if (!MEASURES.includes(measure)) {
      refuse('limitsMeasure', {
        key,
        got: shown(value),
        measures: MEASURES.map((m) => `\`${m}\``).join(', '),
        near: near('nearTail', measure, MEASURES, (closest) => `${closest}${key.slice(measure.length)}`),
      });
    }
    if (value !== null && !isCap(value)) {
      refuse('limitsCap', { key, got: shown(value) });
    }
  }
}

/**
 * 0.5.2's settings, checked in a fixed order. No setting of 0.5.2 is compared
 * with another: inverted stages or a cap below a stage are legal intent.
 */
function referenceOf(merged: Record<string, unknown>): CoreConfig {
  const { localHosts, onLimit, includeLocal, failLimit } = merged;
  atLeast(merged.window, 'window', 4, 'meaning.window');
  if (localHosts === 'ask') refuse('localHostsAsk');
  if (localHosts !== 'deny' && localHosts !== 'allow') refuse('localHosts', { got: shown(localHosts) });
  if (onLimit !== 'ask' && onLimit !== 'deny') refuse('onLimit', { got: shown(onLimit) });
  if (typeof includeLocal !== 'boolean') refuse('includeLocal', { got: shown(includeLocal) });
  const warnAt = stage(merged.warnAt, 'warnAt');
  const summarizeAt = stage(merged.summarizeAt, 'summarizeAt');
  const failWarnAt = stage(merged.failWarnAt, 'failWarnAt');
  if (failLimit !== null && !isCap(failLimit)) {
    refuse('failLimit', { got: shown(failLimit) });
  }
  for (const key of ['previewChars', 'resultPreviewChars'] as const) {
    const value = merged[key];
    if (!Number.isInteger(value) || (value as number) < 1) {
      refuse('previewChars', { key, got: shown(value) });
    }
  }
  checkLimits(merged.limits as Record<string, unknown>);
  for (const [key, value] of Object.entries(merged.ignoreArgs as Record<string, unknown>)) {
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
      refuse('ignoreArgs', { key, got: shown(value) });
    }
  }
  const preset = merged.preset ?? null;
  return { ...(merged as unknown as CoreConfig), warnAt, summarizeAt, failWarnAt, failLimit: failLimit as number | null, preset: preset as string | null };
}

function progressOf(progress: unknown): unknown {
  if (progress !== 'ignore' && progress !== 'results' && progress !== 'changes' && progress !== 'outcomes') {
    refuse('progress', { got: shown(progress) });
  }
  return progress;
}

function exemptionCeilingOf(ceiling: unknown): unknown {
  if (ceiling !== null) atLeast(ceiling, 'exemptionCeiling', 1, 'meaning.exemptionCeiling');
  return ceiling;
}

function stopAfterOf(stopAfter: unknown): unknown {
  if (stopAfter !== null) atLeast(stopAfter, 'stopAfter', 1, 'meaning.stopAfter');
  return stopAfter;
}

function failureProgressOf(failureProgress: unknown): unknown {
  if (failureProgress !== 'ignore' && failureProgress !== 'restart' && failureProgress !== 'outcomes') {
    refuse('failureProgress', { got: shown(failureProgress) });
  }
  return failureProgress;
}

/**
 * Checks a merged config in a fixed order and returns it typed: 0.5.2's
 * settings, then every opt-in in its order, the core's and each track's
 * (`meta.setting.check`), which may read 0.5.2's (the sequence track is
 * bounded by `window`).
 */
export const validateConfig: (merged: Record<string, unknown>) => BreakerConfig = checked((merged: Record<string, unknown>) => {
  const core = referenceOf(merged);
  const optIns: Record<string, unknown> = {};
  for (const optIn of OPT_INS) optIns[optIn.key] = optIn.check(merged[optIn.key], core);
  const made = settled(core as unknown as Record<string, unknown>, optIns);
  keepTwin(core as unknown as Record<string, unknown>, optIns);
  return made;
});

/**
 * The latest configuration of each shape, as a twin: a copy no one is judged
 * by, with tables of its own, so nothing read under a configuration (a recent
 * URL, under its alias table) is held with it. It keeps the shape alive when
 * every configuration of it is collected (between one load and the next), and
 * with it the code that reads configurations (host/shape.ts): in the bench's
 * sessions, the ask's and the guard's paths were thrown away ("weak objects")
 * 20 times in 3 rounds without it, never with it. Configurations differ in
 * shape only by the ignored keys they carry (`pathAliases`), so a few at most
 * are held, by their number of keys.
 */
const twins = new Map<number, BreakerConfig>();

// Stryker disable BlockStatement,ObjectLiteral: the twin is never read; it only keeps the shape alive
function keepTwin(core: Record<string, unknown>, optIns: Record<string, unknown>): void {
  const tables: Record<string, unknown> = { ...core };
  for (const key of MAP_KEYS) tables[key] = { ...(core[key] as object) };
  const twin = settled(tables, optIns);
  twins.set(Object.keys(twin).length, twin);
}
// Stryker restore BlockStatement,ObjectLiteral

/**
 * `{ ...core, ...optIns }`, its members written one by one into a fresh object:
 * the same keys, in the same order, with the same values. Copies by spread took
 * hidden classes of several lineages (one per shape of what was spread), so the
 * code that reads a configuration met several and was thrown away as each died
 * with its sessions' configurations (host/shape.ts); written into `{}`, every
 * configuration follows one line of shapes. No key is `__proto__`: mergeConfig
 * refuses it as an unknown key.
 */
function settled(core: Record<string, unknown>, optIns: Record<string, unknown>): BreakerConfig {
  const config: Record<string | symbol, unknown> = {};
  for (const key of Object.keys(core)) config[key] = Object.hasOwn(optIns, key) ? optIns[key] : core[key];
  // Stryker disable next-line ConditionalExpression: an opt-in core has is written again with the value the loop above gave it, in its place
  for (const key of Object.keys(optIns)) if (!Object.hasOwn(core, key)) config[key] = optIns[key];
  // A symbol key (a caller's object, never a profile's) comes last, as a spread puts it.
  for (const symbol of Object.getOwnPropertySymbols(core)) config[symbol] = (core as Record<symbol, unknown>)[symbol];
  return config as unknown as BreakerConfig;
}

/** Merge then validate: the one call `apply` makes. Throws on a bad config. */
export function resolveConfig(config: unknown = {}): BreakerConfig {
  return validateConfig(mergeConfig(config));
}

/** `resolveConfig` for a reader of `locale` (the live settings' operator): a refusal is thrown in their language. */
export function resolveConfigIn(config: unknown, locale: () => Locale): BreakerConfig {
  try {
    return resolveConfig(config);
  } catch (error) {
    throw inLocale(error, locale());
  }
}

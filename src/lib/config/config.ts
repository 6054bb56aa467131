/**
 * Configuration: the shipped defaults, how a user config is laid over them, and
 * the fail-loud checks that run once, at load. Every error names the key, the
 * value it got and what would be accepted, so a broken profile is fixed in one read.
 */

import { isMapping } from '../host/member.js';
import type { Locale } from '../text/locale.js';
import { ConfigError, inLocale, type ConfigMessage, type ConfigMessageId, type MessageParam } from './messages.js';
import { nearestName } from './nearest.js';
import { layConfig, PRESET_NAMES, PRESETS, presetConfig } from './preset.js';

export type OnLimit = 'ask' | 'deny';
export type LocalHosts = 'deny' | 'allow';
/** `results`: a repeat gate waits while the results differ; `changes`: a repeat after a change to the workspace counts from 1 again. */
export type Progress = 'ignore' | 'results' | 'changes' | 'outcomes';

/** The sequence track (opt-in): cycles of different calls that repeat back to back. */
export interface SequenceConfig {
  /** Longest cycle looked for, in distinct calls (at least 2). */
  readonly length: number;
  /** Complete repetitions at which the advisory fires. */
  readonly count: number;
  /** Complete repetitions after which a call continuing the cycle meets the gate; `null`: advise only. */
  readonly limit: number | null;
}

/** A track with an advisory and a gate counted in calls (`stale`, `editRetry`). */
export interface StagesConfig {
  /** The count at which the advisory fires; `null`: no advisory. */
  readonly warnAt: number | null;
  /** The count after which the next such call meets the gate; `null`: advise only. */
  readonly limit: number | null;
}

/** `ignore` (0.5.2): every failure extends a streak. `restart`: a new error, or a change to the workspace in between, starts it again. */
export type FailureProgress = 'ignore' | 'restart' | 'outcomes';

/** The duplicated-context track's settings (opt-in; see docs/duplicate-context.md). */
export interface DuplicateTextConfig {
  /** Shortest text block (after normalising line ends and trailing spaces) that is fingerprinted. */
  readonly minChars: number;
  /** Occurrences within `windowMs` that earn a notice. */
  readonly threshold: number;
  readonly windowMs: number;
  /** Silence for one text after its notice. */
  readonly cooldownMs: number;
}

export interface BreakerConfig {
  /** Recent committed calls per agent that are counted. */
  readonly window: number;
  /** What the gate does at a cap or at the failure limit. */
  readonly onLimit: OnLimit;
  /** Whether purely local traffic is fingerprinted by target. */
  readonly localHosts: LocalHosts;
  /** Occurrence stage 1; `null` when off. */
  readonly warnAt: number | null;
  /** Occurrence stage 2; `null` when off. */
  readonly summarizeAt: number | null;
  /** Failure stage 1; `null` when off. */
  readonly failWarnAt: number | null;
  /** Failure gate; `null` when off. */
  readonly failLimit: number | null;
  /** Whether local hosts feed the `host:` measure. */
  readonly includeLocal: boolean;
  readonly previewChars: number;
  readonly resultPreviewChars: number;
  readonly exclude: readonly string[];
  readonly include: readonly string[];
  /** Decoy argument names per tool (`*` for every tool), dropped before fingerprinting. */
  readonly ignoreArgs: Readonly<Record<string, readonly string[]>>;
  readonly hostAliases: Readonly<Record<string, string>>;
  /** Occurrence caps (stage 3) per measure or per full fingerprint; `null` disables both tracks. */
  readonly limits: Readonly<Record<string, number | null>>;
  /** The sequence track; `null` (the default) leaves it off. */
  readonly sequence: SequenceConfig | null;
  /**
   * `results`: a repeat gate on an action measure waits while its recent results still differ.
   * `changes`: a run after a change to the workspace is a new experiment, counted from 1 again.
   */
  readonly progress: Progress;
  /** Calls an approved exemption allows before the measure is denied outright; `null`: unlimited. */
  readonly exemptionCeiling: number | null;
  /** The duplicated-context track; `null` (the default) when off. */
  readonly duplicateText: DuplicateTextConfig | null;
  /** The stale track: the same call returning the same result (tracks/stale.ts); `null` (the default) when off. */
  readonly stale: StagesConfig | null;
  /** The spin track: a stretch of calls that return nothing new (tracks/spin.ts); `null` (the default) when off. */
  readonly spin: StagesConfig | null;
  /** The guess track: one word enumerated by hand, failing the same way (tracks/guess.ts); `null` (the default) when off. */
  readonly guess: StagesConfig | null;
  /** The edit-retry track: rejected edits of one file in a row (tracks/edit-retry.ts); `null` (the default) when off. */
  readonly editRetry: StagesConfig | null;
  /** The timeout track: one program running out of time again and again (tracks/timeout.ts); `null` (the default) when off. */
  readonly timeouts: StagesConfig | null;
  /** How a failure streak treats progress between failures. */
  readonly failureProgress: FailureProgress;
  /** The preset laid under the user's settings (preset.ts); `null`: none, every setting as written or the default. */
  readonly preset: string | null;
}

const DECOYS_EVERYWHERE = ['description', 'timeoutMs', 'run_in_background', 'justification', 'reason', 'title', 'comment'];
const DECOYS_SHELL = ['description', 'timeoutMs', 'run_in_background', 'justification'];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** The shipped configuration (the reference's 0.5.2 numbers). Deep-frozen. */
export const DEFAULTS: BreakerConfig = deepFreeze({
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
  // Opt-in behaviour beyond 0.5.2; off by default, so the defaults stay the reference's.
  sequence: null,
  progress: 'ignore',
  exemptionCeiling: null,
  duplicateText: null,
  stale: null,
  spin: null,
  guess: null,
  editRetry: null,
  timeouts: null,
  failureProgress: 'ignore',
  preset: null,
});

/** What `duplicateText: {}` turns on; each sub-key may be given alone. */
export const DUPLICATE_TEXT_DEFAULTS: DuplicateTextConfig = Object.freeze({
  minChars: 80,
  threshold: 3,
  windowMs: 120_000,
  cooldownMs: 30_000,
});

/** What `sequence: {}` means: the values a partial `sequence` mapping is completed with. */
export const SEQUENCE_DEFAULTS: SequenceConfig = deepFreeze({ length: 4, count: 3, limit: null });

/** What `stale: {}` means: the advisory at the 3rd same result in a row, the gate after the 4th. */
export const STALE_DEFAULTS: StagesConfig = deepFreeze({ warnAt: 3, limit: 4 });

/** What `spin: {}` means: the advisory at the 5th call in a row that returns nothing new, the gate after the 7th. */
export const SPIN_DEFAULTS: StagesConfig = deepFreeze({ warnAt: 5, limit: 7 });

/** What `guess: {}` means: the advisory at the 4th value tried in one place, failing the same way; the gate after the 6th. */
export const GUESS_DEFAULTS: StagesConfig = deepFreeze({ warnAt: 4, limit: 6 });

/** What `editRetry: {}` means: the advisory at the 3rd rejected edit of a file in a row, the gate after the 4th. */
export const EDIT_RETRY_DEFAULTS: StagesConfig = deepFreeze({ warnAt: 3, limit: 4 });

/** What `timeouts: {}` means: the advisory at a program's 3rd time-out this turn, no gate. */
export const TIMEOUTS_DEFAULTS: StagesConfig = deepFreeze({ warnAt: 3, limit: null });

/** Keys removed in 0.2.0, each with where its intent lives now (the words are in messages.ts). */
const REMOVED_KEYS: Readonly<Record<string, ConfigMessageId>> = {
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
 * fingerprints emit (read/fingerprint.ts; a unit test keeps the two in step).
 */
export const MEASURES: readonly string[] = ['exact', 'verb', 'family', 'cmd', 'act', 'net', 'site', 'host', 'sink'];

const MAP_KEYS = ['ignoreArgs', 'hostAliases', 'limits'] as const;
const LIST_KEYS = ['exclude', 'include'] as const;

/** Throws the refusal `id` (messages.ts): its English text is the error's message, as a profile's load error reads it. */
function fail(id: ConfigMessageId, params: Readonly<Record<string, MessageParam>> = {}): never {
  throw new ConfigError({ id, params });
}

function message(id: ConfigMessageId, params: Readonly<Record<string, MessageParam>> = {}): ConfigMessage {
  return { id, params };
}

/**
 * The "did you mean" part of a refusal: `id` naming the known name nearest to
 * `name` (nearest.ts), written out by `as` (its path, say), or nothing when no
 * known name is near.
 */
function near(id: ConfigMessageId, name: string, known: readonly string[], as: (closest: string) => string = (closest) => closest): MessageParam {
  const closest = nearestName(name, known);
  return closest === undefined ? '' : message(id, { name: as(closest) });
}

/** Renders an offending value for an error message, bounded so a huge value stays readable. */
function shown(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'bigint') text = `${value}n`;
  // null included: JSON has it as `null`, as String does.
  else if (typeof value === 'object') {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Array.isArray(value) ? 'an array' : 'an object';
    }
  } else text = String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * Lays a user config over DEFAULTS: scalars and arrays replace, the three maps
 * merge one level deep (a user entry replaces that entry's default value), and a
 * key present with the value `undefined` still replaces. An unknown key fails (P11).
 */
export function mergeConfig(given: unknown = {}): Record<string, unknown> {
  if (!isMapping(given)) fail('notObject', { got: shown(given) });
  for (const key of Object.keys(given)) {
    // Own keys only: `constructor` or `toString` is an unknown key, not a removed one.
    if (Object.hasOwn(REMOVED_KEYS, key)) fail('removed', { key, hint: message(REMOVED_KEYS[key] as ConfigMessageId) });
    if (JS_LINE_KEYS.has(key)) fail('jsLine', { key, got: shown(given[key]) });
  }
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(DEFAULTS, key) && !IGNORED_KEYS.has(key)) unknownKey(key, given[key], Object.keys(DEFAULTS));
  }
  const config = withPreset(given);
  const merged: Record<string, unknown> = { ...DEFAULTS, ...config };
  for (const key of MAP_KEYS) {
    const value = config[key];
    if (value === undefined) {
      merged[key] = { ...DEFAULTS[key] };
      continue;
    }
    if (!isMapping(value)) fail('notMapping', { key, got: shown(value) });
    merged[key] = { ...DEFAULTS[key], ...value };
  }
  for (const key of LIST_KEYS) {
    const value = merged[key];
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
      fail('notList', { key, got: shown(value) });
    }
    merged[key] = [...(value as string[])];
  }
  return merged;
}

/**
 * An unknown key fails the load (decision P11): a typo such as `onlimit` would
 * otherwise leave the setting at its default while the user believes it is set.
 */
function unknownKey(path: string, value: unknown, known: readonly string[]): never {
  const key = path.slice(path.lastIndexOf('.') + 1);
  const prefix = path.slice(0, path.length - key.length);
  fail('unknownKey', { path, got: shown(value), near: near('unknownKey.near', key, known, (closest) => `${prefix}${closest}`) });
}

/**
 * The user's config with its preset laid underneath (preset.ts): the preset's
 * settings, then every key the user wrote. No preset: the config as given.
 */
function withPreset(config: Record<string, unknown>): Record<string, unknown> {
  const name = config.preset;
  if (name === undefined || name === null) return config;
  if (typeof name !== 'string' || !Object.hasOwn(PRESETS, name)) {
    fail('preset', { names: PRESET_NAMES.map((known) => `\`${known}\``).join(', '), got: shown(name), near: typeof name === 'string' ? near('nearTail', name, PRESET_NAMES) : '' });
  }
  return layConfig(presetConfig(PRESETS[name] as (typeof PRESETS)[string]), config);
}

/** A stage threshold: off when absent, zero or negative; otherwise a positive integer. */
function stage(value: unknown, key: string): number | null {
  if (value === null || value === undefined) return null;
  // Number.isFinite is false for every non-number.
  if (!Number.isFinite(value)) {
    fail('stageNumber', { key, got: shown(value) });
  }
  const calls = value as number;
  if (calls <= 0) return null;
  if (!Number.isInteger(calls)) fail('stageWhole', { key, got: shown(calls) });
  return calls;
}

function isCap(value: unknown): boolean {
  // Number.isFinite is false for every non-number.
  return Number.isFinite(value) && (value as number) >= 2;
}

/** A whole number of at least `least`, or fail naming the key and what it means (`meaning`, a template id). */
function atLeast(value: unknown, key: string, least: number, meaning: ConfigMessageId): number {
  // Number.isInteger is false for every non-number.
  if (!Number.isInteger(value) || (value as number) < least) {
    fail('atLeast', { key, least, got: shown(value), meaning: message(meaning) });
  }
  return value as number;
}

/** The lowest value each duplicated-context setting accepts, and what it means. */
const DUPLICATE_TEXT_FLOORS: Readonly<Record<keyof DuplicateTextConfig, readonly [number, ConfigMessageId]>> = {
  minChars: [1, 'meaning.minChars'],
  threshold: [2, 'meaning.threshold'],
  windowMs: [1, 'meaning.windowMs'],
  cooldownMs: [0, 'meaning.cooldownMs'],
};

/** `null` or absent: off. A mapping: on, its sub-keys laid over DUPLICATE_TEXT_DEFAULTS. */
function duplicateTextConfig(value: unknown): DuplicateTextConfig | null {
  if (value === null || value === undefined) return null;
  if (!isMapping(value)) {
    fail('duplicateTextShape', { got: shown(value) });
  }
  const known = Object.keys(DUPLICATE_TEXT_FLOORS);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(DUPLICATE_TEXT_FLOORS, key)) {
      fail('duplicateTextKey', { key, names: known.map((k) => `\`${k}\``).join(', '), near: near('nearAside', key, known, (closest) => `duplicateText.${closest}`) });
    }
  }
  const merged: Record<string, unknown> = { ...DUPLICATE_TEXT_DEFAULTS, ...value };
  for (const [key, [floor, meaning]] of Object.entries(DUPLICATE_TEXT_FLOORS)) {
    const setting = merged[key];
    atLeast(setting, `duplicateText.${key}`, floor, meaning);
  }
  return Object.freeze(merged as unknown as DuplicateTextConfig);
}

/**
 * The sequence track's settings, completed from SEQUENCE_DEFAULTS. Unlike the
 * top level, an unknown key here is an error: the mapping is new and small, so
 * a misspelt `lenght` is far likelier than a setting from another version.
 */
function sequenceOf(value: unknown, window: number): SequenceConfig | null {
  if (value === null) return null;
  if (!isMapping(value)) {
    fail('sequenceShape', { got: shown(value) });
  }
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(SEQUENCE_DEFAULTS, key)) {
      fail('sequenceKey', { key, near: near('nearAside', key, Object.keys(SEQUENCE_DEFAULTS), (closest) => `sequence.${closest}`) });
    }
  }
  const given = { ...SEQUENCE_DEFAULTS, ...value };
  const length = atLeast(given.length, 'sequence.length', 2, 'meaning.sequence.length');
  const count = atLeast(given.count, 'sequence.count', 2, 'meaning.sequence.count');
  // Named for what sets its floor: `count` (the gate comes after the advisory), not a number from nowhere.
  if (given.limit !== null && (!Number.isInteger(given.limit) || (given.limit as number) < count)) fail('sequenceLimit', { least: count, got: shown(given.limit) });
  const limit = given.limit as number | null;
  // The track only sees the window: a setting it can never reach would be silently dead.
  for (const [key, times] of [['count', count], ['limit', limit]] as const) {
    // Stryker disable next-line ConditionalExpression: a null limit times the length is 0, which no window is below
    if (times !== null && length * times > window) {
      fail('sequenceWindow', { key, times, length, calls: length * times, window });
    }
  }
  return { length, count, limit };
}

/** The opt-in tracks configured as two stages. */
export type StagedTrack = 'stale' | 'spin' | 'guess' | 'editRetry' | 'timeouts';

/**
 * A mapping of two stages (`stale`, `editRetry`, …), completed from its defaults:
 * each a whole number >= 2 or null, and the advisory no later than the gate
 * (an advisory past the gate would never be read).
 */
function stagesOf(value: unknown, key: StagedTrack, defaults: StagesConfig): StagesConfig | null {
  if (value === null || value === undefined) return null;
  if (!isMapping(value)) {
    fail('stagesShape', { key, warnAt: String(defaults.warnAt), limit: String(defaults.limit), got: shown(value) });
  }
  for (const sub of Object.keys(value)) {
    if (!Object.hasOwn(defaults, sub)) {
      fail('stagesKey', { key, sub, near: near('nearAside', sub, Object.keys(defaults), (closest) => `${key}.${closest}`) });
    }
  }
  const given = { ...defaults, ...value };
  const warnAt = given.warnAt === null ? null : atLeast(given.warnAt, `${key}.warnAt`, 2, `meaning.${key}.warnAt`);
  const limit = given.limit === null ? null : atLeast(given.limit, `${key}.limit`, 2, `meaning.${key}.limit`);
  if (warnAt !== null && limit !== null && warnAt > limit) {
    fail('stagesOrder', { key, warnAt, limit });
  }
  return Object.freeze({ warnAt, limit });
}

/**
 * Checks a merged config in a fixed order and returns it typed. No setting of
 * 0.5.2 is compared with another: inverted stages or a cap below a stage are
 * legal intent. The sequence track is the exception: it is checked against
 * `window`, which bounds what it can ever see.
 */
export function validateConfig(merged: Record<string, unknown>): BreakerConfig {
  const { localHosts, onLimit, includeLocal, failLimit } = merged;
  const window = atLeast(merged.window, 'window', 4, 'meaning.window');
  if (localHosts === 'ask') fail('localHostsAsk');
  if (localHosts !== 'deny' && localHosts !== 'allow') fail('localHosts', { got: shown(localHosts) });
  if (onLimit !== 'ask' && onLimit !== 'deny') fail('onLimit', { got: shown(onLimit) });
  if (typeof includeLocal !== 'boolean') fail('includeLocal', { got: shown(includeLocal) });
  const warnAt = stage(merged.warnAt, 'warnAt');
  const summarizeAt = stage(merged.summarizeAt, 'summarizeAt');
  const failWarnAt = stage(merged.failWarnAt, 'failWarnAt');
  if (failLimit !== null && !isCap(failLimit)) {
    fail('failLimit', { got: shown(failLimit) });
  }
  for (const key of ['previewChars', 'resultPreviewChars'] as const) {
    const value = merged[key];
    if (!Number.isInteger(value) || (value as number) < 1) {
      fail('previewChars', { key, got: shown(value) });
    }
  }
  const limits = merged.limits as Record<string, unknown>;
  for (const [key, value] of Object.entries(limits)) {
    // A cap names a measure, or a full fingerprint that starts with one (P11).
    const colon = key.indexOf(':');
    const measure = colon < 0 ? key : key.slice(0, colon);
    if (!MEASURES.includes(measure)) {
      fail('limitsMeasure', {
        key,
        got: shown(value),
        measures: MEASURES.map((m) => `\`${m}\``).join(', '),
        near: near('nearTail', measure, MEASURES, (closest) => `${closest}${key.slice(measure.length)}`),
      });
    }
    if (value !== null && !isCap(value)) {
      fail('limitsCap', { key, got: shown(value) });
    }
  }
  const ignoreArgs = merged.ignoreArgs as Record<string, unknown>;
  for (const [key, value] of Object.entries(ignoreArgs)) {
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
      fail('ignoreArgs', { key, got: shown(value) });
    }
  }
  const preset = merged.preset ?? null;
  return {
    ...(merged as unknown as BreakerConfig),
    ...optInsOf(merged, window),
    warnAt,
    summarizeAt,
    failWarnAt,
    failLimit: failLimit as number | null,
    preset: preset as string | null,
  };
}

type OptIns = Pick<BreakerConfig, 'sequence' | 'progress' | 'exemptionCeiling' | 'duplicateText' | StagedTrack | 'failureProgress'>;

/** The settings beyond 0.5.2, each off by default, checked after the reference's. */
function optInsOf(merged: Record<string, unknown>, window: number): OptIns {
  const sequence = sequenceOf(merged.sequence, window);
  const { progress, exemptionCeiling, failureProgress } = merged;
  if (progress !== 'ignore' && progress !== 'results' && progress !== 'changes' && progress !== 'outcomes') {
    fail('progress', { got: shown(progress) });
  }
  if (exemptionCeiling !== null) {
    atLeast(exemptionCeiling, 'exemptionCeiling', 1, 'meaning.exemptionCeiling');
  }
  const duplicateText = duplicateTextConfig(merged.duplicateText);
  const stale = stagesOf(merged.stale, 'stale', STALE_DEFAULTS);
  const spin = stagesOf(merged.spin, 'spin', SPIN_DEFAULTS);
  const guess = stagesOf(merged.guess, 'guess', GUESS_DEFAULTS);
  const editRetry = stagesOf(merged.editRetry, 'editRetry', EDIT_RETRY_DEFAULTS);
  const timeouts = stagesOf(merged.timeouts, 'timeouts', TIMEOUTS_DEFAULTS);
  if (failureProgress !== 'ignore' && failureProgress !== 'restart' && failureProgress !== 'outcomes') {
    fail('failureProgress', { got: shown(failureProgress) });
  }
  return { sequence, progress, exemptionCeiling: exemptionCeiling as number | null, duplicateText, stale, spin, guess, editRetry, timeouts, failureProgress };
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

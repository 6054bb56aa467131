/**
 * Configuration: the shipped defaults, how a user config is laid over them, and
 * the fail-loud checks that run once, at load. Every error names the key, the
 * value it got and what would be accepted, so a broken profile is fixed in one read.
 */

import { nearestName } from './nearest.js';
import { layConfig, PRESET_NAMES, PRESETS, presetConfig } from './preset.js';

export type OnLimit = 'ask' | 'deny';
export type LocalHosts = 'deny' | 'allow';
/** `results`: a repeat gate waits while the results differ; `changes`: a repeat after a change to the workspace counts from 1 again. */
export type Progress = 'ignore' | 'results' | 'changes';

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
export type FailureProgress = 'ignore' | 'restart';

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

/** What `editRetry: {}` means: the advisory at the 3rd rejected edit of a file in a row, the gate after the 4th. */
export const EDIT_RETRY_DEFAULTS: StagesConfig = deepFreeze({ warnAt: 3, limit: 4 });

/** What `timeouts: {}` means: the advisory at a program's 3rd time-out this turn, no gate. */
export const TIMEOUTS_DEFAULTS: StagesConfig = deepFreeze({ warnAt: 3, limit: null });

/** Keys removed in 0.2.0, each with where its intent lives now. */
const REMOVED_KEYS: Readonly<Record<string, string>> = {
  denyAfter: 'use `limits.exact` instead (2 denies the second identical call)',
  warnAfter: 'use `warnAt` for the advisory and `limits` for the denial',
  registerAdvisory: 'use `warnAt` for the advisory and `limits` for the denial',
  maxSamePath: 'there is no replacement: file actions are identified by position through `exact:`',
  readTools: 'there is no replacement: read-like tools are recognised from the tool name',
  matchReadBySubstring: 'there is no replacement: read-like tools are recognised from the tool name',
};

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

function fail(message: string): never {
  throw new Error(`repeat-tool-breaker: ${message}`);
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Lays a user config over DEFAULTS: scalars and arrays replace, the three maps
 * merge one level deep (a user entry replaces that entry's default value), and a
 * key present with the value `undefined` still replaces. An unknown key fails (P11).
 */
export function mergeConfig(given: unknown = {}): Record<string, unknown> {
  if (!isPlainObject(given)) fail(`the config must be an object (got ${shown(given)}); give a mapping of settings or omit it`);
  for (const key of Object.keys(given)) {
    // Own keys only: `constructor` or `toString` is an unknown key, not a removed one.
    if (Object.hasOwn(REMOVED_KEYS, key)) fail(`\`${key}\` was removed in 0.2.0; ${REMOVED_KEYS[key]}`);
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
    if (!isPlainObject(value)) fail(`\`${key}\` must be a mapping (got ${shown(value)}); its entries are merged over the defaults`);
    merged[key] = { ...DEFAULTS[key], ...value };
  }
  for (const key of LIST_KEYS) {
    const value = merged[key];
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
      fail(`\`${key}\` must be a list of tool names or \`*\` patterns (got ${shown(value)})`);
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
  const near = nearestName(key, known);
  const prefix = path.slice(0, path.length - key.length);
  fail(
    `\`${path}\` is not a setting (got ${shown(value)}). ` +
      (near === undefined ? '' : `Did you mean \`${prefix}${near}\`? `) +
      'Unknown keys are refused so that a misspelt setting is never silently ignored.',
  );
}

/**
 * The user's config with its preset laid underneath (preset.ts): the preset's
 * settings, then every key the user wrote. No preset: the config as given.
 */
function withPreset(config: Record<string, unknown>): Record<string, unknown> {
  const name = config.preset;
  if (name === undefined || name === null) return config;
  if (typeof name !== 'string' || !Object.hasOwn(PRESETS, name)) {
    const near = typeof name === 'string' ? nearestName(name, PRESET_NAMES) : undefined;
    fail(
      `\`preset\` must be one of ${PRESET_NAMES.map((known) => `\`${known}\``).join(', ')}, or null for none (got ${shown(name)})` +
        (near === undefined ? '' : `; did you mean \`${near}\`?`),
    );
  }
  return layConfig(presetConfig(PRESETS[name] as (typeof PRESETS)[string]), config);
}

/** A stage threshold: off when absent, zero or negative; otherwise a positive integer. */
function stage(value: unknown, key: string): number | null {
  if (value === null || value === undefined) return null;
  // Number.isFinite is false for every non-number.
  if (!Number.isFinite(value)) {
    fail(`\`${key}\` must be a positive integer, or 0 / null to turn the stage off (got ${shown(value)})`);
  }
  const calls = value as number;
  if (calls <= 0) return null;
  if (!Number.isInteger(calls)) fail(`\`${key}\` must be a whole number of calls (got ${shown(calls)})`);
  return calls;
}

function isCap(value: unknown): boolean {
  // Number.isFinite is false for every non-number.
  return Number.isFinite(value) && (value as number) >= 2;
}

/** A whole number of at least `least`, or fail naming the key. */
function atLeast(value: unknown, key: string, least: number, meaning: string): number {
  // Number.isInteger is false for every non-number.
  if (!Number.isInteger(value) || (value as number) < least) {
    fail(`\`${key}\` must be an integer >= ${least} (got ${shown(value)}); it is ${meaning}`);
  }
  return value as number;
}

/** The lowest value each duplicated-context setting accepts, and what it means. */
const DUPLICATE_TEXT_FLOORS: Readonly<Record<keyof DuplicateTextConfig, readonly [number, string]>> = {
  minChars: [1, 'the shortest text block, in characters, that is fingerprinted'],
  threshold: [2, 'how many occurrences within the window earn a notice (1 would flag every text)'],
  windowMs: [1, 'the time window, in milliseconds, within which occurrences are counted'],
  cooldownMs: [0, 'how long, in milliseconds, one text stays silent after its notice'],
};

/** `null` or absent: off. A mapping: on, its sub-keys laid over DUPLICATE_TEXT_DEFAULTS. */
function duplicateTextConfig(value: unknown): DuplicateTextConfig | null {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) {
    fail(
      `\`duplicateText\` must be a mapping such as { minChars: 80, threshold: 3 }, or null to leave the track off (got ${shown(value)}); \`{}\` turns it on with the defaults`,
    );
  }
  const known = Object.keys(DUPLICATE_TEXT_FLOORS);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(DUPLICATE_TEXT_FLOORS, key)) {
      const near = nearestName(key, known);
      fail(`\`duplicateText.${key}\` is not a setting; the settings are ${known.map((k) => `\`${k}\``).join(', ')}${near === undefined ? '' : ` (did you mean \`duplicateText.${near}\`?)`}`);
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
  if (!isPlainObject(value)) {
    fail(`\`sequence\` must be a mapping such as { length: 4, count: 3, limit: null }, or null to leave the track off (got ${shown(value)})`);
  }
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(SEQUENCE_DEFAULTS, key)) {
      const near = nearestName(key, Object.keys(SEQUENCE_DEFAULTS));
      fail(`\`sequence.${key}\` is not a setting; the sequence track takes \`length\`, \`count\` and \`limit\`${near === undefined ? '' : ` (did you mean \`sequence.${near}\`?)`}`);
    }
  }
  const given = { ...SEQUENCE_DEFAULTS, ...value };
  const length = atLeast(given.length, 'sequence.length', 2, 'the longest cycle looked for, in distinct calls');
  const count = atLeast(given.count, 'sequence.count', 2, 'how many back-to-back repetitions of a cycle earn the advisory');
  const limit = given.limit === null ? null : atLeast(given.limit, 'sequence.limit', count, 'the repetitions after which the cycle meets the gate; null advises only');
  // The track only sees the window: a setting it can never reach would be silently dead.
  for (const [key, times] of [['count', count], ['limit', limit]] as const) {
    // Stryker disable next-line ConditionalExpression: a null limit times the length is 0, which no window is below
    if (times !== null && length * times > window) {
      fail(
        `\`sequence.${key}\` × \`sequence.length\` is ${times} × ${length} = ${length * times} calls, more than \`window\` (${window}) holds; ` +
          `raise \`window\` to at least ${length * times} or lower \`sequence.${key}\` or \`sequence.length\``,
      );
    }
  }
  return { length, count, limit };
}

/**
 * A mapping of two stages (`stale`, `editRetry`), completed from its defaults:
 * each a whole number >= 2 or null, and the advisory no later than the gate
 * (an advisory past the gate would never be read).
 */
function stagesOf(value: unknown, key: string, defaults: StagesConfig, what: { warnAt: string; limit: string }): StagesConfig | null {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) {
    fail(`\`${key}\` must be a mapping such as { warnAt: ${defaults.warnAt}, limit: ${defaults.limit} }, or null to leave the track off (got ${shown(value)}); \`{}\` turns it on with the defaults`);
  }
  for (const sub of Object.keys(value)) {
    if (!Object.hasOwn(defaults, sub)) {
      const near = nearestName(sub, Object.keys(defaults));
      fail(`\`${key}.${sub}\` is not a setting; the ${key} track takes \`warnAt\` and \`limit\`${near === undefined ? '' : ` (did you mean \`${key}.${near}\`?)`}`);
    }
  }
  const given = { ...defaults, ...value };
  const warnAt = given.warnAt === null ? null : atLeast(given.warnAt, `${key}.warnAt`, 2, `${what.warnAt}; null turns the advisory off`);
  const limit = given.limit === null ? null : atLeast(given.limit, `${key}.limit`, 2, `${what.limit}; null advises only`);
  if (warnAt !== null && limit !== null && warnAt > limit) {
    fail(`\`${key}.warnAt\` (${warnAt}) is past \`${key}.limit\` (${limit}): the gate would come first and the advisory never fire; lower warnAt to at most ${limit}`);
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
  const window = atLeast(merged.window, 'window', 4, 'how many recent calls per agent are counted');
  if (localHosts === 'ask') {
    fail('`localHosts: ask` was removed in 0.4.0; asking now covers every measure: set `onLimit: ask` and `localHosts: deny` or `allow`');
  }
  if (localHosts !== 'deny' && localHosts !== 'allow') fail(`\`localHosts\` must be \`deny\` or \`allow\` (got ${shown(localHosts)})`);
  if (onLimit !== 'ask' && onLimit !== 'deny') fail(`\`onLimit\` must be \`ask\` or \`deny\` (got ${shown(onLimit)})`);
  if (typeof includeLocal !== 'boolean') fail(`\`includeLocal\` must be true or false (got ${shown(includeLocal)})`);
  const warnAt = stage(merged.warnAt, 'warnAt');
  const summarizeAt = stage(merged.summarizeAt, 'summarizeAt');
  const failWarnAt = stage(merged.failWarnAt, 'failWarnAt');
  if (failLimit !== null && !isCap(failLimit)) {
    fail(`\`failLimit\` must be a number >= 2, or null to turn the failure gate off (got ${shown(failLimit)})`);
  }
  for (const key of ['previewChars', 'resultPreviewChars'] as const) {
    const value = merged[key];
    if (!Number.isInteger(value) || (value as number) < 1) {
      fail(`\`${key}\` must be an integer >= 1 (got ${shown(value)})`);
    }
  }
  const limits = merged.limits as Record<string, unknown>;
  for (const [key, value] of Object.entries(limits)) {
    // A cap names a measure, or a full fingerprint that starts with one (P11).
    const colon = key.indexOf(':');
    if (!MEASURES.includes(colon < 0 ? key : key.slice(0, colon))) {
      const near = nearestName(colon < 0 ? key : key.slice(0, colon), MEASURES);
      fail(
        `\`limits.${key}\` names no measure (got ${shown(value)}): a cap is a measure (${MEASURES.map((m) => `\`${m}\``).join(', ')}) ` +
          `or a full fingerprint that starts with one, such as \`verb:curl\`${near === undefined ? '' : `; did you mean \`${near}${colon < 0 ? '' : key.slice(colon)}\`?`}`,
      );
    }
    if (value !== null && !isCap(value)) {
      fail(`\`limits.${key}\` must be a number >= 2, or null to stop counting it (got ${shown(value)}); a cap below 2 would deny the first call`);
    }
  }
  const ignoreArgs = merged.ignoreArgs as Record<string, unknown>;
  for (const [key, value] of Object.entries(ignoreArgs)) {
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
      fail(`\`ignoreArgs.${key}\` must be a list of argument names (got ${shown(value)})`);
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

type OptIns = Pick<BreakerConfig, 'sequence' | 'progress' | 'exemptionCeiling' | 'duplicateText' | 'stale' | 'editRetry' | 'timeouts' | 'failureProgress'>;

/** The settings beyond 0.5.2, each off by default, checked after the reference's. */
function optInsOf(merged: Record<string, unknown>, window: number): OptIns {
  const sequence = sequenceOf(merged.sequence, window);
  const { progress, exemptionCeiling, failureProgress } = merged;
  if (progress !== 'ignore' && progress !== 'results' && progress !== 'changes') {
    fail(`\`progress\` must be \`ignore\`, \`results\` or \`changes\` (got ${shown(progress)})`);
  }
  if (exemptionCeiling !== null) {
    atLeast(exemptionCeiling, 'exemptionCeiling', 1, 'how many calls an approved exemption allows; null leaves exemptions unlimited');
  }
  const duplicateText = duplicateTextConfig(merged.duplicateText);
  const stale = stagesOf(merged.stale, 'stale', STALE_DEFAULTS, {
    warnAt: 'how many times in a row a call returns the same result before the advisory',
    limit: 'how many times in a row a call may return the same result before the next one meets the gate',
  });
  const editRetry = stagesOf(merged.editRetry, 'editRetry', EDIT_RETRY_DEFAULTS, {
    warnAt: 'how many edits of one file may be rejected in a row before the advisory',
    limit: 'how many edits of one file may be rejected in a row before the next edit of it meets the gate',
  });
  const timeouts = stagesOf(merged.timeouts, 'timeouts', TIMEOUTS_DEFAULTS, {
    warnAt: 'how many times one program may run out of time this turn before the advisory',
    limit: 'how many times one program may run out of time this turn before its next run meets the gate',
  });
  if (failureProgress !== 'ignore' && failureProgress !== 'restart') {
    fail(`\`failureProgress\` must be \`ignore\` or \`restart\` (got ${shown(failureProgress)}); restart: a new error or a change in between starts a failure streak again`);
  }
  return { sequence, progress, exemptionCeiling: exemptionCeiling as number | null, duplicateText, stale, editRetry, timeouts, failureProgress };
}

/** Merge then validate: the one call `apply` makes. Throws on a bad config. */
export function resolveConfig(config: unknown = {}): BreakerConfig {
  return validateConfig(mergeConfig(config));
}

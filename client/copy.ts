/**
 * Every word the card shows, as the card calls for it: labels, hints, badges,
 * the footer's statuses and the card's own messages, in the language of one
 * translate function. The words themselves are dictionaries (locales/en.ts,
 * locales/zh.ts); `wordsOf` makes them into the calls below, over DSH's
 * locale service where the page has one (index.tsx) or over our own
 * dictionaries (`translator`). `COPY` is the English, the card's fallback.
 * The plugin's validation messages come from `resolveConfig` as data and
 * are rendered in the same language here (`refusal`), re-worded only where
 * the card's controls spell a value differently (wording.ts).
 */
import type { FieldCopy } from '../src/lib/setting/setting.js';
import type { Locale } from '../src/lib/text/locale.js';
import { renderMessage, YAML_WORDS, type ConfigMessage, type OfferedWords } from '../src/lib/text/refusal.js';
import { CARD_SETTINGS } from '../src/lib/tracks/meta.js';
import { translator, type Key, type Translate } from './i18n.js';

export type { FieldCopy } from '../src/lib/setting/setting.js';

/** Every core setting the card has a row for, by config path; each track's own rows are its setting's (`meta.setting.card.fields`). */
export const CORE_FIELD_PATHS = [
  'preset',
  'warnAt',
  'summarizeAt',
  'window',
  'failWarnAt',
  'failLimit',
  'onLimit',
  'exemptionCeiling',
  'stopAfter',
  'progress',
  'failureProgress',
  'localHosts',
  'includeLocal',
  'hostAliases',
  'exclude',
  'include',
  'ignoreArgs',
  'previewChars',
  'resultPreviewChars',
] as const;

/** The shipped caps, in the order of DEFAULTS.limits. */
export const CAP_KEYS = ['exact', 'cmd', 'net', 'sink', 'host', 'site', 'family:http-fetch', 'verb:curl', 'verb:wget', 'act'] as const;

/** The card's groups, in display order: the everyday ones first. */
export const GROUP_IDS = ['gate', 'stages', 'caps', 'tracks', 'more'] as const;

/** The folds that are no track's: the caps beyond the identical calls', and the rarely touched settings. */
export const FOLD_IDS = ['caps', 'approvals', 'counted', 'local', 'messages'] as const;

/** The advisory stages a cap can pre-empt, by config key. */
const STAGE_KEYS = ['warnAt', 'summarizeAt', 'failWarnAt'] as const;

/** Every field the card has a row for: the core's, then each track's, by config path. */
export const FIELD_PATHS: readonly string[] = [...CORE_FIELD_PATHS, ...CARD_SETTINGS.flatMap((setting) => setting.card.fields.map((field) => field.path))];

export type FieldPath = string;
export type CapKey = (typeof CAP_KEYS)[number];
export type GroupId = (typeof GROUP_IDS)[number];
export type FoldId = (typeof FOLD_IDS)[number];
export type StageKey = (typeof STAGE_KEYS)[number];

function table<K extends string, V>(keys: readonly K[], value: (key: K) => V): Readonly<Record<K, V>> {
  return Object.fromEntries(keys.map((key) => [key, value(key)])) as Record<K, V>;
}

/** The card's words in the language of `t`. */
export function wordsOf(t: Translate, locale: Locale) {
  const pair = (prefix: string): FieldCopy => ({ label: t(`${prefix}.label` as Key), hint: t(`${prefix}.hint` as Key) });
  const stages = table(STAGE_KEYS, (key) => t(`stage.${key}`));
  const list = (items: readonly string[]): string =>
    items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(t('list.comma'))}${t('list.and')}${items.at(-1)}`;
  const yaml: OfferedWords = YAML_WORDS[locale];
  return {
    locale,
    title: t('title'),
    description: t('description'),
    /** The header's accessible name, as DSH's own cards word it ("Show settings: Shell"). */
    header: (open: boolean, title: string) => t(open ? 'header.hide' : 'header.show', { title }),
    unsaved: t('unsaved'),
    overridden: t('overridden'),
    reset: t('reset'),
    resetLabel: (label: string, value: string) => t('resetLabel', { label, value }),
    readOnly: t('readOnly'),
    live: t('live'),
    save: t('save'),
    saving: t('saving'),
    discard: t('discard'),
    saved: t('saved'),
    hostRefused: t('hostRefused'),
    renderFailed: (title: string) => t('renderFailed', { title }),
    /** Beside a disabled Save: how many fields hold it back (their labels follow as links). */
    needFixing: (n: number) => (n === 1 ? t('needFixing.one') : t('needFixing.many', { n })),
    none: t('none'),
    defaultIs: (text: string) => t('defaultIs', { text }),
    /** A multi-line field: its default is what the box shows, or so many lines a reset brings back. */
    defaultShown: t('defaultShown'),
    defaultLines: (n: number) => (n === 1 ? t('defaultLines.one') : t('defaultLines.many', { n })),
    /** The value a reset returns to, set by the preset chosen. */
    fromPreset: (text: string) => t('fromPreset', { text }),
    aliasesDefault: t('aliasesDefault'),
    fixedTitle: t('fixedTitle'),
    /** A field named out of its place, with its group or track: "Stale track › Gate after". */
    within: (group: string, label: string) => (group === '' ? label : t('within', { group, label })),
    /** The saved section holds a value the breaker refuses. */
    stored: {
      badge: t('stored.badge'),
      title: t('stored.title'),
      meanwhile: (which: 'profile' | 'before') => t(which === 'profile' ? 'stored.profile' : 'stored.before'),
      fix: t('stored.fix'),
      resetKey: (key: string) => t('stored.resetKey', { key }),
      resetSection: t('stored.resetSection'),
      holdsSave: t('stored.holdsSave'),
    },
    /** settings.yaml holds values the breaker refuses: each is left out, the rest applies. */
    dropped: {
      badge: (n: number) => (n === 1 ? t('dropped.badge.one') : t('dropped.badge.many', { n })),
      title: (n: number) => (n === 1 ? t('dropped.title.one') : t('dropped.title.many', { n })),
      rest: t('dropped.rest'),
      fix: t('dropped.fix'),
      remove: t('dropped.remove'),
      removeLabel: (path: string) => t('dropped.removeLabel', { path }),
      removing: t('dropped.removing'),
      replacing: t('dropped.replacing'),
      keep: t('dropped.keep'),
      keepLabel: (path: string) => t('dropped.keepLabel', { path }),
      goTo: t('dropped.goTo'),
      goToLabel: (label: string) => t('dropped.goToLabel', { label }),
      field: (message: string) => t('dropped.field', { message }),
    },
    /** A fold's row: its badges and summary. */
    fold: {
      details: (label: string) => t('fold.details', { label }),
      problem: t('fold.problem'),
      pair: (label: string, value: string) => t('fold.pair', { label, value }),
      off: (n: number) => t('fold.off', { n }),
      lines: (n: number) => (n === 1 ? t('fold.lines.one') : t('fold.lines.many', { n })),
    },
    /** What the preset chosen sets. */
    preset: {
      heading: (change: 'adds' | 'removes' | 'applies', name: string) => t(change === 'adds' ? 'preset.adds' : change === 'removes' ? 'preset.removes' : 'preset.applies', { name }),
      overridden: (value: string, instead: string) => t('preset.overridden', { value, instead }),
      back: (value: string, instead: string) => t('preset.back', { value, instead }),
    },
    listPlaceholder: t('listPlaceholder'),
    /** Every field's words: the core's by their paths, and each track's. */
    fields: table(FIELD_PATHS, (path) => pair(`field.${path}`)) as Readonly<Record<(typeof CORE_FIELD_PATHS)[number], FieldCopy>> & Readonly<Record<string, FieldCopy>>,
    caps: table(CAP_KEYS, (key) => pair(`cap.${key}`)),
    customCap: pair('customCap'),
    groups: table(GROUP_IDS, (id) => t(`group.${id}`)),
    folds: table(FOLD_IDS, (id) => t(`fold.${id}`)),
    /** The profile's layer does not resolve: the form cannot show it as fields. */
    profileInvalid: (message: string) => t('profileInvalid', { message }),
    /** The card's own refusal: its line formats. */
    badLine: (path: string, at: number, form: string, line: string) => t('badLine', { path, at, form, line: JSON.stringify(line) }),
    /** A refusal of `resolveConfig` in this language; `offered`: the words a control takes in place of YAML's. */
    refusal: (message: ConfigMessage, offered: OfferedWords = yaml) => renderMessage(message, (id, params) => t(`config.${id}`, params), offered),
    /** YAML's words for the values a refusal offers, in this language. */
    yaml,
    /** What a stage's refusal offers to turn it off, in the control's word (`off`). */
    zeroOff: (word: string) => t('zeroOff', { word }),
    /** Under a cap whose gate comes before a stage: that stage never fires for the measure. */
    deadAtCap: (cap: number, dead: readonly { readonly key: StageKey; readonly at: number }[]) =>
      t(dead.length === 1 ? 'deadAtCap.one' : 'deadAtCap.many', {
        cap,
        stages: list(dead.map((d) => t('deadAtCap.stage', { stage: stages[d.key], at: d.at }))),
      }),
    /** Under a stage that some caps pre-empt. */
    deadStage: (labels: readonly string[]) => t(labels.length === 1 ? 'deadStage.one' : 'deadStage.many', { labels: list(labels) }),
    /** Under the failure gate when the failure advisory comes after it. */
    deadFailure: (warnAt: number, limit: number) => t('deadFailure', { warnAt, limit }),
    deadFailureStage: (limit: number) => t('deadFailureStage', { limit }),
  };
}

export type Words = ReturnType<typeof wordsOf>;

/** The card's English: what it shows where the page has no locale service. */
export const COPY: Words = wordsOf(translator('en'), 'en');

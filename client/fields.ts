/**
 * Every setting the card shows, as data: where it lives in the config and how
 * it is edited; its words are in the dictionaries (locales/ for the core's,
 * each track's setting for its own), put on the fields in the card's language
 * by `groupsFor`. The card and the form know nothing about any single
 * setting: the core's are rows here, and the "Opt-in tracks" group is each
 * track's setting's rows (`meta.setting.card`), in their `card.order`.
 */
import { PRESET_NAMES } from '../src/lib/config/preset.js';
import type { FieldKind } from '../src/lib/setting/setting.js';
import { CARD_SETTINGS } from '../src/lib/tracks/index.js';
import { CAP_KEYS, COPY, type CapKey, type FieldCopy, type FieldPath, type GroupId, type Words } from './copy.js';

export type { FieldKind } from '../src/lib/setting/setting.js';

export interface Field {
  /** The config path, dotted below the top level: `warnAt`, `limits.exact`, `sequence.count`. */
  readonly path: string;
  readonly label: string;
  readonly hint: string;
  /** The config key shown beside the label: the name every message uses. */
  readonly key: string;
  readonly kind: FieldKind;
}

export interface Group {
  readonly id: GroupId;
  readonly title: string;
  readonly fields: readonly Field[];
}

/** A field before its words: the path and how it is edited. */
interface Row {
  readonly path: FieldPath;
  readonly kind: FieldKind;
}

const off = { type: 'number', nullWord: 'off' } as const;
const count = { type: 'number' } as const;
/** A cap: a number of calls, 2 or more, or off. */
const cap = { type: 'number', nullWord: 'off' } as const;

function field(path: FieldPath, kind: FieldKind): Row {
  return { path, kind };
}

/** Each track's setting's rows: its switch, then its sub-settings. */
function trackRows(): Row[] {
  return CARD_SETTINGS.flatMap((setting) => setting.card.fields.map((row) => field(row.path, row.kind)));
}

function group(id: GroupId, rows: readonly Row[]): { readonly id: GroupId; readonly rows: readonly Row[] } {
  return { id, rows };
}

/** The card's groups, in display order, without their words; the caps group is completed from the config's own keys. */
const LAYOUT = [
  group('preset', [field('preset', { type: 'choice', options: ['none', ...PRESET_NAMES], nullWord: 'none' })]),
  group('stages', [field('warnAt', off), field('summarizeAt', off)]),
  group('caps', []),
  group('failure', [field('failWarnAt', off), field('failLimit', cap)]),
  group('gate', [
    field('onLimit', { type: 'choice', options: ['ask', 'deny'] }),
    field('exemptionCeiling', { type: 'number', nullWord: 'unlimited' }),
    field('stopAfter', { type: 'number', nullWord: 'off' }),
    field('progress', { type: 'choice', options: ['ignore', 'results', 'changes', 'outcomes'] }),
    field('failureProgress', { type: 'choice', options: ['ignore', 'restart', 'outcomes'] }),
  ]),
  group('local', [field('localHosts', { type: 'choice', options: ['deny', 'allow'] }), field('includeLocal', { type: 'flag' }), field('hostAliases', { type: 'aliases' })]),
  group('tracks', trackRows()),
  group('counted', [field('window', count), field('exclude', { type: 'list' }), field('include', { type: 'list' }), field('ignoreArgs', { type: 'lists' })]),
  group('messages', [field('previewChars', count), field('resultPreviewChars', count)]),
];

/** The groups in the card's words (`words`), in display order; the caps group is empty here. */
export function groupsIn(words: Words): Group[] {
  return LAYOUT.map((g) => ({ id: g.id, title: words.groups[g.id], fields: g.rows.map((row) => ({ ...row, key: row.path, ...(words.fields[row.path] as FieldCopy) })) }));
}

/** The groups in English, the caps group empty. */
export const GROUPS: readonly Group[] = groupsIn(COPY);

function isShipped(key: string): key is CapKey {
  return (CAP_KEYS as readonly string[]).includes(key);
}

/** A cap field for one `limits` key: a human label, with the config path beside it. */
export function capField(key: string, words: Words = COPY): Field {
  const copy = isShipped(key) ? words.caps[key] : words.customCap;
  return { path: `limits.${key}`, ...copy, key: `limits.${key}`, kind: cap };
}

/** How a sentence names a cap: its label when shipped, else its key (a fingerprint). */
export function capName(key: string, words: Words = COPY): string {
  return isShipped(key) ? words.caps[key].label : key;
}

/** The groups with the caps group holding one field per key of `limits` (shipped keys first), in `words`. */
export function groupsFor(limitKeys: readonly string[], words: Words = COPY): Group[] {
  const extra = limitKeys.filter((k) => !isShipped(k)).sort();
  // The shipped caps first, in the order of DEFAULTS.limits; any other key the config holds follows them.
  const caps = [...CAP_KEYS, ...extra].map((key) => capField(key, words));
  return groupsIn(words).map((g) => (g.id === 'caps' ? { ...g, fields: caps } : g));
}

/** The top-level config key a field writes (`limits` for `limits.exact`). */
export function topKey(path: string): string {
  const dot = path.indexOf('.');
  return dot === -1 ? path : path.slice(0, dot);
}

/** The key below the top level (`exact` for `limits.exact`), or undefined for a top-level field. */
export function subKey(path: string): string | undefined {
  const dot = path.indexOf('.');
  return dot === -1 ? undefined : path.slice(dot + 1);
}

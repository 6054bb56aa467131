/**
 * Every setting the card shows, as data: where it lives in the config, how
 * it is edited, and whether it is shown at once or behind a disclosure (a
 * *fold*); its words are in the dictionaries (locales/ for the core's, each
 * track's setting for its own), put on the fields in the card's language by
 * `groupsFor`. The card and the form know nothing about any single setting:
 * the core's are rows here, and the "Opt-in tracks" group is each track's
 * setting's rows (`meta.setting.card`), in their `card.order`.
 *
 * The layout puts what an operator tunes first: what the gate does at a
 * limit and the preset, then the stages (the advisories and the identical
 * calls' cap). Each track shows its switch and what it catches, its numbers
 * folded under it; the other caps and the rarely touched settings are folded
 * under "More caps" and "More settings". A new everyday setting of the gate is
 * one row in `GATE`.
 */
import { PRESET_NAMES } from '../src/lib/config/preset.js';
import type { FieldKind } from '../src/lib/setting/setting.js';
import { CARD_SETTINGS } from '../src/lib/tracks/meta.js';
import { CAP_KEYS, COPY, type CapKey, type FieldCopy, type FieldPath, type FoldId, type GroupId, type Words } from './copy.js';

export type { FieldKind } from '../src/lib/setting/setting.js';

export interface Field {
  /** The config path, dotted below the top level: `warnAt`, `limits.exact`, `sequence.count`. */
  readonly path: string;
  readonly label: string;
  readonly hint: string;
  /** The config key shown beside the label: the name every message uses. */
  readonly key: string;
  readonly kind: FieldKind;
  /** The fold it is behind (`caps`, `counted`, a track's key), or undefined: shown whenever the card is open. */
  readonly fold: string | undefined;
  /** Where a sentence that names it out of place says it is: its group, its fold, or its track ("Stale track › Gate after"). */
  readonly within: string;
}

/** A disclosure inside a group: its fields are shown only while it is open. */
export interface Fold {
  readonly id: string;
  readonly title: string;
  /** A track's fold opens under the track's switch (this path); the others are a row of their own. */
  readonly under: string | undefined;
  /** Its one-line summary lists only the values that are on, then how many are off (the caps). */
  readonly countsOff: boolean;
}

export interface Group {
  readonly id: GroupId;
  readonly title: string;
  /** Every field of the group in display order, folded ones included (`Field.fold`). */
  readonly fields: readonly Field[];
  readonly folds: readonly Fold[];
}

/** A field before its words: the path, how it is edited, and its fold. */
interface Row {
  readonly path: FieldPath;
  readonly kind: FieldKind;
  readonly fold?: string;
}

const off = { type: 'number', nullWord: 'off' } as const;
const count = { type: 'number' } as const;
/** A cap: a number of calls, 2 or more, or off. */
const cap = { type: 'number', nullWord: 'off' } as const;

function field(path: FieldPath, kind: FieldKind, fold?: FoldId): Row {
  return fold === undefined ? { path, kind } : { path, kind, fold };
}

/** What the gate does at a limit, and the preset: the first thing an operator decides. */
const GATE: readonly Row[] = [
  field('onLimit', { type: 'choice', options: ['ask', 'deny'] }),
  field('preset', { type: 'choice', options: ['none', ...PRESET_NAMES], nullWord: 'none' }),
  field('stopAfter', { type: 'number', nullWord: 'off' }),
];

/** The advisories and gates every call meets: the repeat track's and the failure track's. */
const STAGES: readonly Row[] = [field('warnAt', off), field('summarizeAt', off), field('failWarnAt', off), field('failLimit', cap)];

/** The rarely touched, each fold a row under "More settings". */
const MORE: readonly Row[] = [
  field('exemptionCeiling', { type: 'number', nullWord: 'unlimited' }, 'approvals'),
  field('progress', { type: 'choice', options: ['ignore', 'results', 'changes', 'outcomes'] }, 'approvals'),
  field('failureProgress', { type: 'choice', options: ['ignore', 'restart', 'outcomes'] }, 'approvals'),
  field('window', count, 'counted'),
  field('exclude', { type: 'list' }, 'counted'),
  field('include', { type: 'list' }, 'counted'),
  field('ignoreArgs', { type: 'lists' }, 'counted'),
  field('localHosts', { type: 'choice', options: ['deny', 'allow'] }, 'local'),
  field('includeLocal', { type: 'flag' }, 'local'),
  field('hostAliases', { type: 'aliases' }, 'local'),
  field('previewChars', count, 'messages'),
  field('resultPreviewChars', count, 'messages'),
];

/** Each track's setting's rows: its switch, shown, then its sub-settings, folded under it. */
function trackRows(): Row[] {
  return CARD_SETTINGS.flatMap((setting) => setting.card.fields.map((row) => (row.path === setting.key ? field(row.path, row.kind) : { path: row.path, kind: row.kind, fold: setting.key })));
}

function group(id: GroupId, rows: readonly Row[]): { readonly id: GroupId; readonly rows: readonly Row[] } {
  return { id, rows };
}

/** The card's groups, in display order, without their words; the caps group is completed from the config's own keys. */
const LAYOUT = [group('gate', GATE), group('stages', STAGES), group('caps', []), group('tracks', trackRows()), group('more', MORE)];

function isShipped(key: string): key is CapKey {
  return (CAP_KEYS as readonly string[]).includes(key);
}

/** The identical calls' cap is the one an operator tunes: it stays in view; the others are folded. */
const CAP_IN_VIEW = 'exact';

function capRows(limitKeys: readonly string[]): Row[] {
  const extra = limitKeys.filter((k) => !isShipped(k)).sort();
  // The shipped caps first, in the order of DEFAULTS.limits; any other key the config holds follows them.
  return [...CAP_KEYS, ...extra].map((key) => field(`limits.${key}`, cap, key === CAP_IN_VIEW ? undefined : 'caps'));
}

function words(path: string, w: Words): FieldCopy {
  if (!path.startsWith('limits.')) return w.fields[path] as FieldCopy;
  const key = path.slice('limits.'.length);
  return isShipped(key) ? w.caps[key] : w.customCap;
}

/** The groups in the card's words (`w`), the caps group holding one field per key of `limitKeys` (shipped keys first). */
export function groupsFor(limitKeys: readonly string[], w: Words = COPY): Group[] {
  return LAYOUT.map((g) => {
    const rows = g.id === 'caps' ? capRows(limitKeys) : g.rows;
    const title = w.groups[g.id];
    const folds = new Map<string, Fold>();
    const fields = rows.map((row): Field => {
      const copy = words(row.path, w);
      const track = g.id === 'tracks' && row.fold !== undefined ? words(row.fold, w).label : undefined;
      if (row.fold !== undefined && !folds.has(row.fold)) {
        folds.set(row.fold, { id: row.fold, title: track ?? w.folds[row.fold as FoldId], under: track === undefined ? undefined : row.fold, countsOff: row.fold === 'caps' });
      }
      // A sentence names a folded field by its fold, a track's by its track, a cap by its group.
      const within = track ?? (g.id === 'more' && row.fold !== undefined ? w.folds[row.fold as FoldId] : title);
      return { path: row.path, kind: row.kind, fold: row.fold, key: row.path, ...copy, within };
    });
    return { id: g.id, title, fields, folds: [...folds.values()] };
  });
}

/** The groups in English, the caps group holding the shipped caps. */
export const GROUPS: readonly Group[] = groupsFor([]);

/** A cap field for one `limits` key: a human label, with the config path beside it. */
export function capField(key: string, w: Words = COPY): Field {
  const path = `limits.${key}`;
  return { path, ...words(path, w), key: path, kind: cap, fold: key === CAP_IN_VIEW ? undefined : 'caps', within: w.groups.caps };
}

/** How a sentence names a cap: its label when shipped, else its key (a fingerprint). */
export function capName(key: string, w: Words = COPY): string {
  return isShipped(key) ? w.caps[key].label : key;
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

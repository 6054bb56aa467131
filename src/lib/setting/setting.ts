/**
 * A track's setting, described once, in its module: everything the engine and
 * the card need to know about one config key without knowing the track. As an
 * ESLint rule's `meta` carries its schema, defaults and messages, a setting
 * carries its defaults, its check and refusals, its schema node, its stricter
 * rule for live changes and the card's fields; config/, policy/ and the card
 * iterate over the registry's settings (tracks/index.ts) and name none.
 *
 * Every track's setting is off (`null`) by default, and a mapping turns it on:
 * `{}` with its `defaults`, each sub-key given alone completed from them.
 */
import type { Locale } from '../text/locale.js';
import type { Templates } from '../text/refusal.js';
import type { CoreConfig } from './core.js';
import type { SchemaNode } from './schema-node.js';

/** One thing in each of the operator's languages. */
export type ByLocale<T> = Readonly<Record<Locale, T>>;

/** How the card edits a field (client/fields.ts renders each kind). */
export type FieldKind =
  /**
   * A number; `nullWord` (e.g. `off`) stands for `null` where the setting allows it. What it takes
   * is what `resolveConfig` takes, fractions of a cap included (0.5.2's rule; docs/web-ui.md).
   */
  | { readonly type: 'number'; readonly nullWord?: string }
  /** One of `options`; `nullWord` (e.g. `none`) is one of them and stands for `null`. */
  | { readonly type: 'choice'; readonly options: readonly string[]; readonly nullWord?: string }
  | { readonly type: 'flag' }
  /** A comma-separated list of names. */
  | { readonly type: 'list' }
  /** One `key: a, b` line per entry (a map of name lists). */
  | { readonly type: 'lists' }
  /** One `from = to` line per entry (a map of names). */
  | { readonly type: 'aliases' }
  /** An opt-in track: on (a mapping) or off (`null`). */
  | { readonly type: 'track' };

/** A field's two lines of text in the card: its label, and what it does. */
export interface FieldCopy {
  readonly label: string;
  readonly hint: string;
}

/** One of a setting's fields in the card: its config path (`stale`, `stale.limit`), how it is edited, its words. */
export interface CardField {
  readonly path: string;
  readonly kind: FieldKind;
  readonly copy: ByLocale<FieldCopy>;
}

/** A setting's part of the card's "Opt-in tracks" group. */
export interface CardSection {
  /** Where its fields come in the group (lowest first): the two-stage tracks first, alike as they are. */
  readonly order: number;
  /** Its fields, the switch (its key, kind `track`) first. */
  readonly fields: readonly CardField[];
}

export interface Setting<V extends object = object, K extends string = string> {
  /** The config key, as a profile writes it. */
  readonly key: K;
  /**
   * Where the setting comes among the opt-in settings, the core's (config/config.ts)
   * and the tracks' (lowest first): in the shipped config, its checks and the schema.
   * They come in the order they were added to the product.
   */
  readonly order: number;
  /** What `{}` turns on; a mapping that gives some sub-keys takes the others from here. */
  readonly defaults: V;
  /**
   * The value the breaker runs with: `null` (off) for `null` or absent, else the
   * mapping completed from `defaults`. A bad value is refused (setting/check.ts
   * `refuse`), naming the key, the value and the fix. `core`: the core settings,
   * already checked (a setting bounded by `window` reads it there).
   */
  check(value: unknown, core: CoreConfig): V | null;
  /** Its own refusal templates, by id, in both languages (the ids its check refuses with, beside text/refusal.ts's). */
  readonly messages: ByLocale<Templates>;
  /** Its node in the live settings namespace's schema (config/schema.ts). */
  readonly schema: SchemaNode;
  /** The stricter of two values, for a settings change in the middle of a turn (policy/strictness.ts): on beats off. */
  stricter(a: V | null, b: V | null): V | null;
  /** Whether a preset's mapping and the user's merge one level deep (`stale: { limit: 6 }` keeps the preset's `warnAt`). */
  readonly merged: boolean;
  /** Its fields in the card. */
  readonly card: CardSection;
  /** Its value in a resolved configuration. */
  of(cfg: CoreConfig): V | null;
}

/** Reads `key` of a resolved configuration: a track's setting, as `Setting.of`. */
export function reader<V extends object>(key: string): (cfg: CoreConfig) => V | null {
  return (cfg) => ((cfg as unknown as Readonly<Record<string, V | null | undefined>>)[key] ?? null);
}

/** The earlier of two thresholds; `null` (off) is the loosest. */
export function earlier(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

/** On beats off; when both are on, `both` decides. */
export function onBeatsOff<V>(both: (a: V, b: V) => V): (a: V | null, b: V | null) => V | null {
  return (a, b) => (a === null ? b : b === null ? a : both(a, b));
}

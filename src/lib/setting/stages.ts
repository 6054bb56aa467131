/**
 * The setting of a track of two stages (`stale`, `spin`, `guess`, `editRetry`,
 * `timeouts`): an advisory at `warnAt` and a gate after `limit`, each a whole
 * number >= 2 or `null`, the advisory no later than the gate (an advisory past
 * the gate would never be read). Its shape, refusals, schema node, card rows
 * and stricter rule are the same for every such track; the track brings its
 * key, its defaults and the words that say what its stages count.
 */
import { deepFreeze } from '../host/freeze.js';
import { isMapping } from '../host/member.js';
import { atLeast, near, refuse, shown } from './check.js';
import { count, described, nullable, object } from './schema-node.js';
import { earlier, onBeatsOff, reader, type ByLocale, type FieldCopy, type Setting } from './setting.js';

/** A track with an advisory and a gate counted in calls. */
export interface StagesConfig {
  /** The count at which the advisory fires; `null`: no advisory. */
  readonly warnAt: number | null;
  /** The count after which the next such call meets the gate; `null`: advise only. */
  readonly limit: number | null;
}

/**
 * A gate of its own some track of two stages adds (the stale track's
 * `backToBack` and `cycle`): a whole number >= 2 or `null`, off unless given,
 * and never before the advisory. Its words, everywhere it is shown.
 */
export interface ExtraGate<X extends string> {
  readonly key: X;
  /**
   * The track advises on its own before this gate shuts (the timeout track's `respelled` as it arms,
   * edit-retry's `applied` at the landing that reaches it): the gate may come before `warnAt`.
   */
  readonly advises?: true;
  /** In a refusal, after "it is": what it counts. */
  readonly meaning: ByLocale<string>;
  /** The schema's description. */
  readonly schema: string;
  /** The card's row. */
  readonly card: ByLocale<FieldCopy>;
}

/** A track's stages with its extra gates, when it has any. */
export type StagesWith<X extends string> = StagesConfig & { readonly [P in X]: number | null };

/** What a track of two stages says about its stages, everywhere they are shown. */
export interface StagesWords {
  /** In a refusal, after "it is": what each stage counts (`{off}` is the word that turns it off). */
  readonly meaning: ByLocale<{ readonly warnAt: string; readonly limit: string }>;
  /** The schema's descriptions: the track, the advisory, the gate. */
  readonly schema: { readonly track: string; readonly warnAt: string; readonly limit: string };
  /** The card's rows: the switch, the advisory, the gate. */
  readonly card: ByLocale<{ readonly track: FieldCopy; readonly warnAt: FieldCopy; readonly limit: FieldCopy }>;
}

const STAGES = ['warnAt', 'limit'] as const;

/** A mapping of two stages (and the extra gates), completed from its defaults; `null` or absent: off. */
function stagesOf(value: unknown, key: string, defaults: StagesConfig, extras: readonly ExtraGate<string>[]): StagesConfig | null {
  if (value === null || value === undefined) return null;
  if (!isMapping(value)) {
    refuse('stagesShape', { key, warnAt: String(defaults.warnAt), limit: String(defaults.limit), got: shown(value) });
  }
  const subs = Object.keys(defaults);
  for (const sub of Object.keys(value)) {
    if (!Object.hasOwn(defaults, sub)) {
      refuse('stagesKey', { key, sub, takes: subs.map((known) => `\`${known}\``).join(', '), near: near('nearAside', sub, subs, (closest) => `${key}.${closest}`) });
    }
  }
  const given: Record<string, unknown> = { ...defaults, ...value };
  const warnAt = given.warnAt === null ? null : atLeast(given.warnAt, `${key}.warnAt`, 2, `meaning.${key}.warnAt`);
  const limit = given.limit === null ? null : atLeast(given.limit, `${key}.limit`, 2, `meaning.${key}.limit`);
  if (warnAt !== null && limit !== null && warnAt > limit) {
    refuse('stagesOrder', { key, warnAt, limit });
  }
  const gates: Record<string, number | null> = {};
  for (const { key: extra, advises } of extras) {
    const gate = given[extra] === null ? null : atLeast(given[extra], `${key}.${extra}`, 2, `meaning.${key}.${extra}`);
    // Its gate before the advisory would deny a call the model was never told about, unless it tells the model itself.
    if (gate !== null && warnAt !== null && gate < warnAt && advises !== true) refuse('stagesExtraOrder', { key, extra, gate, warnAt });
    gates[extra] = gate;
  }
  return Object.freeze({ warnAt, limit, ...gates });
}

/** The schema node: off by default, each stage (and each extra gate) a whole number >= 2 or null. */
function stagesNode(defaults: StagesConfig, words: StagesWords['schema'], extras: readonly ExtraGate<string>[]) {
  const gate = Object.fromEntries(extras.map((extra) => [extra.key, described(nullable(count(2)), extra.schema, null)]));
  return described(
    nullable(
      object({
        warnAt: described(nullable(count(2)), words.warnAt, defaults.warnAt),
        limit: described(nullable(count(2)), words.limit, defaults.limit),
        ...gate,
      }),
    ),
    `${words.track}; null leaves it off.`,
    null,
  );
}

/** Where a setting comes: among the tracks' settings (`Setting.order`), and in the card (`card.order`). */
export interface Orders {
  readonly order: number;
  readonly cardOrder: number;
}

/**
 * The setting `key` of a track of two stages: `given` is what `{}` turns on;
 * `extras`, gates of its own the track adds, each off in `given` (`null`).
 */
export function stagesSetting<K extends string, X extends string = never>(key: K, { order, cardOrder }: Orders, given: StagesConfig, words: StagesWords, extras: readonly ExtraGate<X>[] = []): Setting<StagesWith<X>, K> {
  const defaults = deepFreeze({ ...given, ...Object.fromEntries(extras.map((extra) => [extra.key, null])) }) as StagesWith<X>;
  const off = { type: 'number', nullWord: 'off' } as const;
  const templates = (locale: 'en' | 'zh') => ({
    ...Object.fromEntries(STAGES.map((stage) => [`meaning.${key}.${stage}`, words.meaning[locale][stage]])),
    ...Object.fromEntries(extras.map((extra) => [`meaning.${key}.${extra.key}`, extra.meaning[locale]])),
    ...(extras.length === 0 ? {} : { stagesExtraOrder: EXTRA_ORDER[locale] }),
  });
  const row = (path: string, stage: 'track' | (typeof STAGES)[number]) => ({
    path,
    kind: stage === 'track' ? ({ type: 'track' } as const) : off,
    copy: { en: words.card.en[stage], zh: words.card.zh[stage] },
  });
  const extraRows = extras.map((extra) => ({ path: `${key}.${extra.key}`, kind: off, copy: extra.card }));
  const stricterGate = (a: StagesWith<X>, b: StagesWith<X>) => Object.fromEntries(extras.map((extra) => [extra.key, earlier(a[extra.key], b[extra.key])]));
  return {
    key,
    order,
    defaults,
    check: (value) => stagesOf(value, key, defaults, extras) as StagesWith<X> | null,
    messages: { en: templates('en'), zh: templates('zh') },
    schema: stagesNode(defaults, words.schema, extras),
    stricter: onBeatsOff((a, b) => ({ warnAt: earlier(a.warnAt, b.warnAt), limit: earlier(a.limit, b.limit), ...stricterGate(a, b) }) as StagesWith<X>),
    merged: true,
    card: { order: cardOrder, fields: [row(key, 'track'), ...STAGES.map((stage) => row(`${key}.${stage}`, stage)), ...extraRows] },
    of: reader<StagesWith<X>>(key),
  };
}

/** The refusal of an extra gate set before the advisory. */
const EXTRA_ORDER = {
  en: '`{key}.{extra}` ({gate}) is before `{key}.warnAt` ({warnAt}): the gate would come first and the advisory never fire; raise {extra} to at least {warnAt}',
  zh: '`{key}.{extra}`（{gate}）排在 `{key}.warnAt`（{warnAt}）之前：闸门会先到，建议永远不会发出；请把 {extra} 调到不低于 {warnAt}',
} as const;

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

/** A mapping of two stages, completed from its defaults; `null` or absent: off. */
function stagesOf(value: unknown, key: string, defaults: StagesConfig): StagesConfig | null {
  if (value === null || value === undefined) return null;
  if (!isMapping(value)) {
    refuse('stagesShape', { key, warnAt: String(defaults.warnAt), limit: String(defaults.limit), got: shown(value) });
  }
  for (const sub of Object.keys(value)) {
    if (!Object.hasOwn(defaults, sub)) {
      refuse('stagesKey', { key, sub, near: near('nearAside', sub, Object.keys(defaults), (closest) => `${key}.${closest}`) });
    }
  }
  const given = { ...defaults, ...value };
  const warnAt = given.warnAt === null ? null : atLeast(given.warnAt, `${key}.warnAt`, 2, `meaning.${key}.warnAt`);
  const limit = given.limit === null ? null : atLeast(given.limit, `${key}.limit`, 2, `meaning.${key}.limit`);
  if (warnAt !== null && limit !== null && warnAt > limit) {
    refuse('stagesOrder', { key, warnAt, limit });
  }
  return Object.freeze({ warnAt, limit });
}

/** The schema node: off by default, each stage a whole number >= 2 or null. */
function stagesNode(defaults: StagesConfig, words: StagesWords['schema']) {
  return described(
    nullable(
      object({
        warnAt: described(nullable(count(2)), words.warnAt, defaults.warnAt),
        limit: described(nullable(count(2)), words.limit, defaults.limit),
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

/** The setting `key` of a track of two stages: `given` is what `{}` turns on. */
export function stagesSetting<K extends string>(key: K, { order, cardOrder }: Orders, given: StagesConfig, words: StagesWords): Setting<StagesConfig, K> {
  const defaults = deepFreeze(given);
  const off = { type: 'number', nullWord: 'off' } as const;
  const templates = (locale: 'en' | 'zh') => Object.fromEntries(STAGES.map((stage) => [`meaning.${key}.${stage}`, words.meaning[locale][stage]]));
  const row = (path: string, stage: 'track' | (typeof STAGES)[number]) => ({
    path,
    kind: stage === 'track' ? ({ type: 'track' } as const) : off,
    copy: { en: words.card.en[stage], zh: words.card.zh[stage] },
  });
  return {
    key,
    order,
    defaults,
    check: (value) => stagesOf(value, key, defaults),
    messages: { en: templates('en'), zh: templates('zh') },
    schema: stagesNode(defaults, words.schema),
    stricter: onBeatsOff((a, b) => ({ warnAt: earlier(a.warnAt, b.warnAt), limit: earlier(a.limit, b.limit) })),
    merged: true,
    card: { order: cardOrder, fields: [row(key, 'track'), ...STAGES.map((stage) => row(`${key}.${stage}`, stage))] },
    of: reader<StagesConfig>(key),
  };
}

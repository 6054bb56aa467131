/**
 * The registry of the tracks' metas: every track's `meta`, each one line, in
 * the gate order of tracks/index.ts. config/, policy/ and the card read the
 * tracks' settings from here, so they carry every track's meta and no track's
 * runtime (the card's bundle holds no shell/, call/, result/ or memory/ module;
 * test/package/client-bundle.test.ts holds it).
 *
 * Adding a track is its two files (`<name>.meta.ts`, `<name>.ts`), one line
 * here and one in tracks/index.ts, its tests (and the preset's data if the
 * preset turns it on).
 */
import type { Setting } from '../setting/setting.js';
import { duplicateTextMeta } from './duplicate-text.meta.js';
import { editRetryMeta } from './edit-retry.meta.js';
import { environmentMeta } from './environment.meta.js';
import { failureMeta } from './failure.meta.js';
import { guessMeta } from './guess.meta.js';
import { repeatMeta } from './repeat.meta.js';
import { sequenceMeta } from './sequence.meta.js';
import { spinMeta } from './spin.meta.js';
import { staleMeta } from './stale.meta.js';
import { timeoutMeta } from './timeout.meta.js';
import type { CallTrackMeta, MessageTrackMeta, TrackMeta } from './track.js';

export const METAS = [
  failureMeta,
  repeatMeta,
  sequenceMeta,
  staleMeta,
  editRetryMeta,
  timeoutMeta,
  spinMeta,
  guessMeta,
  environmentMeta,
  duplicateTextMeta,
] as const satisfies readonly (CallTrackMeta | MessageTrackMeta)[];

/** The setting a track owns, typed: its key and its value. */
type Owned<T> = T extends { readonly setting: infer S } ? Exclude<S, null> : never;

/** The tracks' settings in a resolved configuration, each off (`null`) or its value: `stale: StagesConfig | null` … */
export type TrackSettings = {
  readonly [S in Owned<(typeof METAS)[number]> as S extends Setting<object, infer K> ? K : never]: (S extends Setting<infer V, string> ? V : never) | null;
};

/** Every track's own setting, by its `order`: the shipped config, the checks and the schema list them so. */
export const SETTINGS: readonly Setting[] = (METAS as readonly TrackMeta[]).flatMap((meta) => (meta.setting === null ? [] : [meta.setting])).sort((a, b) => a.order - b.order);

/** The same, by `card.order`: the card's "Opt-in tracks" group lists their fields so. */
export const CARD_SETTINGS: readonly Setting[] = [...SETTINGS].sort((a, b) => a.card.order - b.card.order);

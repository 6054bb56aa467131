/**
 * The registry: every track, each one line. The tool-call tracks come in gate
 * order: a call's hits are listed, and its notices delivered, in this order
 * (failure first, the more actionable; then repeats; then a cycle; then the
 * opt-in stale, edit-retry and timeout tracks, the spin and guess tracks, and
 * the environment track). The duplicated-context track reads the messages
 * `agent/pre-step` claims, not tool calls; src/index.ts finds it by its
 * `meta.reads`.
 *
 * Adding a track is its file, one line here, its tests (and the preset's data
 * if the preset turns it on): the breaker, config/, policy/ and the card read
 * what they need from its `meta`.
 */
import type { Setting } from '../setting/setting.js';
import { duplicateTextTrack } from './duplicate-text.js';
import { editRetryTrack } from './edit-retry.js';
import { environmentTrack } from './environment.js';
import { failureTrack } from './failure.js';
import { guessTrack } from './guess.js';
import { repeatTrack } from './repeat.js';
import { sequenceTrack } from './sequence.js';
import { spinTrack } from './spin.js';
import { staleTrack } from './stale.js';
import { timeoutTrack } from './timeout.js';
import type { CallTrackModule, MessageTrackModule, TrackModule } from './track.js';

export const TRACKS = [
  failureTrack,
  repeatTrack,
  sequenceTrack,
  staleTrack,
  editRetryTrack,
  timeoutTrack,
  spinTrack,
  guessTrack,
  environmentTrack,
  duplicateTextTrack,
] as const satisfies readonly TrackModule[];

/** The setting a track owns, typed: its key and its value. */
type Owned<T> = T extends { readonly meta: { readonly setting: infer S } } ? Exclude<S, null> : never;

/** The tracks' settings in a resolved configuration, each off (`null`) or its value: `stale: StagesConfig | null` … */
export type TrackSettings = {
  readonly [S in Owned<(typeof TRACKS)[number]> as S extends Setting<object, infer K> ? K : never]: (S extends Setting<infer V, string> ? V : never) | null;
};

/** Every track, as the engine reads them: by their shape, not their names. */
const MODULES: readonly TrackModule[] = TRACKS;

/** The tracks of tool calls, in gate order. */
export const CALL_TRACKS: readonly CallTrackModule[] = MODULES.filter((track): track is CallTrackModule => track.meta.reads === 'calls');

/** The tracks of the messages a step claims. */
export const MESSAGE_TRACKS: readonly MessageTrackModule[] = MODULES.filter((track): track is MessageTrackModule => track.meta.reads === 'messages');

/** Every track's own setting, by its `order`: the shipped config, the checks and the schema list them so. */
export const SETTINGS: readonly Setting[] = MODULES.flatMap((track) => (track.meta.setting === null ? [] : [track.meta.setting])).sort((a, b) => a.order - b.order);

/** The same, by `card.order`: the card's "Opt-in tracks" group lists their fields so. */
export const CARD_SETTINGS: readonly Setting[] = [...SETTINGS].sort((a, b) => a.card.order - b.card.order);


/**
 * The registry of the tracks: every track's module, each one line. The tool-call tracks come in gate
 * order: a call's hits are listed, and its notices delivered, in this order
 * (failure first, the more actionable; then repeats; then a cycle; then the
 * opt-in stale, edit-retry and timeout tracks, the spin and guess tracks, and
 * the environment track). The duplicated-context track reads the messages
 * `agent/pre-step` claims, not tool calls; src/index.ts finds it by its
 * `meta.reads`.
 *
 * The tracks' metas have a registry of their own, in the same order
 * (tracks/meta.ts): config/, policy/ and the card read the settings there,
 * without the runtime. Adding a track is its two files, one line here and one
 * there, its tests (and the preset's data if the preset turns it on): the
 * breaker, config/, policy/ and the card read what they need from its `meta`.
 */
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

export const TRACKS: readonly TrackModule[] = [
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
];

/** The tracks of tool calls, in gate order. */
export const CALL_TRACKS: readonly CallTrackModule[] = TRACKS.filter((track): track is CallTrackModule => track.meta.reads === 'calls');

/** The tracks of the messages a step claims. */
export const MESSAGE_TRACKS: readonly MessageTrackModule[] = TRACKS.filter((track): track is MessageTrackModule => track.meta.reads === 'messages');


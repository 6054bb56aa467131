/**
 * The tracks of the tool-call breaker, in gate order: a call's hits are listed,
 * and its notices delivered, in this order (failure first, the more
 * actionable; then repeats; then a cycle; then the opt-in stale,
 * edit-retry and timeout tracks, the spin and guess tracks, and the environment track). Adding a track is one file that
 * exports a `TrackModule` and one line here.
 *
 * The duplicated-context track (duplicate-text.ts) is not among them: it reads
 * the messages `agent/pre-step` claims, not tool calls, and index.ts wires it.
 */
import { editRetryTrack } from './edit-retry.js';
import { failureTrack } from './failure.js';
import { guessTrack } from './guess.js';
import { occurrenceTrack } from './repeat.js';
import { sequenceTrack } from './sequence.js';
import { spinTrack } from './spin.js';
import { staleTrack } from './stale.js';
import { timeoutTrack } from './timeout.js';
import { unansweredTrack } from './environment.js';
import type { TrackModule } from './track.js';

export const TRACKS: readonly TrackModule[] = [failureTrack, occurrenceTrack, sequenceTrack, staleTrack, editRetryTrack, timeoutTrack, spinTrack, guessTrack, unansweredTrack];

/** The heading of each track's details in an ask, by track name (`tracksIn` in tools/lib/replay.ts reads them). */
export const ASK_TRACK_HEADINGS: Readonly<Record<string, string>> = Object.fromEntries(TRACKS.map((track) => [track.words.track, track.words.heading]));

/**
 * The failure track's meta (the track: failure.ts): it runs on the core
 * settings (`failWarnAt`, `failLimit`, `failureProgress`), so it owns no key;
 * what the engine reads of it without running it.
 */
import type { CallTrackMeta } from './track.js';

export const failureMeta = {
  name: 'failure',
  description: 'A measure whose calls keep failing.',
  reads: 'calls',
  // Its settings are core ones (`failWarnAt`, `failLimit`, `failureProgress`): 0.5.2's keys read as they always did.
  setting: null,
  // Always on: streaks are kept with both stages off, for a limit set later in the turn.
  isOn: () => true,
  // `failureProgress` compares a failure with the changes since the last one; `restart` reads the line's changes too.
  needs: (cfg) => ({ changes: cfg.failureProgress !== 'ignore', line: cfg.failureProgress === 'restart' }),
  summary: 'failed',
} satisfies CallTrackMeta;

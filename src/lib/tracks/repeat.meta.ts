/**
 * The repeat track's meta (the track: repeat.ts): it runs on the core
 * settings (`warnAt`, `summarizeAt`, the caps, `progress`), so it owns no key;
 * what the engine reads of it without running it.
 */
import type { CallTrackMeta } from './track.js';

export const repeatMeta = {
  name: 'repeat',
  description: 'A measure of the calls coming up again and again in the agent\'s recent calls.',
  reads: 'calls',
  // Its settings are core ones (`warnAt`, `summarizeAt`, the caps, `progress`): 0.5.2's keys read as they always did.
  setting: null,
  isOn: () => true,
  // `changes` and `outcomes` count from a change or an outcome; `changes` reads the line's changes too.
  needs: (cfg) => ({ changes: cfg.progress === 'changes' || cfg.progress === 'outcomes', line: cfg.progress === 'changes' }),
  // Its summaries carry the count after the measure: `cmd “…” × 7`.
  summary: '\u00d7',
} satisfies CallTrackMeta;

/**
 * The environment track's meta (the track: environment.ts): it runs under
 * the timeout track's setting, which it uses and does not own; what the
 * engine reads of it without running it.
 */
import { TIMEOUTS } from './timeout.meta.js';
import type { CallTrackMeta } from './track.js';

export const environmentMeta = {
  name: 'environment',
  description: 'Different commands timing out one after another: an environment that stopped answering.',
  reads: 'calls',
  setting: null,
  // The timeout track's setting turns it on and sets its stages: one key, owned there.
  uses: TIMEOUTS,
  isOn: (cfg) => TIMEOUTS.of(cfg) !== null,
  // The command names of a shell line that timed out, from the line's one split.
  needs: () => ({ line: true }),
  summary: 'environment',
} satisfies CallTrackMeta;

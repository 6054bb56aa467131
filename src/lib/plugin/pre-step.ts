/**
 * The tracks of the messages a step claims (the registry's `MESSAGE_TRACKS`,
 * the duplicated-context track today), over `agent/pre-step`: each is created
 * the first time a configuration turns it on, and reviews the step's decision
 * once the rest of the waterfall has made it. With none on, the listener
 * passes on exactly as it would without them.
 */
import type { PreStepPayload } from '../host/types.js';
import type { CoreConfig } from '../setting/core.js';
import { MESSAGE_TRACKS } from '../tracks/index.js';
import type { MessageTrack } from '../tracks/track.js';

/** The step's decision reviewed by every message track on: it may come back with notices appended. */
export type Review = (payload: PreStepPayload, decision: unknown) => unknown;

/** `reviewOf(cfg)`: the review the tracks that `cfg` turns on make, or `null` when it turns none on. */
export function createMessageTracks(now: () => number): (cfg: CoreConfig) => Review | null {
  const created: MessageTrack[] = [];
  return (cfg) => {
    const on = MESSAGE_TRACKS.flatMap((module, at) => (module.meta.isOn(cfg) ? [(created[at] ??= module.create(now))] : []));
    if (on.length === 0) return null;
    return (payload, decision) => on.reduce((reviewed, track) => track.review(payload, reviewed, cfg), decision);
  };
}

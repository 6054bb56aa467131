/**
 * The parallel read loop the host suites drive in process and in a full boot:
 * a model re-reading one file, three identical `read` calls per step (DSH runs
 * them as a pool), after a lead-in step that puts call `cap` — the gate —
 * second in its step, where DSH's pool order shows: the call after the gated
 * one passes its policy before the gated one's refusal settles.
 */
import type { ScriptedCall } from './stream.js';

export const POOLED_FILE = 'logs/build.log';

/** At least `calls` calls, in steps; call `cap` is the second of its step. */
export function pooledReads(cap: number, calls: number): ScriptedCall[][] {
  const read: ScriptedCall = { name: 'read', arguments: { file_path: POOLED_FILE } };
  const lead = (cap - 2) % 3;
  const steps: ScriptedCall[][] = lead === 0 ? [] : [Array.from({ length: lead }, () => read)];
  while (steps.flat().length < calls) steps.push([read, read, read]);
  return steps;
}

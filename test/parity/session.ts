/**
 * What a generated session is: plain data, so it can be cloned for each plugin,
 * shrunk step by step, and printed as a unit test. Nothing here runs a plugin.
 */
import type { Answer, HostResult } from '../support/fake-host.js';

/** What the tool body does when the pipeline lets it run. */
export type BodySpec =
  | { kind: 'return'; result: HostResult }
  | { kind: 'throw'; message: string; info?: unknown };

export type Step =
  /** One tool call. `agent: null` is a call with no agent (transparent to the plugin). */
  | {
      kind: 'call';
      agent: number | null;
      /** A fresh object with the same `id` as agent `agent` (a replay): identity, not `id`, names an agent. */
      fresh?: boolean;
      name: string;
      arguments: unknown;
      answer: Answer;
      body: BodySpec;
    }
  /** A human message claimed by `agent/pre-step` (resets that agent's turn). */
  | { kind: 'human'; agent: number }
  /** Other inbox messages (plugin notices, assistant text, nothing at all): never a reset. */
  | { kind: 'step'; agent: number; messages: unknown[] };

export interface Session {
  /** `<seed>/<index>`: enough to regenerate it. */
  id: string;
  /** The plugin config; `undefined` means `apply(ctx)` with no second argument. */
  config: unknown;
  /** How many agent objects the session uses. */
  agents: number;
  steps: Step[];
}

/** A deep copy that keeps `undefined`, `NaN` and `Infinity` (configs use them on purpose). */
export function cloneData<T>(value: T): T {
  return structuredClone(value);
}

/**
 * Freeze plain data in place, all the way down (already-frozen nodes are left as
 * they are). Sessions are frozen instead of cloned for each plugin: cheaper, and
 * a plugin that writes into the model's arguments or a result throws (ESM is
 * strict), which shows up as a mismatch instead of leaking into the other run.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

export function callCount(session: Session): number {
  let n = 0;
  for (const step of session.steps) if (step.kind === 'call') n += 1;
  return n;
}

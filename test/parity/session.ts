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
      /**
       * Calls next to each other with the same `pool` are one model step's
       * parallel-safe calls, run in DSH's pool order (`FakeHost.pool`); without
       * it a call is a step of its own.
       */
      pool?: number;
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

/** Where the run of steps that starts at `from` ends (exclusive): a pool's last call + 1, else `from + 1`. */
export function runEnd(steps: readonly Step[], from: number): number {
  const first = steps[from];
  if (first?.kind !== 'call' || first.pool === undefined) return from + 1;
  let end = from + 1;
  while (end < steps.length) {
    const step = steps[end] as Step;
    if (step.kind !== 'call' || step.pool !== first.pool) break;
    end += 1;
  }
  return end;
}

/** How many pools of two or more calls the session has, and how many calls they hold. */
export function poolCount(session: Session): { pools: number; calls: number } {
  let pools = 0;
  let calls = 0;
  for (let at = 0; at < session.steps.length; ) {
    const end = runEnd(session.steps, at);
    if (end - at > 1) {
      pools += 1;
      calls += end - at;
    }
    at = end;
  }
  return { pools, calls };
}

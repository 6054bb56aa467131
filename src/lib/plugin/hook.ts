/**
 * What every hook registration shares: a fault inside the plugin lets the call
 * through, and the notices a call earned go ahead of later plugins' contexts.
 */
import type { PostToolDecision } from '../host/types.js';

/** Runs a step of a hook; a fault inside the plugin must never break the tool pipeline. */
export function safely<T>(step: () => T, fallback: T): T {
  try {
    return step();
  } catch {
    return fallback;
  }
}

export function withNotices(downstream: PostToolDecision, owed: readonly unknown[]): PostToolDecision {
  if (owed.length === 0) return downstream;
  const later = Array.isArray(downstream?.additionalContexts) ? downstream.additionalContexts : [];
  return { ...downstream, additionalContexts: [...owed, ...later] };
}

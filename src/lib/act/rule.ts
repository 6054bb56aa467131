/**
 * The one shape every `act:` rule has: a name, a one-line reason, a rewrite of
 * the line, and the examples that specify it. The engine knows nothing about
 * any single rule; the unit tests run every rule's examples.
 */
import type { Line } from './syntax.js';

export interface Rule {
  /** A short name, used in docs/act.md and in test names. */
  readonly name: string;
  /** Why the rewrite cannot change what runs or what is read. */
  readonly reason: string;
  /** The rewrite. Pure, linear in the line, never throws. */
  readonly apply: (line: Line) => Line;
  /** Groups of spellings that must share one `act:` fingerprint (and need this rule to). */
  readonly folds: readonly (readonly string[])[];
  /** Pairs that look alike but are different actions: they must never share one. */
  readonly keeps: readonly (readonly [string, string])[];
}

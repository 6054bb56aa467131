/**
 * The failure streaks: per agent, per measure (the failure track keys it by its
 * mark's lookup key, call/identity.ts: a few bytes whatever the measure), the failures
 * in a row, the last failure, and, when the policy keeps evidence
 * (`failureProgress`), the change count at the last failure and the outcomes
 * of the last few. A shelf of the outcome memory (outcomes.ts); the failure
 * track asks it. At most `BOOK_LIMIT` streaks an agent, the oldest going first.
 */
import type { Agent } from '../host/types.js';
import { own } from '../host/own.js';
import type { Failure, FailureReason } from '../result/failure.js';
import { isNewest, keep, recalls, remember, type Recent } from './book.js';
import { keepShape } from '../host/shape.js';

export interface Streak {
  readonly count: number;
  /** The last failure recorded for the measure; the denial describes it. */
  readonly failure: Failure;
}

/**
 * What `failureProgress` compares a failure with: the digest of what the call
 * returned (result/digest.ts) and the workspace's change count.
 * - `restart`: after a change to the workspace a failure starts the streak
 *   again (edit → rerun is a new experiment); with nothing changed, a failure
 *   with another error holds the streak where it is (the model learned
 *   something, but did nothing about it), and only the same failure again
 *   extends it.
 * - `outcomes`: progress is a new outcome, not a change. A failure the streak
 *   has already seen extends it, changed files or not (an edit after which the
 *   check fails the same way changed nothing); a new error after a change
 *   starts it again; a new error with nothing changed holds it.
 */
export interface Evidence {
  readonly outcome: string | null;
  readonly changes: number;
  /** Whether an outcome the streak has seen extends it across a change (`outcomes`). */
  readonly sameAcrossChanges: boolean;
}

/** Per agent, the failure streak of each measure, at most `BOOK_LIMIT` of them. */
export interface StreakBook {
  streak(agent: Agent, key: string): Streak | undefined;
  /**
   * A settled outcome: a failure extends each key's streak, a success clears it.
   * With `evidence`, a failure unlike the key's last one starts it at 1 instead. Returns the new streaks.
   */
  settle(agent: Agent, keys: readonly string[], failure: Failure | null, evidence?: Evidence): number[];
  reset(agent: Agent): void;
}

/**
 * A streak as stored, its last failure in it (a book holds thousands of
 * streaks: one object each, not two). Never changed once made: the measures
 * of one call that share a history share one.
 */
export class Stored implements Streak, Failure {
  constructor(
    readonly count: number,
    readonly reason: FailureReason,
    readonly detail: string,
    /** The change count at its last failure, when the policy keeps evidence. */
    readonly changes: number | undefined,
    /** The outcomes of its last few failures, as one string (book.ts `Recent`). */
    readonly outcomes: Recent | undefined,
  ) {}

  /** The last failure recorded for the measure: its reason and detail, as stored here. */
  get failure(): Failure {
    return this;
  }
}

/** Distinct outcomes a streak remembers: an error that alternates with another is still the same two errors. */
const OUTCOMES_KEPT = 4;

/** The streak after one more failure, by what it shares with the measure's last ones (see `Evidence`). */
function nextCount(before: Stored | undefined, now: Evidence | undefined): number {
  const count = before?.count ?? 0;
  // 0.5.2: every failure extends.
  if (now === undefined) return count + 1;
  if (before?.changes === undefined) return 1;
  const known = now.outcome !== null && recalls(before.outcomes, now.outcome);
  if (before.changes !== now.changes) return known && now.sameAcrossChanges ? count + 1 : 1;
  // With nothing changed: the same failure again extends; `outcomes` counts any failure already seen.
  if (now.outcome !== null && (isNewest(before.outcomes, now.outcome) || (known && now.sameAcrossChanges))) return count + 1;
  return Math.max(count, 1);
}

/**
 * The outcomes a streak keeps after a failure. Keys with the same history share
 * one string (a call's keys usually have): the last history seen and what it
 * became are remembered for the call's next key. The outcomes outlive restarts
 * (an error that comes back is no news).
 */
class Histories {
  #before: Recent | undefined | null = null;
  #after: Recent | undefined;

  constructor(private readonly outcome: string | null) {}

  after(before: Recent | undefined): Recent | undefined {
    if (this.outcome === null) return before;
    // Stryker disable next-line ConditionalExpression: a shortcut: remembering the same history again gives the same string
    if (this.#before !== before) {
      this.#before = before;
      // A digest is a short string of its own (result/digest.ts), kept as it is.
      this.#after = remember(before, this.outcome, OUTCOMES_KEPT);
    }
    return this.#after;
  }
}

// Made per settled call (host/shape.ts).
keepShape(new Histories(null));
// A streak lives in an agent's book, which goes with the agent or at a human message (host/shape.ts).
// One of each kind a policy makes: with evidence (a change count, a history) and without; their
// fields hold other kinds of value, so the engine gives each a class of its own.
// Stryker disable next-line all: the kept streaks' values are never read; only their shapes are
keepShape(new Stored(1, 'exit', '', 0, ''));
// Stryker disable next-line all: as above
keepShape(new Stored(1, 'exit', '', undefined, undefined));

/**
 * A settled call's failure (or success) for its keys, in a book of streaks;
 * the new streaks. The keys are stored as given: a caller whose keys may be
 * cut from a huge text passes copies of its own (P6).
 */
export function settleKeys(streaks: Map<string, Stored>, keys: readonly string[], failure: Failure | null, evidence: Evidence | undefined): number[] {
  // Stryker disable next-line ArrayDeclaration: every slot is written below; the length is only made up front
  const counts = new Array<number>(keys.length);
  if (failure === null) {
    for (let at = 0; at < keys.length; at += 1) {
      streaks.delete(keys[at] as string);
      counts[at] = 0;
    }
    return counts;
  }
  // One stored copy of the failure's detail for all the call's keys (P6).
  const { reason } = failure;
  const detail = own(failure.detail);
  const histories = evidence === undefined ? null : new Histories(evidence.outcome);
  const changes = evidence?.changes;
  let last: Stored | null = null;
  for (let at = 0; at < keys.length; at += 1) {
    const key = keys[at] as string;
    const before = streaks.get(key);
    const count = nextCount(before, evidence);
    const outcomes = histories === null ? undefined : histories.after(before?.outcomes);
    // The call's keys with the same streak and history share its record.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: sharing a record is memory only; a fresh one holds the same
    if (last === null || last.count !== count || last.outcomes !== outcomes) last = new Stored(count, reason, detail, changes, outcomes);
    keep(streaks, key, last);
    counts[at] = count;
  }
  return counts;
}

export function createStreakBook(): StreakBook {
  const books = new WeakMap<Agent, Map<string, Stored>>();
  return {
    streak: (agent, key) => books.get(agent)?.get(key),
    settle(agent, keys, failure, evidence) {
      let streaks = books.get(agent);
      if (streaks === undefined) books.set(agent, (streaks = new Map()));
      // Its keys are whole measures: the book keeps copies of its own (P6).
      return settleKeys(streaks, keys.map(own), failure, evidence);
    },
    reset: (agent) => void books.delete(agent),
  };
}

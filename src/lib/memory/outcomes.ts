/**
 * The outcome memory: what each action of an agent's turn has returned, the
 * one book every track that compares outcomes asks, in a WeakMap on the agent
 * (the breaker clears an agent's part at a human message, memory/turn.ts).
 * An action is a mark's lookup key (call/identity.ts): the book never quotes
 * one, and keeps a few digests an action (P6). Its shelves, each bounded as
 * the track that asks it always was, the oldest entry going first:
 *
 * - **returned** (the stale and spin tracks), 256 actions: the action's recent
 *   outcomes (the spin track's "has it returned this before"), and those since
 *   the workspace last changed, with how many times in a row the same one came
 *   back (the stale track's). Both tracks settle the same actions of a call,
 *   so they share one entry an action and one order;
 * - **answers** (`progress: outcomes`), 256 actions: runs since the action last
 *   returned something new, and its recent outcomes;
 * - **since** (`progress: changes`), 256 actions: runs since the workspace
 *   last changed;
 * - **streaks** (the failure track and `failureProgress`), `BOOK_LIMIT`
 *   measures, under their lookup keys too: failures in a row, and their
 *   evidence (streaks.ts).
 */
import { keepShape } from '../host/shape.js';
import type { Agent } from '../host/types.js';
import type { Failure } from '../result/failure.js';
import { keep, keepNew, recalls, remember, type Recent } from './book.js';
import { settleKeys, type Evidence, type Stored, type Streak } from './streaks.js';

/** Actions a shelf keeps per agent: a repeat comes back within tens of calls, a turn is a few hundred. */
export const ACTIONS_KEPT = 256;

/** Distinct outcomes remembered an action: an A/B alternation is as much the same as A A A. */
const OUTCOMES_KEPT = 4;

/** An action on the `returned` shelf. (The entries are classes: a shelf holds hundreds, and an instance takes no more room than its fields.) */
class Returned {
  /** Its recent outcomes, newest last (book.ts `Recent`): the spin track's; `undefined` until it settled for that track. */
  seen: Recent | undefined = undefined;
  /** Its outcomes since the change count `changes`: the stale track's. */
  results: Recent | undefined = undefined;
  /** Outcomes in a row that were already among `results`, plus one. */
  same = 0;
  /** `Shared.changes` when it last settled for the stale track; -1 before. */
  changes = -1;
}

/** An action on the `answers` shelf. */
class Answers {
  runs = 0;
  outcomes: Recent | undefined = undefined;
}

/** An action on the `since` shelf. */
class Since {
  changes = -1;
  runs = 0;
}

/** A shelf: its entries by action, the least recently touched first, and which one was touched last. */
class Shelf<T> extends Map<string, T> {
  newest: string | undefined = undefined;
}

/** An entry of a shelf, made when missing, as the newest (the newest already is: a loop's action, or one two tracks settle in turn). */
function touched<T>(shelf: Shelf<T>, action: string, made: () => T): T {
  const found = shelf.get(action);
  if (found !== undefined && action === shelf.newest) return found;
  const entry = found ?? made();
  if (found === undefined) keepNew(shelf, action, entry, ACTIONS_KEPT);
  else keep(shelf, action, entry, ACTIONS_KEPT);
  shelf.newest = action;
  return entry;
}

const newReturned = (): Returned => new Returned();
const newAnswers = (): Answers => new Answers();
const newSince = (): Since => new Since();

/** One agent's book, asked by action or, for the streaks, by measure (each under its lookup key); a shelf is made when first written. */
export class AgentOutcomes {
  #returned: Shelf<Returned> | undefined;
  #answers: Shelf<Answers> | undefined;
  #since: Shelf<Since> | undefined;
  #streaks: Map<string, Stored> | undefined;

  /** Stale: the same outcomes in a row the action returned, if nothing changed (`changes`) since it last settled; else 0. */
  sameInRow(action: string, changes: number): number {
    const entry = this.#returned?.get(action);
    return entry !== undefined && entry.changes === changes ? entry.same : 0;
  }

  /** Stale: the action settled with `outcome` (`null`: unreadable) at change count `changes`; the same outcomes in a row now. */
  settleSame(action: string, outcome: string | null, changes: number): number {
    const entry = touched((this.#returned ??= new Shelf()), action, newReturned);
    // A change since the action last settled: what it returned before is no evidence now.
    const results = entry.changes === changes ? entry.results : undefined;
    const recalled = outcome !== null && recalls(results, outcome);
    entry.same = recalled ? entry.same + 1 : 1;
    entry.results = outcome === null ? results : remember(results, outcome, OUTCOMES_KEPT, recalled);
    entry.changes = changes;
    return entry.same;
  }

  /** Spin: whether the action has returned anything this turn. */
  hasReturned(action: string): boolean {
    return this.#returned?.get(action)?.seen !== undefined;
  }

  /** Spin: the action returned `outcome`; whether it had returned it before (among its recent ones). */
  returned(action: string, outcome: string): boolean {
    const entry = touched((this.#returned ??= new Shelf()), action, newReturned);
    const known = recalls(entry.seen, outcome);
    entry.seen = remember(entry.seen, outcome, OUTCOMES_KEPT, known);
    return known;
  }

  /** `progress: outcomes`: the action's runs since it last returned something new (0 when unknown). */
  runsSinceNews(action: string): number {
    return this.#answers?.get(action)?.runs ?? 0;
  }

  /** `progress: outcomes`: one more run of the action. */
  attempt(action: string): void {
    touched((this.#answers ??= new Shelf()), action, newAnswers).runs += 1;
  }

  /** `progress: outcomes`: a run of a known action returned `outcome`; one it had not returned starts its runs again. */
  answered(action: string, outcome: string): void {
    const entry = this.#answers?.get(action);
    if (entry === undefined || recalls(entry.outcomes, outcome)) return;
    entry.runs = 1;
    entry.outcomes = remember(entry.outcomes, outcome, OUTCOMES_KEPT, false);
  }

  /** `progress: changes`: the action's runs since the change count was last `changes` (0 when none). */
  runsSinceChange(action: string, changes: number): number {
    const entry = this.#since?.get(action);
    return entry !== undefined && entry.changes === changes ? entry.runs : 0;
  }

  /** `progress: changes`: one more run of the action at change count `changes`. */
  ran(action: string, changes: number): void {
    const entry = touched((this.#since ??= new Shelf()), action, newSince);
    entry.runs = entry.changes === changes ? entry.runs + 1 : 1;
    entry.changes = changes;
  }

  /** The failure streak of a measure (its lookup key). */
  streak(key: string): Streak | undefined {
    return this.#streaks?.get(key);
  }

  /** Whether any measure has a failure streak. */
  hasStreaks(): boolean {
    return this.#streaks !== undefined && this.#streaks.size > 0;
  }

  /** A success ends the measure's streak. */
  endStreak(key: string): void {
    this.#streaks?.delete(key);
  }

  /** A settled call's failure (or success) for its counted measures; the new streaks (see streaks.ts). */
  settleStreaks(keys: readonly string[], failure: Failure | null, evidence?: Evidence): number[] {
    return settleKeys((this.#streaks ??= new Map()), keys, failure, evidence);
  }
}

/**
 * A book with every shelf and every kind of entry made. An agent's book goes
 * with the agent or at a human message; held for the process's life, this one
 * keeps the classes of all of them (host/shape.ts).
 */
// Stryker disable all: the kept book is never read; only its shapes are
function everyShelf(): AgentOutcomes {
  const book = new AgentOutcomes();
  book.settleSame('', '', 0);
  book.returned('', '');
  book.attempt('');
  book.ran('', 0);
  return book;
}
keepShape(everyShelf());
// Stryker restore all

export interface OutcomeMemory {
  /** The agent's book, made when first asked for. */
  of(agent: Agent): AgentOutcomes;
  /** A human message: the agent's book goes. */
  clear(agent: Agent): void;
}

export function createOutcomeMemory(): OutcomeMemory {
  const books = new WeakMap<Agent, AgentOutcomes>();
  return {
    of(agent) {
      let book = books.get(agent);
      if (book === undefined) books.set(agent, (book = new AgentOutcomes()));
      return book;
    },
    clear: (agent) => void books.delete(agent),
  };
}

/**
 * The sequence track (opt-in): a cycle of different calls that repeats back to
 * back (grep → curl → read → bash, again and again). Each call of such a loop
 * may appear only a few times in the window, far below the repeat track's
 * stages, so the track looks at the order of the calls rather than at their
 * counts.
 *
 * A call's identity is its `exact:` key (decoys already stripped), or, with
 * `identity: action`, what the call does with its position left out (an edit
 * is its file and its new text, wherever it is sent). The history
 * is the identities of the agent's recent attempts, oldest first, at most
 * `window` of them; `findCycle` is a pure function over it.
 */
import type { Agent } from '../host/types.js';
import { identityKey } from '../call/identity.js';
import { own } from '../host/own.js';

/** A cycle that the current call continues. */
export interface Cycle {
  /** Distinct calls in one period (2 … the configured length). */
  readonly period: number;
  /** Calls in the back-to-back run, the current call included. */
  readonly run: number;
  /** Index in the history of the run's first call: the cycle is named from there. */
  readonly start: number;
}

/** Complete back-to-back periods in a run. */
export function repetitions(cycle: Cycle): number {
  return Math.floor(cycle.run / cycle.period);
}

/** Calls at the end of `history` + `next` that each equal the call `period` before them, plus one period. */
function runWith(history: readonly string[], next: string, period: number): number {
  const n = history.length;
  if (history[n - period] !== next) return 0;
  let matched = 1;
  // Stryker disable next-line ConditionalExpression,ArithmeticOperator: before the start history[at - period] is undefined, which no call equals
  for (let at = n - 1; at - period >= 0 && history[at] === history[at - period]; at -= 1) matched += 1;
  return matched + period;
}

/**
 * The cycle the call `next` continues, or `null`. Of the periods 1 …
 * `maxLength` the one whose back-to-back run is longest wins, the shorter on a
 * tie, so a cycle is named by its smallest period (A B A B is period 2, not 4).
 * A winner of 1 is a pure repeat (A A A, the repeat track's) and no cycle.
 * A period may hold one call twice, as real cycles do (edit → run → edit →
 * run, with another edit between the runs). O(maxLength × window).
 */
export function findCycle(history: readonly string[], next: string, maxLength: number): Cycle | null {
  const n = history.length;
  let period = 0;
  let run = 0;
  for (let back = 1; back <= Math.min(maxLength, n); back += 1) {
    const length = runWith(history, next, back);
    if (length > run) {
      period = back;
      run = length;
    }
  }
  if (period < 2) return null;
  return { period, run, start: n + 1 - run };
}

/**
 * The key a cycle is gated, exempted and refused under: `seq:` and its
 * identities from the smallest one on, so every rotation of one cycle is the
 * same key. Long keys go through the identity rule (P6), so it stays short.
 */
export function cycleKey(members: readonly string[]): string {
  let first = 0;
  members.forEach((member, at) => {
    if (member < (members[first] as string)) first = at;
  });
  const rotated = [...members.slice(first), ...members.slice(0, first)];
  return identityKey(`seq:${JSON.stringify(rotated)}`);
}

/** One attempt as the history keeps it: its identity and two short names for messages. */
export interface Step {
  readonly key: string;
  /** The call, shortened, for the body of a message. */
  readonly quote: string;
  /** The tool, or a shell command's verb, for a notice summary. */
  readonly brief: string;
}

export interface SequenceBook {
  /** The agent's recent identities, oldest first. */
  keys(agent: Agent): readonly string[];
  /** The stored step at an index of `keys`. */
  step(agent: Agent, at: number): Step | undefined;
  /** Appends an attempt; past `window` (the book's, or the agent's own) the oldest go. */
  record(agent: Agent, step: Step, window?: number): void;
  reset(agent: Agent): void;
}

const EMPTY: readonly string[] = Object.freeze([]);

export function createSequenceBook(fixedWindow: number): SequenceBook {
  const books = new WeakMap<Agent, { keys: string[]; steps: Step[] }>();
  return {
    keys: (agent) => books.get(agent)?.keys ?? EMPTY,
    step: (agent, at) => books.get(agent)?.steps[at],
    record(agent, step, window = fixedWindow) {
      let book = books.get(agent);
      if (book === undefined) {
        book = { keys: [], steps: [] };
        books.set(agent, book);
      }
      // Stored copies: a key or quote cut from a huge fingerprint would keep it alive (P6).
      const kept = { key: own(step.key), quote: own(step.quote), brief: own(step.brief) };
      book.keys.push(kept.key);
      book.steps.push(kept);
      while (book.keys.length > window) {
        book.keys.shift();
        book.steps.shift();
      }
    },
    reset(agent) {
      books.delete(agent);
    },
  };
}

/**
 * Two calls in turn, each answered as it was the round before: the stale
 * track's `backToBack` over a round of two. A file viewer makes this loop
 * more than any other: SWE-agent's `goto 120` then the same rejected
 * `edit 130:132`, or `scroll_up` then `scroll_down` over the same two
 * windows, again and again. Neither call comes back to back, so the
 * back-to-back run never grows, and each is too rare for the stale limit
 * until its fifth answer; the field (OpenHands) stops the alternation at its
 * sixth step.
 *
 * The rule asks what `backToBack` asks of one call, of each of the two: the
 * very same call (its `exact:` identity), answered the same way (stale.ts
 * `answerOf`) that many rounds, with nothing changed in the workspace and no
 * third call between; the call that would start the next round meets the
 * gate. A poll, an exempt call or a call with no answer starts the history
 * again, as does any other call.
 */
import type { Agent } from '../host/types.js';
import { own } from '../host/own.js';
import { defang, type HitWords } from '../text/message.js';
import { staleMeta } from './stale.meta.js';

/** One call that ran: its identity, its answer, and the workspace's change count when it settled. */
interface Answered {
  readonly lookup: string;
  /** How the texts quote it (`Mark.quote`, already cut). */
  readonly quote: string;
  readonly answer: string;
  readonly changes: number;
}

/** Most rounds looked back over: past it (a `backToBack` set higher), the rounds of two are not followed. */
const ROUNDS_KEPT = 16;

/** The words of the gate: the call goes round with one other, each answered as before. */
export const alternationWords: HitWords = {
  track: staleMeta.name,
  listed: 3,
  why: (hit) => `this call and ${defang(hit.detail)} went in turn ${hit.count} times, each answered as before, nothing changed in between (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 in turn with ${defang(hit.detail)} ${hit.count} times, each answered as before, nothing changed in between (limit ${hit.cap})`,
  note: 'Only the two calls going round are blocked: a different call, or either of them after a change to the files, will run.',
  ask: {
    what: (hit) => `${hit.subject.it} and one other call have gone in turn ${hit.count} times, each answered as before, with nothing changed in between.`,
    also: (hit) => `in turn with one other call ${hit.count} times, answered as before`,
  },
  zh: {
    what: (hit) => `${hit.subject.it}与另一个调用已交替 ${hit.count} 轮，每次的结果都与上一轮相同，期间没有任何改动。`,
    also: (hit) => `与另一个调用交替 ${hit.count} 轮，结果相同`,
  },
};

export interface Alternation {
  /**
   * A call settled: its identity (`lookup`, `quote`) and its answer, or `null` (a poll, an exempt call, no answer), which starts the history again.
   * The answer is kept as given: it must hold no parent of its own (a digest, or a failure's words copied: P6).
   */
  learn(agent: Agent, call: { readonly lookup: string; readonly quote: string } | null, answer: string | null, changes: number, rounds: number): void;
  /** When `lookup` would start another round of two calls that went in turn `rounds` times, answered as before, nothing changed since (`changes`): the other call's quote; else `null`. */
  partner(agent: Agent, lookup: string, changes: number, rounds: number): string | null;
  clear(agent: Agent): void;
}

/** Whether the last `2 * rounds` calls of `history` are two calls in turn, each answered as the round before, at `changes`. */
function inTurn(history: readonly Answered[], rounds: number, changes: number): boolean {
  const from = history.length - 2 * rounds;
  if (from < 0) return false;
  // `from` is not negative: the history holds both.
  const [last, before] = [history[history.length - 1] as Answered, history[history.length - 2] as Answered];
  if (last.lookup === before.lookup) return false;
  for (let at = from; at < history.length; at += 1) {
    const call = history[at] as Answered;
    if (call.changes !== changes) return false;
    // From the second round on, each call is the one two back, answered the same.
    const earlier = at >= from + 2 ? (history[at - 2] as Answered) : null;
    if (earlier !== null && (earlier.lookup !== call.lookup || earlier.answer !== call.answer)) return false;
  }
  return true;
}

/** `text` with storage of its own: one of the copies at hand when it has the same characters, else a new one. */
function ownedLike(text: string, one: string | undefined, other: string | undefined): string {
  // Stryker disable next-line ConditionalExpression: a copy of the same characters reads the same; the copies at hand only save memory
  if (text === one) return one;
  // Stryker disable next-line ConditionalExpression: as above
  if (text === other) return other;
  return own(text);
}

export function createAlternation(): Alternation {
  const histories = new WeakMap<Agent, Answered[]>();
  return {
    learn(agent, call, answer, changes, rounds) {
      // A call kept with no answer would break every round it is in, as a new history does; this keeps the history short.
      // Stryker disable next-line ConditionalExpression: as above (its `true` is the tests' to kill, hidden with it)
      const unanswered = answer === null;
      if (call === null || unanswered || rounds > ROUNDS_KEPT) {
        histories.delete(agent);
        return;
      }
      let history = histories.get(agent);
      // Stryker disable next-line ArrayDeclaration: an element before the first call is shifted out before a round can reach back to it
      if (history === undefined) histories.set(agent, (history = []));
      // Kept for rounds to come: a quote cut from a 1 MB call must not hold its parent (P6).
      // Calls going round quote as two calls back or the last one did: those copies are owned already.
      // Stryker disable next-line ArithmeticOperator: no copy at hand is a copy made (ownedLike, above)
      const last = history[history.length - 1];
      // Stryker disable next-line ArithmeticOperator: as above
      const earlier = history[history.length - 2];
      history.push({ lookup: call.lookup, quote: ownedLike(call.quote, earlier?.quote, last?.quote), answer, changes });
      // One out for one in, as a rule: no list of the removed made.
      // Stryker disable next-line ConditionalExpression: the memory bound: a round never reads past its last 2 × rounds calls
      while (history.length > 2 * rounds) history.shift();
    },
    partner(agent, lookup, changes, rounds) {
      const history = histories.get(agent);
      // The call that starts the next round is the one two calls back.
      if (history === undefined || history[history.length - 2]?.lookup !== lookup) return null;
      return inTurn(history, rounds, changes) ? (history[history.length - 1] as Answered).quote : null;
    },
    clear: (agent) => void histories.delete(agent),
  };
}

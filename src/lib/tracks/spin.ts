/**
 * The spin track (opt-in): a stretch of calls that learn nothing,
 * whatever they are. A model that cycles through seven searches, each
 * answered "No matches found", round after round, repeats no one call often
 * enough for the repeat or the stale track: each comes back once a round. But
 * every call of the second round returned what it returned in the first. The
 * loop is the stretch, whatever its period.
 *
 * Each call that ran either brought news (an action run for the first time
 * this turn, or a result its action has not returned before) or it did not
 * (a result its action already returned, changed files or not: a rewrite after
 * which the checks print what they printed last round changed nothing). Calls
 * that did not, in a row, make the spin; news ends it. A new write and a poll
 * are neither: a write is what the model does about it (the checks after it
 * say whether it worked), and a poll that waits is expected to answer the
 * same. The very same write again (`python solve.py > out.txt` each round) is
 * a call like any other: it changes nothing the first one did not.
 *
 * At `warnAt` calls in a row the model is told; past `limit`, the next call
 * that repeats an action already run meets the gate, unless a new write
 * succeeded since the spin's last call (the rerun after a fix may bring news).
 * A new call, or a write, always runs.
 */
import type { Agent, Notice } from '../host/types.js';
import type { Mark } from '../call/mark.js';
import { defang, type HitWords } from '../text/message.js';
import { createNotice, trackSummary } from '../text/notice.js';
import { SPIN, spinMeta } from './spin.meta.js';
import { actionsOf } from './actions.js';
import { NO_HITS, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';

/** The agent's spin: the outcomes of its actions are the outcome memory's (`returned`, `hasReturned`). */
interface Spin {
  /** Calls in a row that brought no news. */
  run: number;
  /** Whether a new write succeeded since the spin last grew: the next rerun may bring news. */
  fresh: boolean;
}

/** Spin stage 1: the last calls told the model nothing it did not know. */
export function spinMessage(count: number): string {
  return (
    `CONVERGENCE_CHECK: your last ${count} calls each returned what it had returned before: nothing in them was new. ` +
    'Running them again will return the same. Stop and use what you have: say what is established, what you assumed, and try a different approach, or ask for what you need.'
  );
}

/** The operator's ask (text/ask.ts): a stretch of calls that told the agent nothing new. */
const ask: HitWords['ask'] = {
  what: (hit) => `the last ${hit.count} calls returned nothing new, and this one repeats an earlier one.`,
  also: (hit) => `${hit.count} calls in a row that returned nothing new`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `agent 最近的 ${hit.count} 次调用都没有返回新内容，而这次调用又在重复之前的调用。`,
  also: (hit) => `连续 ${hit.count} 次调用没有新内容`,
};

const words: HitWords = {
  track: 'spin',
  listed: 6,
  why: (hit) => `the last ${hit.count} calls returned nothing new (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 repeats a call while the last ${hit.count} calls returned nothing new (limit ${hit.cap})`,
  note: 'Only repeats of calls already made are blocked: a new call, a change to the files, or a check after that change will run.',
  ask,
  zh,
};

/** A write the agent has not made before this turn: what it does about the spin, never part of it. */
function isNewWrite(shared: Shared, call: TrackedCall): boolean {
  return call.writes && !shared.outcomes.of(call.agent).hasReturned((call.marks[0] as Mark).lookup);
}

function judge(book: WeakMap<Agent, Spin>, shared: Shared, call: TrackedCall, actions: readonly Mark[]): Judgement {
  // Stryker disable next-line OptionalChaining: the track is made only when its setting is on
  const limit = SPIN.of(call.cfg)?.limit ?? null;
  const spin = book.get(call.agent);
  if (limit === null || spin === undefined || spin.run < limit || isNewWrite(shared, call)) return NO_HITS;
  // A new write since the spin last grew: this run may well bring news.
  if (spin.fresh) return NO_HITS;
  const { agent } = call;
  const outcomes = shared.outcomes.of(agent);
  for (const mark of actions) {
    if (!outcomes.hasReturned(mark.lookup) || shared.isExempt(agent, mark.key)) continue;
    // Stryker disable next-line StringLiteral: the spin's words quote no detail
    const hit: Hit = { key: mark.key, words, quote: mark.quote, count: spin.run, cap: limit, detail: '' };
    return { hits: [hit] };
  }
  return NO_HITS;
}

function learn(book: WeakMap<Agent, Spin>, shared: Shared, call: TrackedCall, actions: readonly Mark[], settled: Settled): Notice | null {
  const { agent } = call;
  const digest = settled.outcome();
  // Stryker disable next-line ConditionalExpression,LogicalOperator: no actions is no loop below; an unreadable result (null) throws in the books, text only, and the hook swallows it: no evidence either way
  if (actions.length === 0 || digest === null) return null;
  let spin: Spin | undefined;
  // Stryker disable next-line BooleanLiteral: set with the stretch below, and read only when there is one
  let neutral = false;
  let known = false;
  const outcomes = shared.outcomes.of(agent);
  const exempt = shared.exemptions(agent);
  for (const mark of actions) {
    // An approval comes at the gate, past `warnAt`: an approved action growing the stretch would change no stage.
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: as above
    if (exempt?.has(mark.key) === true) continue;
    if (spin === undefined) {
      spin = book.get(agent);
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: the first call learned sets both (a run from news, `fresh` from a write)
      if (spin === undefined) book.set(agent, (spin = { run: 0, fresh: false }));
      // Read before the call's outcomes are recorded: whether the write is one the agent has not made.
      neutral = isNewWrite(shared, call);
    }
    if (outcomes.returned(mark.lookup, digest)) known = true;
  }
  // Stryker disable next-line ConditionalExpression: only a call whose every action was approved: the stretch it would read is not there, and the hook swallows the throw
  if (spin === undefined) return null;
  if (neutral) {
    spin.fresh ||= settled.failure === null;
    return null;
  }
  spin.run = known ? spin.run + 1 : 0;
  spin.fresh = false;
  // Stryker disable next-line OptionalChaining: the track is made only when its setting is on
  if (!known || spin.run !== SPIN.of(call.cfg)?.warnAt) return null;
  return createNotice(spinMessage(spin.run), trackSummary(SUMMARY, `${spin.run} calls in a row returned nothing new`));
}

/** What its notices' summaries start with, its name (no measure to quote): `spin: 5 calls in a row returned nothing new`. */
const SUMMARY = spinMeta.summary;

/** The spin track's books: each agent's stretch, and the memory it shares with the other tracks. */
interface SpinBooks {
  readonly book: WeakMap<Agent, Spin>;
  readonly shared: Shared;
}

export const spinTrack = {
  meta: spinMeta,
  words,
  create: (shared) => ({ book: new WeakMap<Agent, Spin>(), shared }),
  hooks: {
    judge: ({ book, shared }, call) => judge(book, shared, call, actionsOf(call)),
    learn: ({ book, shared }, call, settled) => learn(book, shared, call, actionsOf(call), settled),
    // Its run goes here; the actions' outcomes go with the agent's turn (the outcome memory).
    // Stryker disable next-line ArrowFunction: with the outcomes gone, the next call is news, which ends the stretch anyway; the entry goes with the turn
    clear: ({ book }, agent) => void book.delete(agent),
  },
} satisfies CallTrackModule<SpinBooks>;

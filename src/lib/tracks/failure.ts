/**
 * The failure track: a measure whose calls keep failing. Each settled call
 * extends the streak of its enabled, unexempt measures when it failed and
 * clears it when it did not; at `failWarnAt` failures in a row the model is
 * told to fix the cause, and at `failLimit` the next call carrying the
 * measure meets the gate. Streaks are kept even while both stages are off, so
 * that a limit set mid-turn sees the failures before it.
 */
import type { Agent, Notice } from '../host/types.js';
import { own } from '../host/own.js';
import type { Failure } from '../result/failure.js';
import { isEnabled, type Mark } from '../call/mark.js';
import { defang, type HitWords } from '../text/message.js';
import { describeFailure, hitFailureZh } from '../text/failure.js';
import { countedSummary, createNotice } from '../text/notice.js';
import { isNewest, keep, recalls, remember, type Recent } from '../memory/book.js';
import { NO_HITS, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type Track, type TrackedCall } from './track.js';

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

/** A streak as stored, with the book's own copy of its key: re-setting a key must not store the caller's copy (P6). */
interface Stored extends Streak {
  readonly key: string;
  /** The change count at its last failure, when the policy keeps evidence. */
  readonly changes: number | undefined;
  /** The outcomes of its last few failures, as one string (a book holds thousands of streaks; book.ts `Recent`). */
  readonly outcomes: Recent | undefined;
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

export function createStreakBook(): StreakBook {
  const books = new WeakMap<Agent, Map<string, Stored>>();
  return {
    streak: (agent, key) => books.get(agent)?.get(key),
    settle(agent, keys, failure, evidence) {
      let book = books.get(agent);
      if (book === undefined) books.set(agent, (book = new Map()));
      const streaks = book;
      // Keys with the same history share one string of outcomes (a call's keys usually have); the outcomes outlive restarts (an error that comes back is no news).
      const shared = new Map<string | undefined, Recent | undefined>();
      const outcomesAfter = (before: Stored | undefined, now: Evidence): Recent | undefined => {
        if (now.outcome === null) return before?.outcomes;
        if (!shared.has(before?.outcomes)) shared.set(before?.outcomes, remember(before?.outcomes, own(now.outcome), OUTCOMES_KEPT));
        return shared.get(before?.outcomes);
      };
      // One stored copy of the failure for all the call's keys, and a key copied only when it is new (P6).
      const kept: Failure | null = failure === null ? null : { reason: failure.reason, detail: own(failure.detail) };
      return keys.map((key) => {
        if (kept === null) {
          streaks.delete(key);
          return 0;
        }
        const before = streaks.get(key);
        const stored = before?.key ?? own(key);
        const count = nextCount(before, evidence);
        const changes = evidence?.changes;
        const outcomes = evidence === undefined ? undefined : outcomesAfter(before, evidence);
        keep(streaks, stored, { key: stored, count, failure: kept, changes, outcomes });
        return count;
      });
    },
    reset: (agent) => void books.delete(agent),
  };
}

/** Failure stage 1: the target keeps failing; fix the cause rather than re-run. */
export function failWarnMessage(quote: string, streak: number, failure: Failure | null): string {
  return (
    `CONVERGENCE_CHECK: ${defang(quote)} has failed ${streak} times in a row (${describeFailure(failure)}). ` +
    'Running it again will not change that. Read the error, check that the target exists and is spelled right, and fix the cause before retrying.'
  );
}

const words: HitWords = {
  track: 'failure',
  listed: 1,
  heading: 'Failure track:',
  why: (hit) => `it failed ${hit.count} times in a row (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 ${hit.count} consecutive failures (${hit.detail})`,
  asking: (hit) => `retries an action that has failed ${hit.count} times in a row (the limit is ${hit.cap})`,
  detail: (hit) => `${defang(hit.quote)}, ${hit.count} failures in a row (${hit.detail})`,
  note: 'Only calls that carry the failing measure are blocked: a different call (reading the error log, searching the code, another endpoint) will run.',
  zh: {
    heading: '失败轨道：',
    asking: (hit) => `会重试一个已连续失败 ${hit.count} 次的动作（上限为 ${hit.cap}）`,
    detail: (hit) => `${defang(hit.quote)}，连续失败 ${hit.count} 次（${hitFailureZh(hit)}）`,
  },
};

/** The measures whose streak has reached the limit. */
function failureHits(streaks: StreakBook, call: TrackedCall): Judgement {
  const limit = call.cfg.failLimit;
  if (limit === null) return NO_HITS;
  let hits: Hit[] | null = null;
  for (const mark of call.marks) {
    // Stryker disable next-line ConditionalExpression: a shortcut; a measure with a null cap keeps no streak (settle counts only enabled ones), and a cap turned off mid-turn waits for the human message that clears the streaks
    if (!isEnabled(mark)) continue;
    const streak = streaks.streak(call.agent, mark.key);
    if (streak !== undefined && streak.count >= limit) {
      (hits ??= []).push({ key: mark.key, words, quote: mark.quote, count: streak.count, cap: limit, detail: describeFailure(streak.failure), failure: streak.failure });
    }
  }
  return hits === null ? NO_HITS : { hits };
}

/** Of the measures whose streak reached `failWarnAt` just now, the one to warn about: the more actionable first. */
function warned(counted: readonly Mark[], streaks: readonly number[], at: number): Mark | null {
  let best: Mark | null = null;
  counted.forEach((mark, index) => {
    if (streaks[index] === at && (best === null || mark.rank < best.rank)) best = mark;
  });
  return best;
}

function settle(shared: Shared, streaks: StreakBook, call: TrackedCall, settled: Settled): Notice | null {
  const { agent, marks, cfg } = call;
  const { failure } = settled;
  const counted = marks.filter((mark) => isEnabled(mark) && !shared.isExempt(agent, mark.key));
  // Evidence only for a failure: a success ends every streak it touches.
  const evidence = cfg.failureProgress === 'ignore' || failure === null ? undefined : { outcome: settled.outcome(), changes: shared.changes(agent), sameAcrossChanges: cfg.failureProgress === 'outcomes' };
  const counts = streaks.settle(agent, counted.map((mark) => mark.key), failure, evidence);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut; a success leaves every streak at 0, which no stage (at least 1, or null) equals
  if (failure === null || cfg.failWarnAt === null) return null;
  const top = warned(counted, counts, cfg.failWarnAt);
  if (top === null) return null;
  return createNotice(failWarnMessage(top.quote, cfg.failWarnAt, failure), countedSummary(top.label, SUMMARY, cfg.failWarnAt));
}

/** What its notices' summaries say: `cmd “cat /nope” failed x3`. */
const SUMMARY = 'failed';

export const failureTrack = {
  meta: {
    name: 'failure',
    description: 'A measure whose calls keep failing.',
    reads: 'calls',
    // Its settings are core ones (`failWarnAt`, `failLimit`, `failureProgress`): 0.5.2's keys read as they always did.
    setting: null,
    // Always on: streaks are kept with both stages off, for a limit set later in the turn.
    isOn: () => true,
    // `failureProgress` compares a failure with the changes since the last one; `restart` reads the line's changes too.
    needs: (cfg) => ({ changes: cfg.failureProgress !== 'ignore', line: cfg.failureProgress === 'restart' }),
    words,
    summary: SUMMARY,
  },
  create(shared): Track {
    const streaks = createStreakBook();
    return {
      judge: (call) => failureHits(streaks, call),
      learn: (call, settled) => settle(shared, streaks, call, settled),
      clear: (agent) => streaks.reset(agent),
    };
  },
} satisfies CallTrackModule;

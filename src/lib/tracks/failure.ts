/**
 * The failure track: a measure whose calls keep failing. Each settled call
 * extends the streak of its enabled, unexempt measures when it failed and
 * clears it when it did not; at `failWarnAt` failures in a row the model is
 * told to fix the cause, and at `failLimit` the next call carrying the
 * measure meets the gate. Streaks are kept even while both stages are off, so
 * that a limit set mid-turn sees the failures before it.
 */
import type { Notice } from '../host/types.js';
import type { Failure } from '../result/failure.js';
import { isEnabled, type Mark } from '../call/mark.js';
import { defang, type HitWords } from '../text/message.js';
import { describeFailure } from '../text/failure.js';
import { countedSummary, createNotice } from '../text/notice.js';
import { failureMeta } from './failure.meta.js';
import { NO_HITS, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';


/** Failure stage 1: the target keeps failing; fix the cause rather than re-run. */
export function failWarnMessage(quote: string, streak: number, failure: Failure | null): string {
  return (
    `CONVERGENCE_CHECK: ${defang(quote)} has failed ${streak} times in a row (${describeFailure(failure)}). ` +
    'Running it again will not change that. Read the error, check that the target exists and is spelled right, and fix the cause before retrying.'
  );
}

/** The operator's ask (text/ask.ts): the call has failed again and again. */
const ask: HitWords['ask'] = {
  what: (hit) => `${hit.subject.it} ${hit.subject.many ? 'have' : 'has'} failed ${hit.count} times in a row${hit.failed === '' ? '' : ` (${hit.failed})`}.`,
  also: (hit) => `${hit.count} failures in a row`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `${hit.subject.it}已连续失败 ${hit.count} 次${hit.failed === '' ? '' : `（${hit.failed}）`}。`,
  also: (hit) => `连续失败 ${hit.count} 次`,
};

const words: HitWords = {
  track: 'failure',
  listed: 1,
  why: (hit) => `calls like it failed ${hit.count} times in a row (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 ${hit.count} consecutive failures (${hit.detail})`,
  note: 'Only calls that carry the failing measure are blocked: a different call (reading the error log, searching the code, another endpoint) will run.',
  ask,
  zh,
};

/** The measures whose streak has reached the limit. */
function failureHits(shared: Shared, call: TrackedCall): Judgement {
  const limit = call.cfg.failLimit;
  if (limit === null) return NO_HITS;
  const book = shared.outcomes.of(call.agent);
  // Stryker disable next-line ConditionalExpression: a shortcut: an agent that has no streak has none at its limit
  if (!book.hasStreaks()) return NO_HITS;
  let hits: Hit[] | null = null;
  for (const mark of call.marks) {
    // Stryker disable next-line ConditionalExpression: a shortcut; a measure with a null cap keeps no streak (settle counts only enabled ones), and a cap turned off mid-turn waits for the human message that clears the streaks
    if (!isEnabled(mark)) continue;
    const streak = book.streak(mark.lookup);
    if (streak !== undefined && streak.count >= limit) {
      (hits ??= []).push({ key: mark.key, words, quote: mark.quote, count: streak.count, cap: limit, detail: describeFailure(streak.failure), failure: streak.failure });
    }
  }
  return hits === null ? NO_HITS : { hits };
}

/** Of the measures whose streak reached `failWarnAt` just now, the one to warn about: the more actionable first. */
function warned(counted: readonly Mark[], streaks: readonly number[], at: number): Mark | null {
  let best: Mark | null = null;
  for (let index = 0; index < counted.length; index += 1) {
    const mark = counted[index] as Mark;
    if (streaks[index] === at && (best === null || mark.rank < best.rank)) best = mark;
  }
  return best;
}

function settle(shared: Shared, call: TrackedCall, settled: Settled): Notice | null {
  const { agent, marks, cfg } = call;
  const { failure } = settled;
  const book = shared.outcomes.of(agent);
  if (failure === null) {
    // A success ends the streak of every measure it counts; an agent that has no streak has none to end.
    // Stryker disable next-line ConditionalExpression: a shortcut: ending no streak changes nothing
    if (book.hasStreaks()) {
      const exempt = shared.exemptions(agent);
      for (const mark of marks) if (isEnabled(mark) && exempt?.has(mark.key) !== true) book.endStreak(mark.lookup);
    }
    return null;
  }
  const counted: Mark[] = [];
  const keys: string[] = [];
  const exempt = shared.exemptions(agent);
  for (const mark of marks) {
    if (!isEnabled(mark) || exempt?.has(mark.key) === true) continue;
    counted.push(mark);
    keys.push(mark.lookup);
  }
  const evidence = cfg.failureProgress === 'ignore' ? undefined : { outcome: settled.outcome(), changes: shared.changes(agent), sameAcrossChanges: cfg.failureProgress === 'outcomes' };
  const counts = book.settleStreaks(keys, failure, evidence);
  if (cfg.failWarnAt === null) return null;
  const top = warned(counted, counts, cfg.failWarnAt);
  if (top === null) return null;
  return createNotice(failWarnMessage(top.quote, cfg.failWarnAt, failure), countedSummary(top.label, SUMMARY, cfg.failWarnAt));
}

/** What its notices' summaries say: `cmd “cat /nope” failed x3`. */
const SUMMARY = failureMeta.summary;

export const failureTrack = {
  meta: failureMeta,
  words,
  // Its books are the outcome memory's streaks (the shared memory), cleared with the agent's turn.
  create: (shared) => shared,
  hooks: {
    judge: (shared, call) => failureHits(shared, call),
    learn: (shared, call, settled) => settle(shared, call, settled),
    clear: () => undefined,
  },
} satisfies CallTrackModule<Shared>;

/**
 * The repeat track: how often each measure
 * of a call has come up in the agent's window. Stages fire on exact equality
 * with their threshold, the count including the current call, so each fires
 * once per crossing: `warnAt` nudges, `summarizeAt` asks for a written summary,
 * and a measure's cap sends the call to the gate. With `progress: results`, a
 * repeat hit on an action measure whose recent results differ is held back:
 * a poll making progress (memory/progress.ts keeps the digests). With `progress:
 * changes`, an action that runs again after a change to the workspace is a new
 * experiment (edit → rerun): its count starts from 1 again. With `progress:
 * outcomes`, progress is a new outcome, not a change: an action whose run
 * returned something it had not returned before (a poll whose answer moved, a
 * check that answers differently after a fix) counts from 1 again, and the
 * same answer again counts on, changed files or not.
 */
import type { Notice } from '../host/types.js';
import { URL_TOOL } from '../call/fingerprint.js';
import { isEnabled, type Mark } from '../call/mark.js';
import { defang, type HitWords } from '../text/message.js';
import { createNotice, repeatSummary } from '../text/notice.js';
import { createProgressBook, isActionKey, type ProgressBook } from '../memory/progress.js';
import { resultDigest } from '../result/digest.js';
import type { AgentOutcomes } from '../memory/outcomes.js';
import type { Tally } from '../memory/turn.js';
import { repeatMeta } from './repeat.meta.js';
import { NO_HITS, type CallTrackModule, type Hit, type Judgement, type Shared, type TrackedCall } from './track.js';

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** The operator's ask (text/ask.ts): the call would come up once more among the agent's recent calls. */
const ask: HitWords['ask'] = {
  what: (hit) => `this would be the ${ordinal(hit.count)} ${hit.subject.one} among the agent's recent calls.`,
  also: (hit) => `${hit.count} runs among the agent's recent calls`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `这将是 agent 最近的调用中第 ${hit.count} 次${hit.subject.one}。`,
  also: (hit) => `在 agent 最近的调用中出现 ${hit.count} 次`,
};

const words: HitWords = {
  track: 'repeat',
  listed: 0,
  why: (hit) => `it would be the ${ordinal(hit.count)} call of its kind among your recent calls, counting this one and any that were stopped; the gate closes at ${hit.cap}`,
  line: (hit) => `${defang(hit.quote)} ${hit.count}/${hit.cap}`,
  note: null,
  ask,
  zh,
};

/** Repeat stage 1: a nudge, demanding nothing. */
export function warnMessage(quote: string, count: number): string {
  return (
    `CONVERGENCE_CHECK: ${defang(quote)} has come up ${count} times in your recent calls this turn. ` +
    'Nothing is blocked. Before the next call, ask whether a different route would reach the answer sooner.'
  );
}

/** Repeat stage 2: the model writes down where it stands before going on. */
export function summarizeMessage(quote: string, count: number): string {
  return [
    `CONVERGENCE_CHECK: ${defang(quote)} has come up ${count} times in your recent calls this turn. Before your next call, write down:`,
    '1. what you have established, and how you know it;',
    '2. what you assumed without checking;',
    '3. what failed, and why;',
    '4. at least two approaches you have not tried yet.',
    'If you are working through items in batches, take more of them in each call so that fewer calls are needed.',
  ].join('\n');
}

export interface Stage {
  readonly mark: Mark;
  readonly count: number;
  /** 1: warn; 2: demand a summary. */
  readonly level: 1 | 2;
}

/**
 * The stage an allowed call earns, before it is committed: the strongest stage,
 * then the more actionable measure (a stage is one count). Exempt measures are
 * skipped: an approved exemption cannot escalate again this turn (P2).
 */
export function repeatStage(shared: Shared, call: TrackedCall): Stage | null {
  const { warnAt, summarizeAt } = call.cfg;
  const tally = shared.tally(call.agent);
  const book = bookOf(shared, call);
  const changes = changesOf(shared, call);
  // A stage is reached only at one of the two counts: below both, no mark's count matters.
  const least = Math.min(warnAt ?? Number.POSITIVE_INFINITY, summarizeAt ?? Number.POSITIVE_INFINITY);
  const exempt = shared.exemptions(call.agent);
  let best: Stage | null = null;
  for (const mark of call.marks) {
    if (!isEnabled(mark) || exempt?.has(mark.key) === true) continue;
    const count = countOf(call, tally, book, changes, mark, least);
    const level = count === summarizeAt ? 2 : count === warnAt ? 1 : 0;
    if (level === 0) continue;
    // At one level every count is that stage's count, so a tie goes to the more actionable measure.
    if (best === null || level > best.level || (level === best.level && mark.rank < best.mark.rank)) {
      best = { mark, count, level };
    }
  }
  return best;
}

function advise(shared: Shared, call: TrackedCall): Notice | null {
  const stage = repeatStage(shared, call);
  if (stage === null) return null;
  const text = stage.level === 2 ? summarizeMessage(stage.mark.quote, stage.count) : warnMessage(stage.mark.quote, stage.count);
  return createNotice(text, repeatSummary(stage.mark.label, stage.count));
}

/**
 * Occurrences of a mark's key including the current call, as the stages and
 * the cap compare them: the count in the window (0.5.2's); under `progress:
 * changes` no more than the action's runs since the workspace last changed,
 * under `progress: outcomes` no more than its runs since it last returned
 * something new. What it reads (`tally`, `book`, `changes`) is fetched once
 * for all of a call's marks (`bookOf`, `changesOf`) and passed as it is: no object a call.
 *
 * `least`: the smallest count the caller acts on. Below it the book is not
 * read (the quiet path): it can only lower the count, so the caller's answer
 * is the same.
 */
function countOf(call: TrackedCall, tally: Tally, book: AgentOutcomes | null, changes: number, mark: Mark, least: number): number {
  const count = (tally.get(mark.key)?.count ?? 0) + 1;
  if (book === null || count < least) return count;
  if (call.cfg.progress === 'changes') return renews(call, mark) ? Math.min(count, book.runsSinceChange(mark.lookup, changes) + 1) : count;
  return answers(call, mark) ? Math.min(count, book.runsSinceNews(mark.lookup) + 1) : count;
}

/** The agent's outcomes, under `progress: changes` and `outcomes` (`countOf`'s book). */
function bookOf(shared: Shared, call: TrackedCall): AgentOutcomes | null {
  const { progress } = call.cfg;
  return progress === 'changes' || progress === 'outcomes' ? shared.outcomes.of(call.agent) : null;
}

/** The change count under `progress: changes` (`countOf`'s changes). */
function changesOf(shared: Shared, call: TrackedCall): number {
  return call.cfg.progress === 'changes' ? shared.changes(call.agent) : 0;
}

/** The action measures (progress.ts `isActionKey`) but `net:` and `sink:`: what a run that reads the workspace is counted under. */
const RENEWING: ReadonlySet<string> = new Set(['exact', 'cmd', 'act']);

/**
 * Whether a mark counts from 1 again after a change: a run that reads the
 * workspace (a test, a script, a file read), not a fetch of a URL (the remote did
 * not change) and not a write (writes are the changes: a loop of writes must
 * still add up, and `sink:` counts them).
 */
function renews(call: TrackedCall, mark: Mark): boolean {
  if (call.cfg.progress !== 'changes' || call.writes || !RENEWING.has(mark.measure)) return false;
  return !URL_TOOL.test(call.name);
}

/** The call was attempted (`progress: changes`): one more run of each action that reads the workspace. */
function noteRun(shared: Shared, call: TrackedCall): void {
  const changes = shared.changes(call.agent);
  const book = shared.outcomes.of(call.agent);
  // Only actions still in the window can be counted, so a small book holds every one that matters.
  for (const mark of call.marks) if (renews(call, mark)) book.ran(mark.lookup, changes);
}

/** The action measures (progress.ts `isActionKey`) but `sink:`: what a run that answers is counted under, a fetch included. */
const ANSWERING: ReadonlySet<string> = new Set(['exact', 'cmd', 'act', 'net']);

/** Whether a mark counts its runs since a new outcome (`progress: outcomes`): an action that reads, a fetch included; not a write. */
function answers(call: TrackedCall, mark: Mark): boolean {
  return !call.writes && ANSWERING.has(mark.measure);
}

/** The call was attempted (`progress: outcomes`): one more run of each of its actions (a denied run counts, as in the window). */
function noteAttempt(shared: Shared, call: TrackedCall): void {
  const book = shared.outcomes.of(call.agent);
  for (const mark of call.marks) if (answers(call, mark)) book.attempt(mark.lookup);
}

/** The call ran: an outcome its action had not returned before starts its count again. */
function noteOutcome(shared: Shared, call: TrackedCall, outcome: string | null): void {
  if (outcome === null) return;
  const book = shared.outcomes.of(call.agent);
  for (const mark of call.marks) if (answers(call, mark)) book.answered(mark.lookup, outcome);
}

/** Each measure at or past its cap, unless a poll's results are still changing. */
function repeatHits(shared: Shared, progress: ProgressBook | null, call: TrackedCall): Judgement {
  const { agent, marks } = call;
  const holding = progress !== null && call.cfg.progress === 'results';
  const tally = shared.tally(agent);
  const book = bookOf(shared, call);
  const changes = changesOf(shared, call);
  let hits: Hit[] | null = null;
  for (const mark of marks) {
    const count = countOf(call, tally, book, changes, mark, mark.cap);
    if (count >= mark.cap && !(holding && progress.varied(agent, mark.key))) {
      // Stryker disable next-line StringLiteral: the repeat track's words never read a hit's detail
      (hits ??= []).push({ key: mark.key, words, quote: mark.quote, count, cap: mark.cap, detail: '' });
    }
  }
  return hits === null ? NO_HITS : { hits };
}

/** The repeat track's books: the window its progress book is made with, and that book once a policy asks for it. */
interface RepeatBooks {
  readonly shared: Shared;
  readonly window: number;
  progress: ProgressBook | null;
}

export const repeatTrack = {
  meta: repeatMeta,
  words,
  // The results' digests (`progress`), kept only once a policy asks for `progress: results`.
  create: (shared, initial) => ({ shared, window: initial.window, progress: null }),
  hooks: {
    judge: ({ shared, progress }, call) => repeatHits(shared, progress, call),
    attempted: ({ shared }, call) => {
      const { progress } = call.cfg;
      if (progress === 'changes') noteRun(shared, call);
      else if (progress === 'outcomes') noteAttempt(shared, call);
    },
    advise: ({ shared }, call) => advise(shared, call),
    learn(books, call, settled) {
      const { result } = settled;
      const { cfg } = call;
      if (cfg.progress === 'outcomes') noteOutcome(books.shared, call, settled.outcome());
      // Stryker disable next-line ConditionalExpression: a shortcut; digests kept under `ignore` are never read, as only a `results` policy holds a gate back
      if (cfg.progress !== 'results') return null;
      const actions = call.marks.filter((mark) => isEnabled(mark) && isActionKey(mark.key)).map((mark) => mark.key);
      (books.progress ??= createProgressBook(books.window)).record(call.agent, actions, resultDigest(result, call.name, cfg.ignoreArgs), cfg.window);
      return null;
    },
    // The runs since a change or an outcome go with the agent's turn (the outcome memory).
    clear: ({ progress }, agent) => progress?.reset(agent),
  },
} satisfies CallTrackModule<RepeatBooks>;

/**
 * The timeout track (opt-in, keyed `timeouts`): one program running out of time
 * again and again. A model whose training run, build or install hits the
 * call's time limit tends to start it again with new flags (`fasttext
 * supervised -epoch 25`, then `-epoch 5 -dim 50`, then on a bigger sample):
 * every respelling is a new call, and a quick success in between (a smaller
 * run) clears any failure streak. Counted per program over the turn
 * (shell/program.ts), the time-outs do not go away: at `warnAt` the model is
 * told to make the job fit the time it has, and past `limit` (off unless set)
 * the next run of that program meets the gate. The very same call timing out
 * with output it never gave before got further (a resumable build whose
 * remaining targets fall): that is progress, and the count starts again.
 * With `respelled`, a job that was made to fit (a smaller run of it
 * succeeded) and is respelled past its time again meets the gate sooner: that
 * many time-outs, each a new spelling, one of them after the fit.
 *
 * Its setting also drives the environment track (environment.ts): different
 * commands timing out one after another.
 */
import type { Agent, Notice } from '../host/types.js';
import { safeMember } from '../host/member.js';
import { own } from '../host/own.js';
import { identityKey } from '../call/identity.js';
import type { Mark } from '../call/mark.js';
import { programsOf } from '../shell/program.js';
import { defang, preview, type HitWords } from '../text/message.js';
import { countedSummary, createNotice, summaryLabel } from '../text/notice.js';
import { TIMEOUTS, timeoutMeta } from './timeout.meta.js';
import { keep, recalls, remember, type Recent } from '../memory/book.js';
import { actionsOf } from './actions.js';
import { NO_HITS, readOf, slot, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';

/** Longest program quoted in a message. */
const PROGRAM_CHARS = 120;

interface Count {
  readonly key: string;
  count: number;
  /** The call (`exact:`, its lookup key) that last ran the program out of time, and the outcomes of its time-outs. */
  last: string;
  outcomes: Recent | undefined;
  /** The spellings of its time-outs (their actions' lookup keys): a time-out of none of them is a new spelling. */
  spellings: Recent | undefined;
  /** Its time-outs that were each a new spelling (new flags, new code). */
  respelled: number;
  /** A run of it finished in time after it first ran out of time: the job was made to fit. */
  fit: boolean;
  /** A new spelling ran out of time after that: the job was grown past its time again. */
  grown: boolean;
}

/** Outcomes remembered per program: a job that answers A, B, A is not moving. */
const OUTCOMES_KEPT = 4;

/** Spellings remembered per program (each action of a time-out is one). */
const SPELLINGS_KEPT = 16;

/**
 * The program's count after one more time-out. The very call that timed out
 * before, timing out with output it never gave (a resumable build whose
 * remaining targets fall), got further: progress, and the count starts again.
 * A respelled run (new flags, new code) starts the job from scratch: one more.
 */
function afterTimeout(before: Count | undefined, call: string, outcome: string | null): number {
  if (before === undefined) return 1;
  const moved = before.last === call && outcome !== null && !recalls(before.outcomes, outcome);
  return moved ? 1 : before.count + 1;
}

/** The actions a time-out is spelled by: the call itself, and how it reads however spelled (`cmd:`, `act:`), so a retry with another tool option is no new spelling. */
function spellingsOf(call: TrackedCall): readonly string[] {
  const actions = actionsOf(call);
  return actions.length > 0 ? actions.map((mark) => mark.lookup) : [(call.marks[0] as Mark).lookup];
}

/**
 * The program's record after one more time-out. A new spelling after a run of
 * it fit is the job grown past its time again: a model tuning the knobs of a
 * job that does not fit (`-epoch 25`, then `-dim 50`, then on a bigger
 * sample) is guessing sizes with the clock as the answer. The very same run
 * retried (a suite whose build cache fills) is no new spelling.
 */
function timedOutAgain(before: Count | undefined, stored: string, call: TrackedCall, outcome: string | null): Count {
  const exact = (call.marks[0] as Mark).lookup;
  const count = afterTimeout(before, exact, outcome);
  const spelled = spellingsOf(call);
  // Progress (the count started again) starts the job's record again too.
  const kept = count === 1 ? undefined : before;
  const fresh = kept === undefined || !spelled.some((lookup) => recalls(kept.spellings, lookup));
  let spellings = kept?.spellings;
  for (const lookup of spelled) spellings = remember(spellings, lookup, SPELLINGS_KEPT);
  const outcomes = outcome === null ? before?.outcomes : remember(before?.last === exact ? before.outcomes : undefined, outcome, OUTCOMES_KEPT);
  const fit = kept?.fit ?? false;
  return { key: stored, count, last: exact, outcomes, spellings, respelled: (kept?.respelled ?? 0) + (fresh ? 1 : 0), fit, grown: (kept?.grown ?? false) || (fit && fresh) };
}

/** Whether the `respelled` gate has armed for the program: that many new spellings timed out, one after a run that fit. */
function respelledArmed(found: Count, gate: number | null): boolean {
  return gate !== null && found.grown && found.respelled >= gate;
}

function programKey(program: string): string {
  return identityKey(`prog:${program}`);
}

/** Timeout stage 1: the same program keeps running out of time. */
export function timeoutMessage(program: string, count: number): string {
  return (
    `CONVERGENCE_CHECK: ${defang(preview(program, PROGRAM_CHARS))} has run out of time ${count} times this turn. ` +
    'Starting it again with other flags will run out of time again. Make the job fit the time it has (a smaller input, fewer iterations), run it in the background and check on it, or say what it needs.'
  );
}

/** The `respelled` gate arming: the job was made to fit, then respelled past its time again and again. */
export function respelledMessage(program: string, count: number): string {
  return (
    `CONVERGENCE_CHECK: ${defang(preview(program, PROGRAM_CHARS))} has run out of time ${count} times this turn, each time with new flags or code, after a smaller run of it finished. ` +
    'Another setting of the same job will run out of time again, and its next run will be refused. Keep to the size that finished, run the big job in the background and check on it, or say what it needs.'
  );
}

/** The operator's ask (text/ask.ts): the program that keeps running out of time, whatever the command around it. */
const ask: HitWords['ask'] = {
  what: (hit) => `the program ${hit.shown} has run out of time ${hit.count} times this turn.`,
  also: (hit) => `${hit.count} time-outs of its program this turn`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `程序 ${hit.shown} 本回合已超时 ${hit.count} 次。`,
  also: (hit) => `其程序本回合已超时 ${hit.count} 次`,
};

const words: HitWords = {
  track: 'timeout',
  listed: 5,
  why: (hit) => `this program ran out of time ${hit.count} times (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 ran out of time ${hit.count} times this turn (limit ${hit.cap})`,
  note: 'Only runs of the program that keeps running out of time are blocked: a smaller job under another command, or a check on a background run, will run.',
  ask,
  zh,
};

/** The `respelled` gate's words: the same track, the count being the new spellings that timed out. */
const respelledWords: HitWords = {
  ...words,
  why: (hit) => `this program ran out of time ${hit.count} times, each respelled, though a smaller run fit (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 ran out of time ${hit.count} times this turn, each with new flags or code, though a smaller run of it fit (limit ${hit.cap})`,
  ask: {
    what: (hit) => `the program ${hit.shown} timed out ${hit.count} times respelled, though a smaller run fit.`,
    also: (hit) => `${hit.count} respelled time-outs of its program, though a smaller run fit`,
  },
  zh: {
    what: (hit) => `程序 ${hit.shown} 换了写法超时 ${hit.count} 次，而它较小的一次运行已按时完成。`,
    also: (hit) => `其程序换了写法超时 ${hit.count} 次，较小的一次运行已按时完成`,
  },
};

/** The hit of one program the call runs, if its record has met a gate. */
function hitOf(program: string, found: Count, limit: number | null, gate: number | null): Hit | null {
  const quote = `prog:${preview(program, PROGRAM_CHARS)}`;
  if (limit !== null && found.count >= limit) return { key: found.key, words, quote, count: found.count, cap: limit, detail: '' };
  if (respelledArmed(found, gate)) return { key: found.key, words: respelledWords, quote, count: found.respelled, cap: gate as number, detail: '' };
  return null;
}

const PROGRAMS = slot<readonly string[]>();

function programsRead(call: TrackedCall): readonly string[] {
  return call.command === undefined ? [] : (call.line?.programs() ?? programsOf(call.command).map(own));
}

/** A shell call's programs, read once, when first asked (most calls neither time out nor follow one that did). */
function callPrograms(call: TrackedCall): readonly string[] {
  return readOf(call, PROGRAMS, programsRead);
}

function judge(book: WeakMap<Agent, Map<string, Count>>, call: TrackedCall): Judgement {
  const setting = TIMEOUTS.of(call.cfg);
  // Stryker disable next-line OptionalChaining: the track is called only for a policy that turns it on (breaker.ts)
  const limit = setting?.limit ?? null;
  // Stryker disable next-line OptionalChaining: as above
  const gate = setting?.respelled ?? null;
  const counts = book.get(call.agent);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: early outs (cost only): with neither gate, or no count, no program finds a hit
  if ((limit === null && gate === null) || counts === undefined || counts.size === 0) return NO_HITS;
  let hits: Hit[] | null = null;
  for (const program of callPrograms(call)) {
    const found = counts.get(programKey(program));
    const hit = found === undefined ? null : hitOf(program, found, limit, gate);
    if (hit !== null) (hits ??= []).push(hit);
  }
  return hits === null ? NO_HITS : { hits };
}

/** Whether the call ran out of time: the host says so in its value, or the text carries the marker (the classifier puts an exit code first). */
export function timedOut(settled: Settled): boolean {
  return safeMember(safeMember(settled.result, 'value'), 'timedOut') === true || settled.failure?.reason === 'timeout';
}

/** A run that finished in time and succeeded: the programs it ran that had run out of time were made to fit. */
function learnFit(counts: Map<string, Count> | undefined, call: TrackedCall, settled: Settled): void {
  // Stryker disable next-line OptionalChaining: as in judge, the policy turns the track on
  if (counts === undefined || counts.size === 0 || settled.failure !== null || (TIMEOUTS.of(call.cfg)?.respelled ?? null) === null) return;
  for (const program of callPrograms(call)) {
    const found = counts.get(programKey(program));
    if (found !== undefined) found.fit = true;
  }
}

function learn(book: WeakMap<Agent, Map<string, Count>>, call: TrackedCall, settled: Settled, shared: Shared): Notice | null {
  if (call.command === undefined) return null;
  if (!timedOut(settled)) {
    learnFit(book.get(call.agent), call, settled);
    return null;
  }
  const programs = callPrograms(call);
  // Stryker disable next-line ConditionalExpression: an early out: a line of no program counts nothing
  if (programs.length === 0) return null;
  let counts = book.get(call.agent);
  if (counts === undefined) book.set(call.agent, (counts = new Map()));
  const setting = TIMEOUTS.of(call.cfg);
  // Stryker disable next-line OptionalChaining: as in judge, the policy turns the track on
  const gate = setting?.respelled ?? null;
  // Stryker disable next-line OptionalChaining: as above
  const warnAt = setting?.warnAt;
  const outcome = settled.outcome();
  let warned: { program: string; count: number; respelled: boolean } | null = null;
  for (const program of programs) {
    const key = programKey(program);
    if (shared.isExempt(call.agent, key)) continue;
    const before = counts.get(key);
    const record = timedOutAgain(before, before?.key ?? own(key), call, outcome);
    keep(counts, record.key, record);
    // The last program of a line is the one it was run for (`cd x && make`, `head … > s && fasttext …`).
    const arming = respelledArmed(record, gate) && !(before !== undefined && respelledArmed(before, gate));
    if (arming) warned = { program, count: record.respelled, respelled: true };
    else if (record.count === warnAt) warned = { program, count: record.count, respelled: false };
  }
  if (warned === null) return null;
  const text = warned.respelled ? respelledMessage(warned.program, warned.count) : timeoutMessage(warned.program, warned.count);
  return createNotice(text, countedSummary(summaryLabel(`prog:${warned.program}`), SUMMARY, warned.count));
}

/** What its notices' summaries say: `prog “make” timed out x3`. */
const SUMMARY = timeoutMeta.summary;

/** The timeout track's books: each agent's time-outs by program, and the shared memory. */
interface TimeoutBooks {
  readonly book: WeakMap<Agent, Map<string, Count>>;
  readonly shared: Shared;
}

export const timeoutTrack = {
  meta: timeoutMeta,
  words,
  create: (shared) => ({ book: new WeakMap<Agent, Map<string, Count>>(), shared }),
  hooks: {
    judge: ({ book }, call) => judge(book, call),
    learn: ({ book, shared }, call, settled) => learn(book, call, settled, shared),
    clear: ({ book }, agent) => void book.delete(agent),
  },
} satisfies CallTrackModule<TimeoutBooks>;

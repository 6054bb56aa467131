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
import { stagesSetting } from '../setting/stages.js';
import { keep, recalls, remember, type Recent } from '../memory/book.js';
import { NO_HITS, readOf, slot, type CallTrackModule, type Hit, type Judgement, type Settled, type Track, type TrackedCall } from './track.js';

/** The `timeouts` setting: off by default; `{}` turns the track on with its defaults (and the environment track with it). */
export const TIMEOUTS = stagesSetting('timeouts', { order: 9, cardOrder: 5 }, { warnAt: 3, limit: null }, {
  meaning: {
    en: {
      warnAt: 'how many times one program may run out of time this turn before the advisory; {off} turns the advisory off',
      limit: 'how many times one program may run out of time this turn before its next run meets the gate; {off} advises only',
    },
    zh: {
      warnAt: '同一程序在本回合超时多少次才给出建议；填 {off} 表示关闭建议',
      limit: '同一程序在本回合超时多少次之后，它的下一次运行遇到闸门；填 {off} 表示只给建议',
    },
  },
  schema: {
    track: 'The timeout track (opt-in): one program running out of time again',
    warnAt: 'Time-outs of one program this turn that earn the advisory; null: none.',
    limit: 'Time-outs after which the next run of the program meets the gate; null advises only.',
  },
  card: {
    en: {
      track: { label: 'Timeout track', hint: 'One program running out of time again, whatever its flags; or different commands timing out in a row.' },
      warnAt: { label: 'Advisory at', hint: 'Time-outs of one program this turn that earn the advisory.' },
      limit: { label: 'Gate after', hint: 'Time-outs after which the next run of the program meets the gate; off advises only.' },
    },
    zh: {
      track: { label: '超时轨道', hint: '同一程序一再超时，不论带什么参数；或者接连不同的命令都超时。' },
      warnAt: { label: '建议阈值', hint: '同一程序在本回合超时多少次时给出建议。' },
      limit: { label: '闸门阈值', hint: '超时多少次之后，该程序的下一次运行遇到闸门；off 表示只给建议。' },
    },
  },
});

/** Longest program quoted in a message. */
const PROGRAM_CHARS = 120;

interface Count {
  readonly key: string;
  count: number;
  /** The call (`exact:`, its lookup key) that last ran the program out of time, and the outcomes of its time-outs. */
  last: string;
  outcomes: Recent | undefined;
}

/** Outcomes remembered per program: a job that answers A, B, A is not moving. */
const OUTCOMES_KEPT = 4;

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

/** A shell call's programs, read when first asked (most calls neither time out nor follow one that did). */
type Programs = (call: TrackedCall) => readonly string[];

const PROGRAMS = slot<readonly string[]>();

function programsRead(call: TrackedCall): readonly string[] {
  return call.command === undefined ? [] : (call.line?.programs() ?? programsOf(call.command).map(own));
}

function judge(book: WeakMap<Agent, Map<string, Count>>, programs: Programs, call: TrackedCall): Judgement {
  const limit = TIMEOUTS.of(call.cfg)?.limit ?? null;
  const counts = book.get(call.agent);
  if (limit === null || counts === undefined || counts.size === 0) return NO_HITS;
  let hits: Hit[] | null = null;
  for (const program of programs(call)) {
    const key = programKey(program);
    const found = counts.get(key);
    if (found !== undefined && found.count >= limit) {
      (hits ??= []).push({ key, words, quote: `prog:${preview(program, PROGRAM_CHARS)}`, count: found.count, cap: limit, detail: '' });
    }
  }
  return hits === null ? NO_HITS : { hits };
}

/** Whether the call ran out of time: the host says so in its value, or the text carries the marker (the classifier puts an exit code first). */
export function timedOut(settled: Settled): boolean {
  return safeMember(safeMember(settled.result, 'value'), 'timedOut') === true || settled.failure?.reason === 'timeout';
}

function learn(book: WeakMap<Agent, Map<string, Count>>, programsOfCall: Programs, call: TrackedCall, settled: Settled, isExempt: (key: string) => boolean): Notice | null {
  if (call.command === undefined || !timedOut(settled)) return null;
  const programs = programsOfCall(call);
  if (programs.length === 0) return null;
  let counts = book.get(call.agent);
  if (counts === undefined) book.set(call.agent, (counts = new Map()));
  const warnAt = TIMEOUTS.of(call.cfg)?.warnAt;
  const exact = (call.marks[0] as Mark).lookup;
  const outcome = settled.outcome();
  let warned: { program: string; count: number } | null = null;
  for (const program of programs) {
    const key = programKey(program);
    if (isExempt(key)) continue;
    const before = counts.get(key);
    const stored = before?.key ?? own(key);
    const count = afterTimeout(before, exact, outcome);
    const outcomes = outcome === null ? before?.outcomes : remember(before?.last === exact ? before.outcomes : undefined, outcome, OUTCOMES_KEPT);
    keep(counts, stored, { key: stored, count, last: exact, outcomes });
    // The last program of a line is the one it was run for (`cd x && make`, `head … > s && fasttext …`).
    if (count === warnAt) warned = { program, count };
  }
  if (warned === null) return null;
  return createNotice(timeoutMessage(warned.program, warned.count), countedSummary(summaryLabel(`prog:${warned.program}`), SUMMARY, warned.count));
}

/** What its notices' summaries say: `prog “make” timed out x3`. */
const SUMMARY = 'timed out';

export const timeoutTrack = {
  meta: {
    name: 'timeout',
    description: 'One program running out of time again and again, whatever its flags.',
    reads: 'calls',
    setting: TIMEOUTS,
    isOn: (cfg) => TIMEOUTS.of(cfg) !== null,
    // The programs a shell line runs, from the line's one split.
    needs: () => ({ line: true }),
    words,
    summary: SUMMARY,
  },
  create(shared): Track {
    const book = new WeakMap<Agent, Map<string, Count>>();
    // Each shell call's programs, read once, when first asked.
    const programs: Programs = (call) => readOf(call, PROGRAMS, programsRead);
    return {
      judge: (call) => judge(book, programs, call),
      learn: (call, settled) => learn(book, programs, call, settled, (key) => shared.isExempt(call.agent, key)),
      clear: (agent) => void book.delete(agent),
    };
  },
} satisfies CallTrackModule;

/**
 * The sequence track (opt-in): a cycle of different calls that comes round
 * back to back (grep → curl → read → bash, again and again), each call too
 * rare in the window for the repeat track's stages. At `count`
 * repetitions the model is told once per crossing; past `limit` the call that
 * would go round again meets the gate, under the cycle's own key (cycles.ts),
 * which has no slot in the window. Every attempt joins the history, denied or
 * not: a denied call is the model going round all the same.
 */
import type { Notice } from '../host/types.js';
import { firstVerb } from '../shell/command.js';
import { defang, preview, type HitWords } from '../text/message.js';
import { createNotice, cycleSummary } from '../text/notice.js';
import { createSequenceBook, cycleKey, findCycle, type Cycle, type SequenceBook, type Step } from '../memory/cycles.js';
import { SEQUENCE, sequenceMeta } from './sequence.meta.js';
import type { CallTrackModule, Judgement, Shared, TrackedCall } from './track.js';

/** What a cycle's notice and texts name it by: its track's name, as a fingerprint's names its measure. */
const SUMMARY = sequenceMeta.summary;

/** Longest one call is quoted inside a cycle; a cycle of four stays readable on a line or two. */
const STEP_CHARS = 60;

/** How the track names a call: a shell command by itself, any other call by its fingerprint. */
function stepOf(call: TrackedCall, exact: string): Step {
  const key = (call.marks[0] as { key: string }).key;
  // The history keeps these for `window` calls: a model-chosen tool name is cut like a quote.
  // Stryker disable next-line MethodExpression: memory only (P6): the summary's quotation cuts a long name anyway
  const tool = call.name.slice(0, STEP_CHARS);
  const { command } = call;
  if (command !== undefined) {
    // The verb is at the head; a huge command is not split twice for a summary label.
    const verb = firstVerb(command.slice(0, 512));
    // Stryker disable next-line MethodExpression: as above: memory only, the summary cuts a long verb anyway
    return { key, quote: preview(command, STEP_CHARS), brief: verb.slice(0, STEP_CHARS) || tool };
  }
  return { key, quote: preview(exact.slice('exact:'.length), STEP_CHARS), brief: tool };
}

/** A cycle the current call continues, at or past the advisory, with what messages and the gate need. */
export interface Continued {
  readonly cycle: Cycle;
  readonly key: string;
  /** The cycle's calls in the order the run began with them, joined by arrows: what the advisory names. */
  readonly quote: string;
  /** The same cycle from the current call on: what a denial names, the stopped call first. */
  readonly next: string;
  readonly briefs: readonly string[];
}

export interface CycleJudgement extends Judgement {
  readonly continued: Continued | null;
}

/** Sequence advisory: a cycle of different calls has come round `repetitions` times in a row. */
export function cycleMessage(quote: string, period: number, repetitions: number, limit: number | null): string {
  const gate = limit === null ? 'Nothing is blocked.' : `Nothing is blocked yet; after ${limit} repetitions, the next call that continues the cycle meets the gate.`;
  return [
    `CONVERGENCE_CHECK: your recent calls are one cycle of ${period} different calls, repeated ${repetitions} times back to back this turn:`,
    defang(quote),
    `${gate} Going round again is unlikely to find anything new. Write down what the cycle was meant to find out, then take a different route or answer with what you have.`,
  ].join('\n');
}

/** The operator's ask (text/ask.ts): the cycle's calls, as they ran, the stopped one first. */
const ask: HitWords['ask'] = {
  what: (hit) => `the agent has run the cycle ${hit.shown} ${hit.count} times in a row; this call starts it again.`,
  also: (hit) => `a cycle of calls repeated ${hit.count} times`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `agent 已把调用循环节 ${hit.shown} 连续重复了 ${hit.count} 次，这次调用会再开始一轮。`,
  also: (hit) => `调用循环节已重复 ${hit.count} 次`,
};

const words: HitWords = {
  track: 'sequence',
  listed: 2,
  measure: SUMMARY,
  why: (hit) => `a cycle of calls repeated ${hit.count} times (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 a cycle repeated ${hit.count} times back to back (limit ${hit.cap})`,
  note: 'Only the call that would go round the cycle again is blocked: a call that breaks the cycle will run.',
  ask,
  zh,
};

/** The cycle the call continues, once it has come round `sequence.count` times; else `null`. */
function continued(book: SequenceBook, call: TrackedCall, step: Step): Continued | null {
  const sequence = SEQUENCE.of(call.cfg);
  // Stryker disable next-line ConditionalExpression: the track runs only for a policy that turns it on
  if (sequence === null) return null;
  const keys = book.keys(call.agent);
  const cycle = findCycle(keys, step.key, sequence.length);
  // Stryker disable next-line ConditionalExpression,ArithmeticOperator: a shortcut for the run's length; the advisory and the gate each test it against their own stage
  if (cycle === null || cycle.run < sequence.count * cycle.period) return null;
  const steps: Step[] = [];
  for (let at = cycle.start; at < cycle.start + cycle.period; at += 1) {
    const found = book.step(call.agent, at);
    // Stryker disable next-line ConditionalExpression: a cycle found in the history has a step at every place of it
    if (found !== undefined) steps.push(found);
  }
  // The current call, index `keys.length` of the run, holds this place in the period.
  const at = (keys.length - cycle.start) % cycle.period;
  return {
    cycle,
    key: cycleKey(steps.map((found) => found.key)),
    quote: steps.map((found) => found.quote).join(' \u2192 '),
    next: [...steps.slice(at), ...steps.slice(0, at)].map((found) => found.quote).join(' \u2192 '),
    briefs: steps.map((found) => found.brief),
  };
}

/** The cycle's hit once the call would go round past the limit. */
function judge(book: SequenceBook, call: TrackedCall, step: Step | undefined): CycleJudgement {
  // Stryker disable next-line ConditionalExpression: every call the track judges was read by it
  const cont = step === undefined ? null : continued(book, call, step);
  // Stryker disable next-line OptionalChaining: the track runs only for a policy that turns it on
  const limit = SEQUENCE.of(call.cfg)?.limit ?? null;
  if (cont === null || limit === null || cont.cycle.run <= limit * cont.cycle.period) return { hits: [], continued: cont };
  const done = Math.floor((cont.cycle.run - 1) / cont.cycle.period);
  // Stryker disable next-line StringLiteral: the sequence track's words never read a hit's detail
  return { hits: [{ key: cont.key, words, quote: cont.next, count: done, cap: limit, detail: '' }], continued: cont };
}

/** One notice per crossing: the run passes `count` periods exactly once until the cycle breaks. */
function advise(shared: Shared, call: TrackedCall, cont: Continued | null): Notice | null {
  const sequence = SEQUENCE.of(call.cfg);
  // Stryker disable next-line ConditionalExpression: the track runs only for a policy that turns it on
  if (sequence === null) return null;
  if (cont === null || cont.cycle.run !== sequence.count * cont.cycle.period || shared.isExempt(call.agent, cont.key)) return null;
  const text = cycleMessage(cont.quote, cont.cycle.period, sequence.count, sequence.limit);
  return createNotice(text, cycleSummary(SUMMARY, cont.briefs, sequence.count));
}

/** The sequence track's books: the agents' steps in order, each call's step, and the shared memory. */
interface SequenceBooks {
  readonly book: SequenceBook;
  readonly steps: WeakMap<TrackedCall, Step>;
  readonly shared: Shared;
}

export const sequenceTrack = {
  meta: sequenceMeta,
  words,
  // Each call's step (`steps`), made while its full fingerprints are at hand.
  create: (shared, initial) => ({ book: createSequenceBook(initial.window), steps: new WeakMap<TrackedCall, Step>(), shared }),
  hooks: {
    read: ({ steps }, call, fps) => void steps.set(call, stepOf(call, fps[0] as string)),
    judge: ({ book, steps }, call) => judge(book, call, steps.get(call)),
    attempted({ book, steps }, call) {
      const step = steps.get(call);
      // Stryker disable next-line ConditionalExpression: every call the track sees was read by it
      if (step !== undefined) book.record(call.agent, step, call.cfg.window);
    },
    advise: ({ shared }, call, judged) => advise(shared, call, judged.continued),
    clear: ({ book }, agent) => book.reset(agent),
  },
} satisfies CallTrackModule<SequenceBooks, CycleJudgement>;

/**
 * The corpus's metrics (`../shared/corpus/real-dev/README.md`, "Metrics"): for
 * loops, whether a notice and a denial come at or after the loop's first call,
 * and how many calls after it; for good and progress sessions, whether
 * anything was noticed or denied at all. A denial in a good or progress
 * session is the costly error.
 */
import type { Episode, LabelClass } from './episode.js';
import type { Replayed } from './replay.js';

export interface SessionResult {
  readonly session: string;
  readonly class: LabelClass | undefined;
  readonly loopStart: number | undefined;
  readonly calls: number;
  /** Index of the first call carrying a notice (at or after the loop start, for a loop). */
  readonly firstNotice: number | undefined;
  /** Index of the first denied call (at or after the loop start, for a loop). */
  readonly firstDenial: number | undefined;
  readonly notices: number;
  readonly denials: number;
  /** The first notice's summary and the first denial's opening words, for reading a row. */
  readonly noticeSummary: string | undefined;
  readonly denialReason: string | undefined;
  /** The call whose step the system rejected, handing the run back; `undefined` when it never stopped the run. */
  readonly stoppedAt: number | undefined;
  /** Calls refused from the first denial (at or after the loop start) to the end of the run or its stop. */
  readonly refused: number;
  /** Characters of the system's own text the model read over the run (denials, notices, additions to results). */
  readonly modelChars: number;
  /** Whether the run resolved its task in the end, when the record says. */
  readonly resolved: boolean | undefined;
}

export function sessionResult(episode: Episode, replayed: Replayed): SessionResult {
  const outcomes = replayed.calls;
  const from = episode.label?.class === 'loop' ? (episode.label.loopStart ?? 0) : 0;
  // A loop run whose turn the system ended before the loop's first call: none of the loop's calls
  // ran, so the stop is the loop's notice and gate, at its start (the refusals that led to it came
  // before the loop and are not counted as the loop's).
  const stoppedBefore = episode.label?.class === 'loop' && replayed.stoppedAt !== undefined && replayed.stoppedAt <= from;
  const noticed = outcomes.find((call) => call.index >= from && call.notices.length > 0);
  const denied = outcomes.find((call) => call.index >= from && call.denied);
  const gate = denied?.index ?? (stoppedBefore ? from : undefined);
  return {
    session: episode.name,
    class: episode.label?.class,
    loopStart: episode.label?.loopStart,
    calls: episode.calls,
    firstNotice: noticed?.index ?? (stoppedBefore ? from : undefined),
    firstDenial: gate,
    notices: outcomes.reduce((sum, call) => sum + call.notices.length, 0),
    denials: outcomes.filter((call) => call.denied).length,
    noticeSummary: noticed?.notices[0],
    denialReason: denied?.reason?.split('\n')[0]?.slice(0, 160),
    stoppedAt: replayed.stoppedAt,
    refused: gate === undefined ? 0 : outcomes.filter((call) => call.index >= gate && call.denied).length,
    modelChars: outcomes.reduce((sum, call) => sum + call.modelChars, 0),
    resolved: episode.resolved,
  };
}

/** Median and maximum of a list of call distances; `undefined` for none. */
export interface Spread {
  readonly median: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, max: sorted[sorted.length - 1] as number };
}

/** One row of the metrics table. */
export interface Figures {
  readonly loops: number;
  readonly loopsNoticed: number;
  readonly loopsGated: number;
  /** Calls from the loop's first call to the first notice / denial, over the loops that got one. */
  readonly toNotice: Spread | undefined;
  readonly toGate: Spread | undefined;
  readonly good: number;
  readonly goodNoticed: number;
  readonly goodGated: number;
  readonly progress: number;
  readonly progressGated: number;
  /** Sessions without a label: counted, not scored. */
  readonly unlabelled: number;
  /**
   * Calls of the loops that ran before their first denial (to the end of the
   * session for a loop never gated): what the loops cost. Finer than the medians,
   * so the ablation shows a part that gates some loops sooner.
   */
  readonly loopCallsRun: number;
  /** Over the loops gated: the calls refused from the first gate to the end or the stop (a halted peer's included). */
  readonly refusedPerGatedLoop: Spread | undefined;
  /** Over the loops gated: the characters of the system's own text the model read in the run. */
  readonly modelCharsPerGatedLoop: Spread | undefined;
  /** Runs whose turn the system ended (a rejected step), by label. */
  readonly loopsStopped: number;
  readonly goodStopped: number;
  readonly progressStopped: number;
  /** Loop runs stopped that resolved their task later anyway: each costs the operator a "continue". */
  readonly stoppedResolved: number;
  /** The asks of an `onLimit: ask` replay of the same configuration (`undefined`: the system was not asked to). */
  readonly asks: number | undefined;
  /** Over those asks: the words of the reason as the operator's panel shows it (whitespace-separated). */
  readonly askWords: Spread | undefined;
}

/** The words of a text as a person reads it: runs of non-space, line breaks or not. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/**
 * The figures of one system over a corpus; `asked`, the ask reasons of its
 * `onLimit: ask` replay, when it had one.
 */
export function figuresOf(results: readonly SessionResult[], asked?: readonly string[]): Figures {
  const of = (cls: LabelClass): SessionResult[] => results.filter((result) => result.class === cls);
  const loops = of('loop');
  const gated = loops.filter((result) => result.firstDenial !== undefined);
  const distance = (at: number | undefined, result: SessionResult): number[] => (at === undefined ? [] : [at - (result.loopStart ?? 0)]);
  return {
    loops: loops.length,
    loopsNoticed: loops.filter((result) => result.firstNotice !== undefined).length,
    loopsGated: loops.filter((result) => result.firstDenial !== undefined).length,
    toNotice: spread(loops.flatMap((result) => distance(result.firstNotice, result))),
    toGate: spread(loops.flatMap((result) => distance(result.firstDenial, result))),
    good: of('good').length,
    goodNoticed: of('good').filter((result) => result.notices > 0).length,
    goodGated: of('good').filter((result) => result.denials > 0).length,
    progress: of('progress').length,
    progressGated: of('progress').filter((result) => result.denials > 0).length,
    unlabelled: results.filter((result) => result.class === undefined).length,
    loopCallsRun: loops.reduce((sum, result) => sum + callsRun(result), 0),
    refusedPerGatedLoop: spread(gated.map((result) => result.refused)),
    modelCharsPerGatedLoop: spread(gated.map((result) => result.modelChars)),
    loopsStopped: loops.filter(stopped).length,
    goodStopped: of('good').filter(stopped).length,
    progressStopped: of('progress').filter(stopped).length,
    stoppedResolved: loops.filter((result) => stopped(result) && result.resolved === true).length,
    asks: asked?.length,
    askWords: spread((asked ?? []).map(wordCount)),
  };
}

const stopped = (result: SessionResult): boolean => result.stoppedAt !== undefined;

/** A loop's calls that ran: from its start to its first denial, its stop, or the end of the session. */
function callsRun(result: SessionResult): number {
  const end = Math.min(result.firstDenial ?? result.calls, result.stoppedAt ?? result.calls);
  return Math.max(0, end - (result.loopStart ?? 0));
}

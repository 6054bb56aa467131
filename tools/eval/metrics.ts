/**
 * The corpus's metrics (`../shared/corpus/real-dev/README.md`, "Metrics"): for
 * loops, whether a notice and a denial come at or after the loop's first call,
 * and how many calls after it; for good and progress sessions, whether
 * anything was noticed or denied at all. A denial in a good or progress
 * session is the costly error.
 */
import type { Episode, LabelClass } from './episode.js';
import type { CallOutcome } from './replay.js';

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
}

export function sessionResult(episode: Episode, outcomes: readonly CallOutcome[]): SessionResult {
  const from = episode.label?.class === 'loop' ? (episode.label.loopStart ?? 0) : 0;
  const noticed = outcomes.find((call) => call.index >= from && call.notices.length > 0);
  const denied = outcomes.find((call) => call.index >= from && call.denied);
  return {
    session: episode.name,
    class: episode.label?.class,
    loopStart: episode.label?.loopStart,
    calls: episode.calls,
    firstNotice: noticed?.index,
    firstDenial: denied?.index,
    notices: outcomes.reduce((sum, call) => sum + call.notices.length, 0),
    denials: outcomes.filter((call) => call.denied).length,
    noticeSummary: noticed?.notices[0],
    denialReason: denied?.reason?.split('\n')[0]?.slice(0, 160),
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
}

export function figuresOf(results: readonly SessionResult[]): Figures {
  const of = (cls: LabelClass): SessionResult[] => results.filter((result) => result.class === cls);
  const loops = of('loop');
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
    loopCallsRun: loops.reduce((sum, result) => sum + (result.firstDenial ?? result.calls) - (result.loopStart ?? 0), 0),
  };
}

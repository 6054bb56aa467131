/**
 * `--check`: the figures of this plugin under the checked configuration may
 * not get worse than the ones recorded in `expected.json` for that corpus —
 * counts only, never timings. Higher is better for loops noticed and gated;
 * lower for the calls it takes, for anything noticed, gated or stopped in a
 * good or progress session, for the words of its asks, the characters of its
 * text the model reads and the calls it refuses per gated loop. A corpus of
 * another make-up is refused: its figures would not be comparable.
 *
 * When the field was measured, its rows must be the ones recorded (a field
 * that moved is refused like another corpus: re-record), and the loops this
 * plugin misses against it may not grow.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dominance } from './dominance.js';
import type { Figures, Spread } from './metrics.js';

/** A peer's row as recorded: what is compared to tell that the field is the one measured before. */
export interface PeerFigures {
  readonly loopsNoticed: number;
  readonly loopsGated: number;
  readonly noticeMedian: number | null;
  readonly gateMedian: number | null;
  readonly gateMax: number | null;
  readonly goodNoticed: number;
  readonly goodGated: number;
  readonly progressGated: number;
  readonly loopCallsRun: number;
}

export interface Expected {
  /** What was evaluated, for the reader: the corpus and the configuration. */
  readonly corpus: string;
  readonly config: unknown;
  readonly loops: number;
  readonly good: number;
  readonly progress: number;
  readonly loopsNoticed: number;
  readonly loopsGated: number;
  /** `null` when no loop was noticed (gated): as bad as it gets. */
  readonly noticeMedian: number | null;
  readonly gateMedian: number | null;
  readonly goodNoticed: number;
  readonly goodGated: number;
  readonly progressGated: number;
  /** Issue 39: the words of an ask, and the characters of this plugin's text the model reads per gated loop (`null`: none). */
  readonly askWordsMedian?: number | null;
  readonly askWordsMax?: number | null;
  /** The same for the defaults, when the checked configuration is not the defaults (issue 39 holds both). */
  readonly defaultsAskWordsMedian?: number | null;
  readonly defaultsAskWordsMax?: number | null;
  readonly modelCharsMedian?: number | null;
  readonly modelCharsMax?: number | null;
  /** Issue 41: calls refused per gated loop, and the runs stopped. */
  readonly refusedMedian?: number | null;
  readonly refusedMax?: number | null;
  readonly goodStopped?: number;
  readonly progressStopped?: number;
  /** Recorded for the reader, not checked: stopping more loops is the point, and one that resolved later is a trade-off. */
  readonly loopsStopped?: number;
  readonly stoppedResolved?: number;
  /** Issue 40: the field's rows by short name, and this plugin's dominance over them; absent when recorded without the field. */
  readonly field?: Readonly<Record<string, PeerFigures>>;
  readonly dominance?: { readonly peerGated: number; readonly held: number; readonly misses: number; readonly missed: readonly string[] };
}

export const EXPECTED_PATH = join(import.meta.dirname, 'expected.json');

export function readExpected(path = EXPECTED_PATH): Expected {
  return JSON.parse(readFileSync(path, 'utf8')) as Expected;
}

/** The field as measured: each peer's figures, and the dominance over them. */
export interface FieldRecord {
  readonly peers: readonly { readonly short: string; readonly figures: Figures }[];
  readonly dominance: Dominance;
}

export function peerFigures(figures: Figures): PeerFigures {
  return {
    loopsNoticed: figures.loopsNoticed,
    loopsGated: figures.loopsGated,
    noticeMedian: figures.toNotice?.median ?? null,
    gateMedian: figures.toGate?.median ?? null,
    gateMax: figures.toGate?.max ?? null,
    goodNoticed: figures.goodNoticed,
    goodGated: figures.goodGated,
    progressGated: figures.progressGated,
    loopCallsRun: figures.loopCallsRun,
  };
}

/** The figures as `expected.json` records them; `defaultAsks`, the words of the defaults' asks when they were replayed. */
export function expectedOf(figures: Figures, corpus: string, config: unknown, field?: FieldRecord, defaultAsks?: Spread): Expected {
  const { peerGated, held, misses, missed } = field?.dominance ?? { peerGated: 0, held: 0, misses: 0, missed: [] };
  return {
    corpus,
    config,
    loops: figures.loops,
    good: figures.good,
    progress: figures.progress,
    loopsNoticed: figures.loopsNoticed,
    loopsGated: figures.loopsGated,
    noticeMedian: figures.toNotice?.median ?? null,
    gateMedian: figures.toGate?.median ?? null,
    goodNoticed: figures.goodNoticed,
    goodGated: figures.goodGated,
    progressGated: figures.progressGated,
    askWordsMedian: figures.askWords?.median ?? null,
    askWordsMax: figures.askWords?.max ?? null,
    ...(defaultAsks === undefined ? {} : { defaultsAskWordsMedian: defaultAsks.median, defaultsAskWordsMax: defaultAsks.max }),
    modelCharsMedian: figures.modelCharsPerGatedLoop?.median ?? null,
    modelCharsMax: figures.modelCharsPerGatedLoop?.max ?? null,
    refusedMedian: figures.refusedPerGatedLoop?.median ?? null,
    refusedMax: figures.refusedPerGatedLoop?.max ?? null,
    goodStopped: figures.goodStopped,
    progressStopped: figures.progressStopped,
    loopsStopped: figures.loopsStopped,
    stoppedResolved: figures.stoppedResolved,
    ...(field === undefined
      ? {}
      : {
          field: Object.fromEntries(field.peers.map((peer) => [peer.short, peerFigures(peer.figures)])),
          dominance: { peerGated, held, misses, missed },
        }),
  };
}

const HIGHER_IS_BETTER = ['loopsNoticed', 'loopsGated'] as const;
/** A missing median here (nothing noticed or gated) is worse than any number. */
const FEWER_CALLS = ['noticeMedian', 'gateMedian'] as const;
/** `stoppedResolved`: each loop run stopped that resolved later costs the operator a "continue". */
const LOWER_IS_BETTER = ['goodNoticed', 'goodGated', 'progressGated', 'goodStopped', 'progressStopped', 'stoppedResolved'] as const;
/** A missing figure here (no ask, no gated loop) is nothing to read or refuse: zero. */
const LESS_TEXT = ['askWordsMedian', 'askWordsMax', 'defaultsAskWordsMedian', 'defaultsAskWordsMax', 'modelCharsMedian', 'modelCharsMax', 'refusedMedian', 'refusedMax'] as const;

/** What got worse, one line each; empty when nothing did. A figure expected.json does not record is not checked. */
export function regressions(actual: Expected, expected: Expected): string[] {
  const make = (value: Expected): string => `${value.loops} loops, ${value.good} good, ${value.progress} progress sessions`;
  if (actual.loops !== expected.loops || actual.good !== expected.good || actual.progress !== expected.progress) {
    return [`the corpus has ${make(actual)}; expected.json was recorded on ${make(expected)} (${expected.corpus})`];
  }
  const worse: string[] = [];
  for (const key of HIGHER_IS_BETTER) if (actual[key] < expected[key]) worse.push(`${key}: ${actual[key]}, expected at least ${expected[key]}`);
  const above = (key: string, value: number | null | undefined, bound: number | null | undefined, none: number): void => {
    if (bound === undefined) return;
    if ((value ?? none) > (bound ?? none)) worse.push(`${key}: ${value ?? 'none'}, expected at most ${bound ?? 'none'}`);
  };
  for (const key of FEWER_CALLS) above(key, actual[key], expected[key], Number.POSITIVE_INFINITY);
  for (const key of LOWER_IS_BETTER) above(key, actual[key], expected[key], 0);
  for (const key of LESS_TEXT) above(key, actual[key], expected[key], 0);
  return [...worse, ...fieldRegressions(actual, expected)];
}

/** The field's part of the check: the same field as recorded, and no more loops missed against it. */
function fieldRegressions(actual: Expected, expected: Expected): string[] {
  if (actual.field === undefined) return [];
  if (expected.field === undefined || expected.dominance === undefined) return ['the field was measured, but expected.json records none: --record it'];
  const moved: string[] = [];
  const names = new Set([...Object.keys(actual.field), ...Object.keys(expected.field)]);
  for (const name of names) {
    const now = actual.field[name];
    const then = expected.field[name];
    if (JSON.stringify(now) !== JSON.stringify(then)) moved.push(`${name}: ${now === undefined ? 'absent' : JSON.stringify(now)}, recorded ${then === undefined ? 'absent' : JSON.stringify(then)}`);
  }
  if (moved.length > 0) return [`the field is not the one expected.json was recorded with (re-record after reading what moved):`, ...moved.map((line) => `  ${line}`)];
  const misses = actual.dominance?.misses ?? 0;
  if (misses <= expected.dominance.misses) return [];
  const newly = (actual.dominance?.missed ?? []).filter((session) => !expected.dominance?.missed.includes(session));
  return [`dominance misses: ${misses}, expected at most ${expected.dominance.misses}${newly.length > 0 ? ` (newly missed: ${newly.join(', ')})` : ''}`];
}

/**
 * `--check`: the figures of this plugin under the checked configuration may
 * not get worse than the ones recorded in `expected.json` for that corpus —
 * counts only, never timings. Higher is better for loops noticed and gated;
 * lower for the calls it takes and for anything noticed or gated in a good or
 * progress session. A corpus of another make-up is refused: its figures would
 * not be comparable.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Figures } from './metrics.js';

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
}

export const EXPECTED_PATH = join(import.meta.dirname, 'expected.json');

export function readExpected(path = EXPECTED_PATH): Expected {
  return JSON.parse(readFileSync(path, 'utf8')) as Expected;
}

/** The figures as `expected.json` records them. */
export function expectedOf(figures: Figures, corpus: string, config: unknown): Expected {
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
  };
}

const HIGHER_IS_BETTER = ['loopsNoticed', 'loopsGated'] as const;
const LOWER_IS_BETTER = ['noticeMedian', 'gateMedian', 'goodNoticed', 'goodGated', 'progressGated'] as const;

/** What got worse, one line each; empty when nothing did. */
export function regressions(actual: Expected, expected: Expected): string[] {
  const make = (value: Expected): string => `${value.loops} loops, ${value.good} good, ${value.progress} progress sessions`;
  if (actual.loops !== expected.loops || actual.good !== expected.good || actual.progress !== expected.progress) {
    return [`the corpus has ${make(actual)}; expected.json was recorded on ${make(expected)} (${expected.corpus})`];
  }
  const worse: string[] = [];
  for (const key of HIGHER_IS_BETTER) if (actual[key] < expected[key]) worse.push(`${key}: ${actual[key]}, expected at least ${expected[key]}`);
  // A missing median (nothing noticed or gated) is worse than any number.
  const size = (value: number | null): number => value ?? Number.POSITIVE_INFINITY;
  for (const key of LOWER_IS_BETTER) {
    if (size(actual[key]) > size(expected[key])) worse.push(`${key}: ${actual[key] ?? 'none'}, expected at most ${expected[key] ?? 'none'}`);
  }
  return worse;
}

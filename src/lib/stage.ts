/**
 * Which advisory a call earns. Stages fire on exact equality with their
 * threshold (the count includes the current call), so each fires once per
 * crossing; when several measures qualify, the strongest stage wins, then the
 * higher count, then the more actionable measure.
 */
import type { Mark } from './mark.js';
import { isEnabled } from './mark.js';

export interface Stage {
  readonly mark: Mark;
  readonly count: number;
  /** 1: warn; 2: demand a summary. */
  readonly level: 1 | 2;
}

export interface StageThresholds {
  readonly warnAt: number | null;
  readonly summarizeAt: number | null;
}

/**
 * The occurrence stage of an allowed call, computed before it is committed.
 * Exempt measures are skipped: an approved exemption cannot escalate again this turn (P2).
 */
export function occurrenceStage(
  marks: readonly Mark[],
  countOf: (key: string) => number,
  isExempt: (key: string) => boolean,
  stages: StageThresholds,
): Stage | null {
  let best: Stage | null = null;
  for (const mark of marks) {
    if (!isEnabled(mark) || isExempt(mark.key)) continue;
    const count = countOf(mark.key) + 1;
    const level = count === stages.summarizeAt ? 2 : count === stages.warnAt ? 1 : 0;
    if (level === 0) continue;
    if (
      best === null ||
      level > best.level ||
      (level === best.level && (count > best.count || (count === best.count && mark.rank < best.mark.rank)))
    ) {
      best = { mark, count, level };
    }
  }
  return best;
}

export interface Warning {
  readonly mark: Mark;
  readonly streak: number;
}

/** The failure warning to deliver: the longest streak, then the more actionable measure. */
export function failureWarning(warned: readonly Warning[]): Warning | null {
  let best: Warning | null = null;
  for (const warning of warned) {
    if (best === null || warning.streak > best.streak || (warning.streak === best.streak && warning.mark.rank < best.mark.rank)) {
      best = warning;
    }
  }
  return best;
}

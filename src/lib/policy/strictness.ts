/**
 * Which of two configurations is stricter, setting by setting. A settings
 * change reaches an agent in the middle of its turn only as far as it
 * tightens the breaker: the agent gets, per setting, the stricter of what it
 * has and what was saved. A model inside the turn can reach the settings
 * endpoint, so a change that loosens must wait for a human (docs/live-settings.md).
 */
import type { BreakerConfig, DuplicateTextConfig, FailureProgress, Progress, SequenceConfig, StagesConfig } from '../config/config.js';
import { limitFor } from '../call/fingerprint.js';

/** The earlier of two thresholds; `null` (off) is the loosest. */
export function earlier(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

/**
 * Caps such that every fingerprint's cap is the lower of its caps under `a`
 * and under `b`. Each key of either map gets the lower of what `limitFor`
 * gives it under each; a fingerprint named by neither falls back to its
 * measure's entry, which is then the lower of the two measure caps.
 */
export function lowerLimits(
  a: Readonly<Record<string, number | null>>,
  b: Readonly<Record<string, number | null>>,
): Record<string, number | null> {
  const merged: Record<string, number | null> = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const cap = Math.min(limitFor(key, a), limitFor(key, b));
    merged[key] = Number.isFinite(cap) ? cap : null;
  }
  return merged;
}

/** On beats off; when both are on, the cycle that is caught soonest. */
function stricterSequence(a: SequenceConfig | null, b: SequenceConfig | null): SequenceConfig | null {
  if (a === null) return b;
  if (b === null) return a;
  return { length: Math.max(a.length, b.length), count: Math.min(a.count, b.count), limit: earlier(a.limit, b.limit) };
}

/** On beats off; when both are on, the text that is flagged soonest and longest. */
function stricterDuplicateText(a: DuplicateTextConfig | null, b: DuplicateTextConfig | null): DuplicateTextConfig | null {
  if (a === null) return b;
  if (b === null) return a;
  return {
    minChars: Math.min(a.minChars, b.minChars),
    threshold: Math.min(a.threshold, b.threshold),
    windowMs: Math.max(a.windowMs, b.windowMs),
    cooldownMs: Math.min(a.cooldownMs, b.cooldownMs),
  };
}

/** On beats off; when both are on, each stage the earlier. */
function stricterStages(a: StagesConfig | null, b: StagesConfig | null): StagesConfig | null {
  if (a === null) return b;
  if (b === null) return a;
  return { warnAt: earlier(a.warnAt, b.warnAt), limit: earlier(a.limit, b.limit) };
}

/** `results`, `changes` and `outcomes` each hold a repeat back where `ignore` never does; two different ones have no order, so neither holds. */
function stricterProgress(a: Progress, b: Progress): Progress {
  return a === b ? a : 'ignore';
}

/** `restart` forgives any failure after a change, `outcomes` only a new error, `ignore` none. */
const FORGIVENESS: Readonly<Record<FailureProgress, number>> = { ignore: 0, outcomes: 1, restart: 2 };

function stricterFailureProgress(a: FailureProgress, b: FailureProgress): FailureProgress {
  return FORGIVENESS[a] <= FORGIVENESS[b] ? a : b;
}

/**
 * The stricter of `current` and `next`, setting by setting. Settings with no
 * order between their values keep `current`: the quoting lengths, the decoy
 * lists, the host aliases and the tool scope (`include`/`exclude`; the policy
 * widens the scope itself, see policy.ts).
 */
export function stricterConfig(current: BreakerConfig, next: BreakerConfig): BreakerConfig {
  return {
    ...current,
    // A longer window remembers more calls, so every count in it is at least as high.
    window: Math.max(current.window, next.window),
    onLimit: current.onLimit === 'deny' || next.onLimit === 'deny' ? 'deny' : 'ask',
    localHosts: current.localHosts === 'deny' || next.localHosts === 'deny' ? 'deny' : 'allow',
    warnAt: earlier(current.warnAt, next.warnAt),
    summarizeAt: earlier(current.summarizeAt, next.summarizeAt),
    failWarnAt: earlier(current.failWarnAt, next.failWarnAt),
    failLimit: earlier(current.failLimit, next.failLimit),
    includeLocal: current.includeLocal || next.includeLocal,
    limits: lowerLimits(current.limits, next.limits),
    sequence: stricterSequence(current.sequence, next.sequence),
    progress: stricterProgress(current.progress, next.progress),
    exemptionCeiling: earlier(current.exemptionCeiling, next.exemptionCeiling),
    duplicateText: stricterDuplicateText(current.duplicateText, next.duplicateText),
    stale: stricterStages(current.stale, next.stale),
    spin: stricterStages(current.spin, next.spin),
    guess: stricterStages(current.guess, next.guess),
    editRetry: stricterStages(current.editRetry, next.editRetry),
    timeouts: stricterStages(current.timeouts, next.timeouts),
    failureProgress: stricterFailureProgress(current.failureProgress, next.failureProgress),
  };
}

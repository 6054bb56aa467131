/**
 * Which of two configurations is stricter, setting by setting. A settings
 * change reaches an agent in the middle of its turn only as far as it
 * tightens the breaker: the agent gets, per setting, the stricter of what it
 * has and what was saved. A model inside the turn can reach the settings
 * endpoint, so a change that loosens must wait for a human (docs/live-settings.md).
 */
import type { BreakerConfig } from '../config/config.js';
import { limitFor } from '../call/fingerprint.js';
import type { FailureProgress, Progress } from '../setting/core.js';
import { earlier } from '../setting/setting.js';
import { SETTINGS, type TrackSettings } from '../tracks/meta.js';

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

/** `results`, `changes` and `outcomes` each hold a repeat back where `ignore` never does; two different ones have no order, so neither holds. */
function stricterProgress(a: Progress, b: Progress): Progress {
  return a === b ? a : 'ignore';
}

/** `restart` forgives any failure after a change, `outcomes` only a new error, `ignore` none. */
const FORGIVENESS: Readonly<Record<FailureProgress, number>> = { ignore: 0, outcomes: 1, restart: 2 };

function stricterFailureProgress(a: FailureProgress, b: FailureProgress): FailureProgress {
  return FORGIVENESS[a] <= FORGIVENESS[b] ? a : b;
}

/** Each track's setting the stricter of the two, by its own rule (`meta.setting.stricter`). */
function stricterTracks(current: BreakerConfig, next: BreakerConfig): TrackSettings {
  const stricter: Record<string, unknown> = {};
  for (const setting of SETTINGS) stricter[setting.key] = setting.stricter(setting.of(current), setting.of(next));
  return stricter as TrackSettings;
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
    progress: stricterProgress(current.progress, next.progress),
    exemptionCeiling: earlier(current.exemptionCeiling, next.exemptionCeiling),
    // A stop that comes sooner is stricter; on beats off.
    stopAfter: earlier(current.stopAfter, next.stopAfter),
    failureProgress: stricterFailureProgress(current.failureProgress, next.failureProgress),
    ...stricterTracks(current, next),
  };
}

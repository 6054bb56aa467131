/**
 * Advisory stages a cap makes unreachable. A stage fires when a measure's
 * count equals it on a call that runs; the call that reaches the cap goes to
 * the gate instead, and once approved the measure is exempt and no longer
 * advised about. So a stage at or above a measure's cap never fires for it
 * (`limits.exact: 4` with `warnAt: 7`). The failure advisory fires when a
 * call settles and the failure gate judges the next call, so it is dead only
 * above `failLimit`. Legal configs (0.5.2 takes them), so the card warns and
 * still saves.
 */
import type { BreakerConfig } from '../src/lib/config/config.js';
import { COPY, type StageKey, type Words } from './copy.js';
import { capName } from './fields.js';

/** Warnings by field path: under each cap that pre-empts a stage, and under each stage pre-empted. */
export function deadStages(config: BreakerConfig, words: Words = COPY): Map<string, string> {
  const warnings = new Map<string, string>();
  const repeat: [StageKey, number | null][] = [
    ['warnAt', config.warnAt],
    ['summarizeAt', config.summarizeAt],
  ];
  const preempted = new Map<StageKey, string[]>();
  for (const [key, cap] of Object.entries(config.limits)) {
    if (cap === null) continue;
    const dead = repeat.flatMap(([stage, at]) => (at !== null && at >= cap ? [{ key: stage, at }] : []));
    if (dead.length === 0) continue;
    warnings.set(`limits.${key}`, words.deadAtCap(cap, dead));
    for (const { key: stage } of dead) preempted.set(stage, [...(preempted.get(stage) ?? []), capName(key, words)]);
  }
  for (const [stage, labels] of preempted) warnings.set(stage, words.deadStage(labels));
  const { failWarnAt, failLimit } = config;
  if (failWarnAt !== null && failLimit !== null && failWarnAt > failLimit) {
    warnings.set('failLimit', words.deadFailure(failWarnAt, failLimit));
    warnings.set('failWarnAt', words.deadFailureStage(failLimit));
  }
  return warnings;
}

/**
 * One evaluation: every episode of a corpus through every system, each
 * session scored by metrics.ts; then the figures of each system.
 */
import type { Episode } from './episode.js';
import { figuresOf, sessionResult, type Figures, type SessionResult } from './metrics.js';
import { replayEpisode } from './replay.js';
import type { System } from './systems.js';

export interface SystemRun {
  readonly system: string;
  /** The system's short name, for column headings. */
  readonly short: string;
  readonly figures: Figures;
  readonly sessions: readonly SessionResult[];
}

export interface EvaluateOptions {
  /** Called after each replayed session (across all systems), for a progress line. */
  readonly onSession?: (done: number, total: number) => void;
}

export async function evaluate(episodes: readonly Episode[], systems: readonly System[], options: EvaluateOptions = {}): Promise<SystemRun[]> {
  const total = episodes.length * systems.length;
  let done = 0;
  const runs: SystemRun[] = [];
  for (const system of systems) {
    const sessions: SessionResult[] = [];
    for (const episode of episodes) {
      sessions.push(sessionResult(episode, await replayEpisode(episode, system)));
      done += 1;
      options.onSession?.(done, total);
    }
    runs.push({ system: system.label, short: system.short, figures: figuresOf(sessions), sessions });
  }
  return runs;
}

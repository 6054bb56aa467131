/**
 * One evaluation: every episode of a corpus through every system, each
 * session scored by metrics.ts; then the figures of each system. A system
 * that can ask is replayed a second time asking (`System.askConfig`), for the
 * words of its asks.
 */
import type { Episode } from './episode.js';
import { figuresOf, sessionResult, type Figures, type SessionResult } from './metrics.js';
import { replayEpisode } from './replay.js';
import type { Role, System } from './systems.js';

export interface SystemRun {
  readonly system: string;
  /** The system's short name, for column headings. */
  readonly short: string;
  readonly role: Role;
  /** Whether it can deny a call at all. */
  readonly gates: boolean;
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
    // When the system already asks, its own run has the asks.
    const asking = system.askConfig === undefined || system.askConfig === system.config ? undefined : { ...system, config: system.askConfig };
    const asked: string[] = [];
    for (const episode of episodes) {
      const replayed = await replayEpisode(episode, system);
      sessions.push(sessionResult(episode, replayed));
      const asks = asking === undefined ? replayed : await replayEpisode(episode, asking);
      for (const call of asks.calls) if (call.asked !== undefined) asked.push(call.asked);
      done += 1;
      options.onSession?.(done, total);
    }
    runs.push({ system: system.label, short: system.short, role: system.role, gates: system.gates, figures: figuresOf(sessions, system.askConfig === undefined ? undefined : asked), sessions });
  }
  return runs;
}

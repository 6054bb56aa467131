/**
 * An episode: one recorded session as the eval replays it, whatever it was
 * recorded by — a labelled trajectory of the real-agent corpus (labelled.ts)
 * or a DSH session log (from-session-log.ts). Calls come in order, each with
 * the result the host would hand the plugin; a human message resets.
 */
import type { ToolResult } from '../../src/lib/host/types.js';

/** What a session was, as a person labelled it by reading it. */
export type LabelClass = 'loop' | 'good' | 'progress';

export interface Label {
  readonly class: LabelClass;
  /** Index of the loop's first call (loops only). */
  readonly loopStart?: number;
  /** How the loop goes, in the labeller's words. */
  readonly kind?: string;
}

export interface EpisodeCall {
  readonly kind: 'call';
  /** 0-based index among the episode's calls. */
  readonly index: number;
  /** The agent that made it; calls with the same id share one agent object. */
  readonly agent: string;
  readonly name: string;
  readonly arguments: unknown;
  /** What post-execute is given when the call runs. */
  readonly result: ToolResult;
}

export interface EpisodeHuman {
  readonly kind: 'human';
  readonly text: string;
}

export type EpisodeEvent = EpisodeCall | EpisodeHuman;

export interface Episode {
  /** How reports name it: `<group>/<file>` for the corpus, the session directory for a DSH log. */
  readonly name: string;
  readonly path: string;
  readonly label: Label | undefined;
  readonly events: readonly EpisodeEvent[];
  readonly calls: number;
  /**
   * Whether the run resolved its task in the end (the corpus's
   * `meta.outcome.resolved`); `undefined` when the record does not say. A loop
   * run stopped that resolved later anyway costs the operator a "continue".
   */
  readonly resolved?: boolean;
}

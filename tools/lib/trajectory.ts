/**
 * The shape of a session's trajectory, one entry per tool call in log order:
 * what the live session recorded (`test/host/lib/trajectory.ts`, `recorded.json`)
 * and what a replay reproduces (`replay.ts`) are compared field by field, so
 * both are written with these types.
 */

/**
 * Whether a call ran and, if not, which layer refused it. `skipped`: DSH never
 * started it (the turn was stopped first), so neither the plugin nor the
 * approval layer saw it.
 */
export interface CallVerdict {
  /** 1-based position of the call in the log. */
  readonly call: number;
  readonly tool: string;
  readonly outcome: 'ran' | 'denied' | 'skipped';
  /** Who refused a denied call: the plugin's guard (`REPEAT_TOOL_BLOCKED`) or the approval layer, after the plugin asked. */
  readonly by?: 'plugin' | 'approval';
}

export interface TrajectoryEntry extends CallVerdict {
  /** The `source.summary` of each breaker notice attached to this call's result, in log order. */
  readonly notices: readonly string[];
}

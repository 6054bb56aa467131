/**
 * Dominance (issue 40): for each loop some peer of the field gates, where this
 * plugin gates relative to the earliest peer, in calls. This plugin holds the
 * loop when it gates no later than one call after that peer; a loop it gates
 * later, or never, is a miss. The peers are the field's rows as their users get
 * them (role `peer`), never the variants.
 */
import type { SystemRun } from './evaluate.js';

export interface DominanceRow {
  readonly session: string;
  readonly loopStart: number;
  /** The first call any peer denied, at or after the loop start. */
  readonly earliest: number;
  /** The peers that denied it first. */
  readonly peers: readonly string[];
  /** The first call this plugin denied, at or after the loop start; `undefined`: never. */
  readonly ours: number | undefined;
  /** `ours - earliest`; `undefined` when this plugin never gates the loop. */
  readonly lag: number | undefined;
  readonly miss: boolean;
}

export interface Dominance {
  /** Loops some peer gates. */
  readonly peerGated: number;
  /** Of them, gated by this plugin no later than the earliest peer + 1 call. */
  readonly held: number;
  readonly misses: number;
  /** The sessions missed, by name. */
  readonly missed: readonly string[];
  readonly sessions: readonly DominanceRow[];
}

/** How many calls later than the earliest peer still holds the loop. */
export const SLACK = 1;

/** Dominance of `ours` over the `peers` (runs over the same episodes, in the same order). */
export function dominanceOf(ours: SystemRun, peers: readonly SystemRun[]): Dominance {
  const rows: DominanceRow[] = [];
  ours.sessions.forEach((session, index) => {
    if (session.class !== 'loop') return;
    const gates = peers.flatMap((peer) => {
      const at = peer.sessions[index]?.firstDenial;
      return at === undefined ? [] : [{ peer: peer.short, at }];
    });
    if (gates.length === 0) return;
    const earliest = Math.min(...gates.map((gate) => gate.at));
    const mine = session.firstDenial;
    const lag = mine === undefined ? undefined : mine - earliest;
    rows.push({
      session: session.session,
      loopStart: session.loopStart ?? 0,
      earliest,
      peers: gates.filter((gate) => gate.at === earliest).map((gate) => gate.peer),
      ours: mine,
      lag,
      miss: lag === undefined || lag > SLACK,
    });
  });
  const missed = rows.filter((row) => row.miss).map((row) => row.session);
  return { peerGated: rows.length, held: rows.length - missed.length, misses: missed.length, missed, sessions: rows };
}

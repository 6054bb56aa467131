/**
 * The one shape every track has. A track is one file exporting a `TrackModule`,
 * as every ESLint rule exports `meta` and `create`: the breaker composes the
 * modules listed in tracks/index.ts and knows nothing about any single one.
 *
 * A track owns its books and its part of each hook: the hits it brings to the
 * gate, the advisory it earns when the guard allows a call or when the call
 * settles, what it learns from a result, and what a human message clears. The
 * gate itself (exemptions, refusals, the ask or the denial, the allowance),
 * the window the guard commits to, and the order of notices are the breaker's.
 */
import type { BreakerConfig } from '../config/config.js';
import type { Agent, Notice } from '../host/types.js';
import type { Policy } from '../policy/policy.js';
import type { Failure } from '../result/failure.js';
import type { ShellLine } from '../call/line.js';
import type { Mark } from '../call/mark.js';
import type { Shared } from '../memory/turn.js';
import type { Hit, HitWords } from '../text/message.js';

export type { Shared };

/** A tracked call, read once by the breaker, whichever hook sees it first. */
export interface Measured {
  readonly agent: Agent;
  /** The agent's policy when the call was first seen; every hook judges the call by it. */
  readonly policy: Policy;
  readonly name: string;
  /** The shell command; `undefined` for other tools. */
  readonly command: string | undefined;
  /** The shell command's other readings (changes, poll, programs), from its one split; `undefined` for other tools. */
  readonly line?: ShellLine | undefined;
  /** The call's fingerprints, `exact:` first. */
  readonly marks: readonly Mark[];
  /** Whether the call writes files when it succeeds (read/change.ts); read only for a policy that follows changes. */
  readonly writes: boolean;
  /** The file a file tool that edits or reads names (`file_path`, `path`); read only for the edit-retry and guess tracks. */
  readonly file: string | undefined;
  /** Whether the call is a file read (`file` is the file it reads) rather than an edit. */
  readonly reads: boolean;
}

/** A hit at the gate: the key it is exempted, refused and spent under. */
export interface GateHit extends Hit {
  readonly key: string;
}

/** What a track makes of a call at the gate. A track may add what its advisory needs; `advise` gets it back. */
export interface Judgement {
  /** What the track would block, before exemptions. */
  readonly hits: readonly GateHit[];
}

/** Nothing to block: shared, so that a quiet call allocates nothing. */
export const NO_HITS: Judgement = Object.freeze({ hits: Object.freeze([]) });


/**
 * What a call that ran returned, read once for every track that learns from
 * it: the breaker classifies the result with the call's own options, and the
 * digest is made the first time a track asks for it.
 */
export interface Settled {
  readonly result: unknown;
  /** `classifyFailure` of the result, for a shell with its text and command (P1). */
  readonly failure: Failure | null;
  /** `outcomeDigest` of the result (read/outcome.ts), computed on first use. */
  outcome(): string | null;
}

export interface Track<J extends Judgement = Judgement> {
  /** When the call is first read: what the track keeps of its full fingerprints (they are not kept). */
  read?(call: Measured, fps: readonly string[]): void;
  /** The call at the gate, in pre-execute and again in the guard: what the track would block. */
  judge(call: Measured): J;
  /** The call was attempted: allowed, denied or refused. */
  attempted?(call: Measured): void;
  /** The guard allows the call: the advisory it earns, judged before the call is committed. */
  advise?(call: Measured, judged: J): Notice | null;
  /** A call that ran has settled: what the track learns, and an advisory owed now. */
  learn?(call: Measured, settled: Settled): Notice | null;
  /** A human message: the agent's part of the track's books goes. */
  clear(agent: Agent): void;
}

export interface TrackModule {
  /** How the track's hits read in the gate's texts. */
  readonly words: HitWords;
  /** Whether a configuration turns the track on. Off, it is not created, and costs nothing. */
  isOn(cfg: BreakerConfig): boolean;
  /** The track with empty books, created when the first policy that turns it on is met. */
  create(shared: Shared, cfg: BreakerConfig): Track;
}

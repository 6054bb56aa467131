/**
 * The core settings: 0.5.2's keys and the opt-in ones that tune the repeat
 * and failure tracks or the gate, which every layer may read. A track's own
 * key is its module's (tracks/, `meta.setting`); the full configuration,
 * the core and every track's, is config/config.ts's `BreakerConfig`.
 */

export type OnLimit = 'ask' | 'deny';
export type LocalHosts = 'deny' | 'allow';
/** `results`: a repeat gate waits while the results differ; `changes`: a repeat after a change to the workspace counts from 1 again. */
export type Progress = 'ignore' | 'results' | 'changes' | 'outcomes';
/** `ignore` (0.5.2): every failure extends a streak. `restart`: a new error, or a change to the workspace in between, starts it again. */
export type FailureProgress = 'ignore' | 'restart' | 'outcomes';

export interface CoreConfig {
  /** Recent committed calls per agent that are counted. */
  readonly window: number;
  /** What the gate does at a cap or at the failure limit. */
  readonly onLimit: OnLimit;
  /** Whether purely local traffic is fingerprinted by target. */
  readonly localHosts: LocalHosts;
  /** Repeat stage 1; `null` when off. */
  readonly warnAt: number | null;
  /** Repeat stage 2; `null` when off. */
  readonly summarizeAt: number | null;
  /** Failure stage 1; `null` when off. */
  readonly failWarnAt: number | null;
  /** Failure gate; `null` when off. */
  readonly failLimit: number | null;
  /** Whether local hosts feed the `host:` measure. */
  readonly includeLocal: boolean;
  readonly previewChars: number;
  readonly resultPreviewChars: number;
  readonly exclude: readonly string[];
  readonly include: readonly string[];
  /** Decoy argument names per tool (`*` for every tool), dropped before fingerprinting. */
  readonly ignoreArgs: Readonly<Record<string, readonly string[]>>;
  readonly hostAliases: Readonly<Record<string, string>>;
  /** Repeat caps (stage 3) per measure or per full fingerprint; `null` disables both tracks. */
  readonly limits: Readonly<Record<string, number | null>>;
  /**
   * `results`: a repeat gate on an action measure waits while its recent results still differ.
   * `changes`: a run after a change to the workspace is a new experiment, counted from 1 again.
   */
  readonly progress: Progress;
  /** The exemption ceiling: calls an approval allows before the measure is denied outright; `null`: unlimited (breaker/ceiling.ts). */
  readonly exemptionCeiling: number | null;
  /**
   * The stop: refused calls of one loop in a turn (knocks, breaker/knocks.ts) after
   * which the turn ends, its next model step rejected; `null`: never.
   */
  readonly stopAfter: number | null;
  /** How a failure streak treats progress between failures. */
  readonly failureProgress: FailureProgress;
  /** The preset laid under the user's settings (config/preset.ts); `null`: none, every setting as written or the default. */
  readonly preset: string | null;
}

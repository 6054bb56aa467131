/**
 * The one shape every track has. A track is two sibling files, as an ESLint
 * rule is one module with a `meta` and a `create`: `<name>.meta.ts` exports
 * its meta, everything config/, policy/, the breaker and the card need to know
 * about it without running it (its name, its setting, when it is on, what it
 * needs read from a call), and `<name>.ts` exports the module: that meta, its
 * words in the gate's texts, `create`, which makes its books, empty, and its
 * `hooks`, the functions that read and write them. The meta files import no
 * runtime (shell/, call/, result/, memory/), so the card's bundle carries
 * every track's meta and no track. The engine and
 * the card iterate over the registries (tracks/meta.ts for the metas,
 * tracks/index.ts for the modules) and know no track by name.
 *
 * A track owns its books and its part of each hook: the hits it brings to the
 * gate, the advisory it earns when the guard allows a call or when the call
 * settles, what it learns from a result, and what a human message clears. The
 * gate itself (exemptions, refusals, the ask or the denial, the exemption
 * ceiling), the window the guard commits to, and the order of notices are the
 * breaker's.
 */
import type { Agent, Notice, PreStepPayload } from '../host/types.js';
import type { CoreConfig } from '../setting/core.js';
import type { Setting } from '../setting/setting.js';
import type { Failure } from '../result/failure.js';
import type { ShellLine } from '../call/line.js';
import type { Mark } from '../call/mark.js';
import type { Shared } from '../memory/turn.js';
import type { HitFacts, HitWords } from '../text/message.js';

export type { Shared };

/** A tracked call, read once by the breaker (breaker/record.ts), whichever hook sees it first. */
export interface TrackedCall {
  readonly agent: Agent;
  /** The configuration the agent's policy judged the call by when it was first seen; every hook judges it by this one. */
  readonly cfg: CoreConfig;
  readonly name: string;
  /** The shell command; `undefined` for other tools. */
  readonly command: string | undefined;
  /** The shell command's other readings (changes, poll, programs), from its one split; `undefined` for other tools. */
  readonly line?: ShellLine | undefined;
  /** The call's fingerprints, `exact:` first. */
  readonly marks: readonly Mark[];
  /** Whether the call writes files when it succeeds (call/change.ts); read only when a track needs changes. */
  readonly writes: boolean;
  /** The file a file tool that edits or reads names (`file_path`, `path`); read only when a track needs files. */
  readonly file: string | undefined;
  /** Whether the call is a file read (`file` is the file it reads) rather than an edit. */
  readonly reads: boolean;
  /** What the tracks read of the call beyond the above, each in its own slot (`readOf`); empty when the call is first read. */
  readonly kept: unknown[];
}

/** A place on every call for one reading a track makes of it; `T` never `undefined` (an empty slot). */
export interface Slot<T> {
  readonly at: number;
  /** Only the type: a slot's reading is `T`. */
  readonly reading?: T;
}

let slots = 0;

/** A new slot, one per reading a module makes (at its load). */
export function slot<T extends object | string | null>(): Slot<T> {
  slots += 1;
  return { at: slots - 1 };
}

/**
 * The reading a slot holds for the call, made by `read` on first use and kept
 * on the call: a call is judged twice and then learned from, and a WeakMap
 * entry per call and reading cost more than most readings (an ephemeron the
 * collector walks for each short-lived call).
 */
export function readOf<T extends object | string | null>(call: TrackedCall, place: Slot<T>, read: (call: TrackedCall) => T): T {
  const kept = call.kept[place.at];
  if (kept !== undefined) return kept as T;
  const made = read(call);
  call.kept[place.at] = made;
  return made;
}

/** The reading a slot holds for the call when one was made, else `undefined`: nothing is read. */
export function keptOf<T extends object | string | null>(call: TrackedCall, place: Slot<T>): T | undefined {
  return call.kept[place.at] as T | undefined;
}

/** One blocking finding against the current call: what the gate's texts say of it, and the key it is exempted, refused and counted against the exemption ceiling under. */
export interface Hit extends HitFacts {
  readonly key: string;
}

/** What a track makes of a call at the gate. A track may add what its advisory needs; `advise` gets it back. */
export interface Judgement {
  /** What the track would block, before exemptions. */
  readonly hits: readonly Hit[];
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
  /** `outcomeDigest` of the result (result/digest.ts), computed on first use. */
  outcome(): string | null;
}

/**
 * A track's hooks over its books (`B`, what `create` makes): functions made
 * once, with the module, not once a breaker. The books are the state; a hook
 * is handed them. A function made inside each breaker would take its compiled
 * code with it when the breaker goes: a host that applies the plugin again
 * (the bench applies it for every session) would compile every hook again.
 */
export interface TrackHooks<B, J extends Judgement = Judgement> {
  /** When the call is first read: what the track keeps of its full fingerprints and its arguments (neither is kept). */
  read?(books: B, call: TrackedCall, fps: readonly string[], args: unknown): void;
  /**
   * The call at the gate, in pre-execute and again in the guard: what the track would block. It only
   * reads: the guard reuses the pre-execute judgement while nothing was written since (breaker.ts).
   */
  judge(books: B, call: TrackedCall): J;
  /** The call was attempted: allowed, denied or refused. */
  attempted?(books: B, call: TrackedCall): void;
  /** The guard allows the call: the advisory it earns, judged before the call is committed. */
  advise?(books: B, call: TrackedCall, judged: J): Notice | null;
  /** A call that ran has settled: what the track learns, and an advisory owed now. */
  learn?(books: B, call: TrackedCall, settled: Settled): Notice | null;
  /** A human message: the agent's part of the track's books goes. */
  clear(books: B, agent: Agent): void;
}

/** A track as a breaker holds it: its hooks and its books. */
export interface Track {
  readonly hooks: TrackHooks<unknown>;
  readonly books: unknown;
}

/**
 * What a track needs read from a call beyond its fingerprints, when it is on;
 * each costs the calls of every agent judged by that configuration, so a
 * track asks only for what it reads.
 */
export interface CallNeeds {
  /** Whether the call writes files (`TrackedCall.writes`), and the workspace's change count (`Shared.changes`). */
  readonly changes?: boolean;
  /** The file a file tool edits or reads (`TrackedCall.file`, `reads`). */
  readonly files?: boolean;
  /** The shell line kept with the command's reading (`TrackedCall.line`: changes, poll, programs, words), so it is split once. */
  readonly line?: boolean;
}

/** What every track's meta says. */
export interface TrackMeta {
  /** The track's name, as its files, its texts and the README name it. */
  readonly name: string;
  /** What it catches, in one line. */
  readonly description: string;
  /** The config key it owns, and all about it; `null`: it runs on the core settings (failure, repeat) or on another track's. */
  readonly setting: Setting | null;
  /** Another track's setting it runs under, read and not owned (the environment track under `timeouts`). */
  readonly uses?: Setting;
  /** Whether a configuration turns the track on. Off, it is not created, and costs nothing. */
  isOn(cfg: CoreConfig): boolean;
  /** The word its notices' summaries say (`failed`, `same result` …). */
  readonly summary: string;
}

/** The meta of a track of tool calls. */
export interface CallTrackMeta extends TrackMeta {
  readonly reads: 'calls';
  /** What it needs read from a call under `cfg`, asked only when it is on. */
  needs(cfg: CoreConfig): CallNeeds;
}

/** The meta of a track of the messages a step claims. */
export interface MessageTrackMeta extends TrackMeta {
  readonly reads: 'messages';
}

/** A track of tool calls: judged by the breaker's gate, in the registry's order. */
export interface CallTrackModule<B = unknown, J extends Judgement = Judgement> {
  readonly meta: CallTrackMeta;
  /** How its hits read in the gate's texts. */
  readonly words: HitWords;
  /** The track's books, empty, made when the first policy that turns it on is met. */
  create(shared: Shared, cfg: CoreConfig): B;
  readonly hooks: TrackHooks<B, J>;
}

/** A track of the messages `agent/pre-step` claims for a step (src/index.ts wires it, found by `meta.reads`). */
export interface MessageTrack {
  /** The step's decision once the rest of the waterfall has decided, with the track's notice appended when one is owed; `cfg`: the agent's. */
  review(payload: PreStepPayload, decision: unknown, cfg: CoreConfig): unknown;
}

export interface MessageTrackModule {
  readonly meta: MessageTrackMeta;
  /** The track with empty books; `now`: the clock, in milliseconds. */
  create(now: () => number): MessageTrack;
}

export type TrackModule = CallTrackModule | MessageTrackModule;

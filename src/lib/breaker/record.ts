/**
 * Reading a call once. Whichever hook sees a call first reads its name,
 * arguments and agent, fixes the agent's policy for it, fingerprints it and
 * marks the fingerprints; every later hook of the same call gets the same
 * record back. The record is the breaker's: the tracks see it as `Measured`,
 * and the gate keeps the call's progress through the hooks on it.
 */
import type { Notice } from '../host/types.js';
import { safeMember } from '../host/member.js';
import type { Policy, PolicyBook } from '../policy/policy.js';
import { isShell, readCall } from '../call/read.js';
import { callChanges, filePathOf, FILE_EDIT_TOOLS, readsFile } from '../call/change.js';
import { fingerprintParts } from '../call/fingerprint.js';
import { markOne, markTarget } from '../call/mark.js';
import type { GateHit, Measured, Track } from '../tracks/track.js';

/** A tracked call as the breaker follows it through the hooks. */
export interface Call extends Measured {
  /** The tracks the call's policy turns on, in gate order. */
  readonly tracks: readonly Track[];
  /** The hits put to the operator, until the guard consumes the ask or it is settled as declined. */
  asked: readonly GateHit[] | null;
  /** Denied or refused by the breaker: its outcome teaches the tracks nothing. */
  denied: boolean;
  /** The advisories the guard found, owed at post-execute; by index in `tracks` (a sparse array). */
  advised: Notice[] | null;
  /** Its ask was not approved: the denial its own result carries (P13), until post-execute takes it. */
  refusal: string | null;
}

function commandOf(args: unknown): string | undefined {
  const command = safeMember(args, 'command');
  return typeof command === 'string' ? command : undefined;
}

/** The call's record, or `null` when it is transparent (no agent, untracked, unreadable). */
function readOnce(exec: object, policies: PolicyBook, tracksOf: (policy: Policy) => readonly Track[]): Call | null {
  const { name, args, agent } = readCall(exec);
  if (agent === null) return null;
  const policy = policies.of(agent);
  if (!policy.tracked(name)) return null;
  const { cfg } = policy;
  const { exact, target } = fingerprintParts({ name, args }, cfg);
  const tracks = tracksOf(policy);
  const command = isShell(name) ? commandOf(args) : undefined;
  const marks = [markOne(exact, cfg), ...markTarget(target, cfg)];
  // Read only for the opt-in tracks that follow changes and files: the defaults pay nothing for them.
  const follows = cfg.stale !== null || cfg.spin !== null || cfg.failureProgress !== 'ignore' || cfg.progress === 'changes' || cfg.progress === 'outcomes';
  const line = command === undefined ? undefined : target.line;
  const writes = follows && callChanges(name, args, command, line);
  // The edit-retry track follows the files that edits change and that reads look at
  // (str_replace_editor's `view` is a read, its other commands edits); the guess track, the paths reads guess.
  const followsFiles = cfg.editRetry !== null || cfg.guess !== null;
  const fileTool = !followsFiles ? undefined : readsFile(name, args) ? 'read' : FILE_EDIT_TOOLS.has(name) ? 'edit' : undefined;
  const file = fileTool === undefined ? undefined : filePathOf(args);
  const call: Call = { agent, policy, name, command, line, marks, writes, file, reads: fileTool === 'read', tracks, asked: null, denied: false, advised: null, refusal: null };
  // The full fingerprints are dropped after this; a track keeps what it needs of them now.
  let fps: readonly string[] | null = null;
  for (const track of tracks) if (track.read !== undefined) track.read(call, (fps ??= [exact, ...target.fps]));
  return call;
}

/** `read(exec)`: the call's record, made on first sight. */
export function createReader(policies: PolicyBook, tracksOf: (policy: Policy) => readonly Track[]): (exec: unknown) => Call | null {
  const calls = new WeakMap<object, Call | null>();
  return (exec) => {
    if (typeof exec !== 'object' || exec === null) return null;
    let call = calls.get(exec);
    if (call === undefined) {
      call = readOnce(exec, policies, tracksOf);
      calls.set(exec, call);
    }
    return call;
  };
}

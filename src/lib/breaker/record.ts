/**
 * The call record: a call read once. Whichever hook sees a call first reads
 * its name, arguments and agent, fixes the agent's policy for it, fingerprints
 * it and marks the fingerprints, and reads what the policy's tracks need of it
 * beyond them (`meta.needs`); every later hook of the same call gets the same
 * record back. The tracks see it as a `TrackedCall`; the gate keeps the call's
 * progress through the hooks on it.
 */
import type { Notice } from '../host/types.js';
import { safeMember } from '../host/member.js';
import type { Policy, PolicyBook } from '../policy/policy.js';
import { isShell, readCall } from '../call/read.js';
import { callChanges, filePathOf, FILE_EDIT_TOOLS, readsFile } from '../call/change.js';
import { exactOf, targetOf } from '../call/fingerprint.js';
import { callMarks } from '../call/mark.js';
import type { CallNeeds, Hit, Judgement, Track, TrackedCall } from '../tracks/track.js';

/** A tracked call as the breaker follows it through the hooks. */
export interface CallRecord extends TrackedCall {
  /** The agent's policy when the call was first seen; every hook judges the call by it. */
  readonly policy: Policy;
  /** The tracks the call's policy turns on, in gate order. */
  readonly tracks: readonly Track[];
  /** The hits put to the operator, until the guard consumes the ask or it is settled as declined. */
  asked: readonly Hit[] | null;
  /** Denied or refused by the breaker: its outcome teaches the tracks nothing. */
  denied: boolean;
  /** The advisories the guard found, owed at post-execute; by index in `tracks` (a sparse array). */
  advised: Notice[] | null;
  /** Its ask was not approved: the denial its own result carries (P13), until post-execute takes it. */
  refusal: string | null;
  /** The judgement its ask made and did not put to the operator, for its guard while nothing has been written since (on the record: no WeakMap entry a call). */
  judged: readonly Judgement[] | null;
  /** The breaker's write count when `judged` was made. */
  judgedAt: number;
}

/** The tracks a policy turns on, in gate order, and what they need read from a call, all of them together. */
export interface PolicyTracks {
  readonly tracks: readonly Track[];
  readonly needs: Required<CallNeeds>;
}

function commandOf(args: unknown): string | undefined {
  const command = safeMember(args, 'command');
  return typeof command === 'string' ? command : undefined;
}

/** Every fingerprint of the call, `exact:` first. */
function withExact(exact: string, targets: readonly string[]): string[] {
  const fps = [exact];
  for (let at = 0; at < targets.length; at += 1) fps.push(targets[at] as string);
  return fps;
}

/** The call's record, or `null` when it is transparent (no agent, untracked, unreadable). */
function readOnce(exec: object, policies: PolicyBook, tracksOf: (policy: Policy) => PolicyTracks): CallRecord | null {
  const { name, args, agent } = readCall(exec);
  if (agent === null) return null;
  const policy = policies.of(agent);
  if (!policy.tracked(name)) return null;
  const { cfg } = policy;
  const { tracks, needs } = tracksOf(policy);
  const exact = exactOf(name, args, cfg);
  const target = targetOf(name, args, cfg, needs.line);
  const command = isShell(name) ? commandOf(args) : undefined;
  const marks = callMarks(exact, target, cfg);
  // Read only for the tracks that need changes and files: the defaults pay nothing for them.
  const line = command === undefined ? undefined : target.line;
  const writes = needs.changes && callChanges(name, args, command, line);
  // A file tool's file, and whether it reads it (str_replace_editor's `view` is a read, its other commands edits).
  const fileTool = !needs.files ? undefined : readsFile(name, args) ? 'read' : FILE_EDIT_TOOLS.has(name) ? 'edit' : undefined;
  const file = fileTool === undefined ? undefined : filePathOf(args);
  const call: CallRecord = { agent, policy, cfg, name, command, line, marks, writes, file, reads: fileTool === 'read', tracks, asked: null, denied: false, advised: null, refusal: null, judged: null, judgedAt: 0, kept: [] };
  // The full fingerprints and the arguments are dropped after this; a track keeps what it needs of them now.
  let fps: string[] | null = null;
  for (let at = 0; at < tracks.length; at += 1) {
    const track = tracks[at] as Track;
    if (track.hooks.read !== undefined) track.hooks.read(track.books, call, (fps ??= withExact(exact, target.fps)), args);
  }
  return call;
}

/** `recordOf(exec)`: the call's record, made on first sight. */
export function createCallRecords(policies: PolicyBook, tracksOf: (policy: Policy) => PolicyTracks): (exec: unknown) => CallRecord | null {
  const records = new WeakMap<object, CallRecord | null>();
  return (exec) => {
    if (typeof exec !== 'object' || exec === null) return null;
    let call = records.get(exec);
    if (call === undefined) {
      call = readOnce(exec, policies, tracksOf);
      records.set(exec, call);
    }
    return call;
  };
}

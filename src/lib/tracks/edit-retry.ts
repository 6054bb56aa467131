/**
 * The edit-retry track (opt-in): edits of one file rejected again
 * and again. A model whose edit does not apply (the old text is not in the
 * file, the result does not parse) often re-sends it at another position, with
 * a little more or less context, or with the replacement reworded: every
 * respelling is a new `exact:` call, so no failure streak of a measure ever
 * grows. Counted per file, the rejections in a row do: at `warnAt` the model is
 * told to read the file as it is now, and after `limit` the next edit of that
 * file meets the gate. Reading the file ends the streak (the way out the texts
 * name: an edit made from what was read), as does any accepted edit of it and a
 * human message.
 *
 * Two gates follow one edit sent again (edit-resend.ts; what the same edit
 * is, edits.ts): with `applied`, the same edit (the same block of text into
 * the same file) that already landed that many times meets the gate when it
 * is sent again, as the file holds it already; with `resent`, the same edit
 * rejected that many times, the file neither taking an edit nor read in
 * between, does, as it will be rejected again. Each is told at the count that
 * reaches its number (once a file a turn), so `applied` may come before the
 * rejections' advisory.
 */
import type { Agent, Notice } from '../host/types.js';
import { own } from '../host/own.js';
import type { Failure } from '../result/failure.js';
import { identityKey } from '../call/identity.js';
import { defang, preview, type HitWords } from '../text/message.js';
import { describeFailure } from '../text/failure.js';
import { countedSummary, createNotice, summaryLabel } from '../text/notice.js';
import { EDIT_RETRY, editRetryMeta } from './edit-retry.meta.js';
import { keep } from '../memory/book.js';
import { editTextOf, type EditText } from './edits.js';
import { createEditResend, type EditResend, type ResendGates } from './edit-resend.js';
import { NO_HITS, readOf, slot, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';

/** Longest file path quoted in a message. */
const PATH_CHARS = 200;

interface Streak {
  readonly key: string;
  count: number;
  failure: Failure;
}

/** The key a file's streak is kept, gated, exempted and refused under; the gates on an edit sent again too: the file is the loop. */
export function fileKey(path: string): string {
  return identityKey(`file:${path}`);
}

/** Edit-retry stage 1: the edits of one file keep being rejected. */
export function editRetryMessage(path: string, count: number, failure: Failure): string {
  return (
    `CONVERGENCE_CHECK: ${count} edits of ${defang(preview(path, PATH_CHARS))} in a row were rejected (${describeFailure(failure)}). ` +
    'Re-sending it at another position or with other context will be rejected too. Read the part of the file you are changing as it is now, then send one edit whose old text is copied from what you read.'
  );
}

/** The operator's ask (text/ask.ts): the file, which no box shows, as the call named it. */
const ask: HitWords['ask'] = {
  what: (hit) => `the agent's last ${hit.count} edits of ${hit.shown} were all rejected.`,
  also: (hit) => `${hit.count} rejected edits of its file in a row`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `agent 最近对 ${hit.shown} 的 ${hit.count} 次编辑都被拒绝了。`,
  also: (hit) => `对该文件的编辑连续 ${hit.count} 次被拒绝`,
};

const words: HitWords = {
  track: 'edit-retry',
  respelled: false,
  listed: 4,
  why: (hit) => `${hit.count} edits of this file in a row were rejected (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 ${hit.count} rejected edits in a row (${hit.detail})`,
  note: 'Only edits of this file are blocked: reading it will run, and once you have read it, an edit made from what you read will run too.',
  ask,
  zh,
};

/** The rejections' gate: the file's edits were rejected `limit` times in a row. */
function rejectedHit(book: WeakMap<Agent, Map<string, Streak>>, call: TrackedCall): Hit | null {
  // Stryker disable next-line OptionalChaining: the track judges only the calls of a policy that turns it on
  const limit = EDIT_RETRY.of(call.cfg)?.limit ?? null;
  // A read is never gated by this track: it is the way out.
  if (limit === null || call.reads) return null;
  // Stryker disable next-line ConditionalExpression: a call that names no file has no streak (its key names no file either)
  if (call.file === undefined) return null;
  const key = fileKey(call.file);
  const streak = book.get(call.agent)?.get(key);
  if (streak === undefined || streak.count < limit) return null;
  return { key, words, quote: `file:${preview(call.file, PATH_CHARS)}`, count: streak.count, cap: limit, detail: describeFailure(streak.failure), failure: streak.failure };
}

/** The gates of each configuration, read once: they are asked for three times a call. */
const GATES = new WeakMap<object, ResendGates>();

/** The gates on one edit sent again (edit-resend.ts), under the policy's settings. */
function gatesOf(call: TrackedCall): ResendGates {
  let gates = GATES.get(call.cfg);
  // Stryker disable next-line ConditionalExpression: a cache: reading the gates again gives the same ones
  if (gates === undefined) {
    const setting = EDIT_RETRY.of(call.cfg);
    // Stryker disable next-line OptionalChaining: as in rejectedHit, the policy turns the track on
    GATES.set(call.cfg, (gates = { applied: setting?.applied ?? null, resent: setting?.resent ?? null }));
  }
  return gates;
}

/** One hit at most: every gate of the track is the file's, under one key. */
function judge(book: WeakMap<Agent, Map<string, Streak>>, resend: EditResend, call: TrackedCall, edit: EditText | null): Judgement {
  // Stryker disable next-line ConditionalExpression: the resend gates judge no call without a file (edit-resend.ts)
  const hit = rejectedHit(book, call) ?? (call.file === undefined ? null : resend.judge(call, edit, gatesOf(call), fileKey(call.file)));
  return hit === null ? NO_HITS : { hits: [hit] };
}

function learn(book: WeakMap<Agent, Map<string, Streak>>, call: TrackedCall, settled: Settled, shared: Shared): Notice | null {
  if (call.file === undefined) return null;
  const key = fileKey(call.file);
  if (shared.isExempt(call.agent, key)) return null;
  const { failure } = settled;
  let streaks = book.get(call.agent);
  if (streaks === undefined) book.set(call.agent, (streaks = new Map()));
  // An accepted edit, or a read that worked: the next edit is made from the file as it is.
  if (failure === null || call.reads) {
    if (failure === null) streaks.delete(key);
    return null;
  }
  const before = streaks.get(key);
  const stored = before?.key ?? own(key);
  const count = (before?.count ?? 0) + 1;
  keep(streaks, stored, { key: stored, count, failure: { reason: failure.reason, detail: own(failure.detail) } });
  // Stryker disable next-line OptionalChaining: as in rejectedHit
  if (count !== EDIT_RETRY.of(call.cfg)?.warnAt) return null;
  return createNotice(editRetryMessage(call.file, count, failure), countedSummary(summaryLabel(`file:${call.file}`), SUMMARY, count));
}

/** The edit a call makes, read while its arguments are at hand (the gates on an edit sent again); `null` when none or when they are off. */
const EDIT = slot<EditText | null>();

/** Nothing to read after the call's first reading: a call the track did not read makes no edit. */
// Stryker disable next-line ArrowFunction: the track's read hook fills the slot of every call it judges; this reader is never asked
const UNREAD = (): null => null;

function editOf(call: TrackedCall): EditText | null {
  return readOf(call, EDIT, UNREAD);
}

/** What its notices' summaries say: `file “/src/a.ts” rejected x3`. */
const SUMMARY = editRetryMeta.summary;

/** The edit-retry track's books: each agent's rejected edits by file, the resend gates' book, and the shared memory. */
interface EditRetryBooks {
  readonly book: WeakMap<Agent, Map<string, Streak>>;
  readonly resend: EditResend;
  readonly shared: Shared;
}

export const editRetryTrack = {
  meta: editRetryMeta,
  words,
  create: (shared) => ({ book: new WeakMap<Agent, Map<string, Streak>>(), resend: createEditResend(), shared }),
  hooks: {
    read: (_books, call, _fps, args) => {
      const gates = gatesOf(call);
      // Stryker disable next-line ConditionalExpression: with both resend gates off an edit's text is kept for nothing: memory only, no verdict
      readOf(call, EDIT, (read) => (gates.applied === null && gates.resent === null ? null : editTextOf(read, args)));
    },
    judge: ({ book, resend }, call) => judge(book, resend, call, editOf(call)),
    learn: ({ book, resend, shared }, call, settled) => {
      const learned = learn(book, call, settled, shared);
      // The file's key exempted: what its edits do is the operator's call for the turn.
      const exempt = call.file !== undefined && shared.isExempt(call.agent, fileKey(call.file));
      const resent = exempt ? null : resend.learn(call, settled, editOf(call), gatesOf(call));
      return learned ?? resent;
    },
    clear: ({ book, resend }, agent) => {
      book.delete(agent);
      resend.clear(agent);
    },
  },
} satisfies CallTrackModule<EditRetryBooks>;

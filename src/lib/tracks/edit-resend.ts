/**
 * The edit-retry track's gates on one edit sent again (edits.ts reads what
 * the same edit is): `applied`, the same edit sent after it already landed
 * that many times, and `resent`, the same edit sent after it was rejected
 * that many times while the file took no edit and was not read. Each gates that one edit
 * only: a read of the file, another edit of it and every other call run.
 * Their hits are the file's, under the track's key: the file is the loop.
 */
import type { Agent, Notice } from '../host/types.js';
import { defang, preview, type HitWords } from '../text/message.js';
import { countedSummary, createNotice, summaryLabel } from '../text/notice.js';
import { lookupKey } from '../call/identity.js';
import { add } from '../memory/book.js';
import { createEditBook, type EditText } from './edits.js';
import type { Hit, Settled, TrackedCall } from './track.js';

/** Longest file path quoted in a message. */
const PATH_CHARS = 200;

/** The two gates' numbers under the call's policy; `null`: off. */
export interface ResendGates {
  readonly applied: number | null;
  readonly resent: number | null;
}

/** The `applied` advisory: the edit just made had landed before. */
export function landedMessage(path: string, times: number): string {
  return (
    `CONVERGENCE_CHECK: ${defang(preview(path, PATH_CHARS))} already holds this edit: it has landed ${times} times. ` +
    'Applying it again changes nothing. Read that part of the file, then make a different change, or say what is in the way.'
  );
}

/** The `resent` advisory: the edit just rejected was rejected before, the file unchanged. */
export function resentMessage(path: string, times: number): string {
  return (
    `CONVERGENCE_CHECK: the same edit of ${defang(preview(path, PATH_CHARS))} has now been rejected ${times} times, with nothing in the file changed in between. ` +
    'Sending it again unchanged will be rejected again. Read the part of the file you are changing as it is now, then send an edit made from what you read.'
  );
}

const ONLY_THIS = 'Only this edit is blocked: reading the file will run, and so will a different edit of it.';

/** How the `applied` gate's hits read: the file holds the edit already. (Exported for its test, which reads every text whole.) */
export const landedWords: HitWords = {
  track: 'edit-retry',
  respelled: false,
  listed: 4,
  why: (hit) => `the same edit of this file already landed ${hit.count} times (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 the same edit landed ${hit.count} times already (limit ${hit.cap})`,
  note: ONLY_THIS,
  ask: {
    what: (hit) => `the agent has already applied this same edit to ${hit.shown} ${hit.count} times.`,
    also: (hit) => `landed ${hit.count} times already`,
  },
  zh: {
    what: (hit) => `agent 已经把这同一个编辑应用到 ${hit.shown} ${hit.count} 次了。`,
    also: (hit) => `已生效 ${hit.count} 次`,
  },
};

/** How the `resent` gate's hits read: the same edit, rejected each time. (Exported for its test.) */
export const resentWords: HitWords = {
  track: 'edit-retry',
  respelled: false,
  listed: 4,
  why: (hit) => `the same edit of this file was rejected ${hit.count} times (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 the same edit rejected ${hit.count} times (limit ${hit.cap})`,
  note: ONLY_THIS,
  ask: {
    what: (hit) => `the agent has sent this same edit of ${hit.shown} ${hit.count} times, and it was rejected each time.`,
    also: (hit) => `rejected ${hit.count} times`,
  },
  zh: {
    what: (hit) => `agent 已 ${hit.count} 次向 ${hit.shown} 发送这同一个编辑，每次都被拒绝。`,
    also: (hit) => `被拒 ${hit.count} 次`,
  },
};

export interface EditResend {
  /** The hit of an edit sent again past a gate, under `key` (the file's); `null` when none. */
  judge(call: TrackedCall, edit: EditText | null, gates: ResendGates, key: string): Hit | null;
  /** What a settled call teaches: an edit landed or was rejected, or a shell line changed files; the advisory at the count that reaches a gate. */
  learn(call: TrackedCall, settled: Settled, edit: EditText | null, gates: ResendGates): Notice | null;
  clear(agent: Agent): void;
}

export function createEditResend(): EditResend {
  const book = createEditBook();
  // Each gate's advisory once a file a turn: after it, or a denial, the model has been told what that file's edits are doing.
  const told = new WeakMap<Agent, Set<string>>();
  const firstTime = (agent: Agent, gate: string, file: string): boolean => {
    let files = told.get(agent);
    if (files === undefined) told.set(agent, (files = new Set()));
    const key = lookupKey(`${gate}\u0000${file}`);
    if (files.has(key)) return false;
    add(files, key);
    return true;
  };
  return {
    judge(call, edit, { applied, resent }, key) {
      // Stryker disable next-line ConditionalExpression: an edit's text is read from a call that names its file (edits.ts)
      if (edit === null || call.file === undefined) return null;
      const sent = book.of(call.agent, edit);
      const quote = `file:${preview(call.file, PATH_CHARS)}`;
      // Stryker disable next-line StringLiteral: these words quote no detail
      if (resent !== null && sent.rejected >= resent) return { key, words: resentWords, quote, count: sent.rejected, cap: resent, detail: '' };
      // Stryker disable next-line StringLiteral: as above
      if (applied !== null && edit.block && sent.landed >= applied) return { key, words: landedWords, quote, count: sent.landed, cap: applied, detail: '' };
      return null;
    },
    learn(call, settled, edit, { applied, resent }) {
      if (call.command !== undefined) {
        // A shell line that changes files may have undone any edit, or made a rejected one fit: failing
        // or not (`git checkout -- f && pytest` fails with the test), it may have run its change.
        if (call.writes) book.unsettle();
        return null;
      }
      // Only a read or an edit tool names a file, and an edit that lands forgets the rejections anyway (below);
      // a landed edit with no text (a deletion) is the one difference (docs/mutation.md, stop 59).
      // Stryker disable next-line ConditionalExpression: as above
      if (call.reads && call.file !== undefined && settled.failure === null) book.looked(call.agent, call.file);
      // Stryker disable next-line ConditionalExpression: as in judge
      if (edit === null || call.file === undefined) return null;
      const label = summaryLabel(`file:${call.file}`);
      if (settled.failure !== null) {
        const times = book.reject(call.agent, edit);
        // Stryker disable next-line StringLiteral: any two names of the gates serve, as long as they differ
        if (times !== resent || !firstTime(call.agent, 'resent', call.file)) return null;
        return createNotice(resentMessage(call.file, times), countedSummary(label, 'rejected alike', times));
      }
      const times = book.land(call.agent, edit);
      // Stryker disable next-line StringLiteral: as above
      if (!edit.block || times !== applied || !firstTime(call.agent, 'applied', call.file)) return null;
      return createNotice(landedMessage(call.file, times), countedSummary(label, 'landed', times));
    },
    clear: (agent) => {
      book.clear(agent);
      told.delete(agent);
    },
  };
}

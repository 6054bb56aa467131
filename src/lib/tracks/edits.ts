/**
 * What a file tool's edits did to each file this turn: the reading the
 * edit-retry track's `applied` and `resent` gates count by.
 *
 * - An edit that lands and is sent again (the same block of text into the
 *   same file) re-does what it did: the file already holds it, and the check
 *   after it fails as it failed. Real models do it at drifting line ranges
 *   (SWE-agent's `edit A:B`), round after round, each accepted, so no
 *   rejection and no failure streak ever grows.
 * - An edit rejected and sent again unchanged, while the file took no edit
 *   and was not read, will be rejected again: only another text, a change to
 *   the file, or a place found by reading it (an edit that names lines) can
 *   make it land.
 *
 * The same edit is the same file and the same new text, and, where the edit
 * names the text it replaces, the same old text: a fix sent to several sites
 * replaces a different text at each. An edit that names lines instead of text
 * (`<lines A:B>`, as SWE-agent's `edit A:B` is logged; str_replace_editor's
 * `insert` at a line) or writes the whole file is the same edit wherever it
 * goes: the lines move as earlier edits shift them. The text is compared as
 * sent, whitespace included: re-indenting is how a rejected edit is fixed.
 * Only a block (two lines or more that are not blank) counts as landed: one
 * line may belong in many places of a file; a deletion puts nothing in.
 *
 * Anything that may have taken an edit out makes it new again: a shell line
 * that changes files (`git checkout`, `rm`, `patch`, `sed -i`), by any agent
 * (they share one workspace), and an edit whose old text is exactly a text
 * that landed (an edit undone by hand). An edit that lands in a file, or a
 * read of it, makes every rejected edit of it new again: the file it would go
 * into has changed, or the model has looked at it.
 */
import type { Agent } from '../host/types.js';
import { safeMember } from '../host/member.js';
import { lookupKey } from '../call/identity.js';
import { keep } from '../memory/book.js';
import type { TrackedCall } from './track.js';

/** One edit as this reading knows it: stand-ins (call/identity.ts `lookupKey`), never the text. */
export interface EditText {
  /** Its file. */
  readonly file: string;
  /** The same edit: the file, the new text, and the old text when the edit names one. */
  readonly edit: string;
  /** The new text alone, in its file: what a later edit undoing it names as its old text. */
  readonly text: string;
  /** The old text it replaces, in its file; `null` when it names lines or writes the whole file. */
  readonly old: string | null;
  /** Whether the new text is a block (two lines or more that are not blank): only a block counts as landed. */
  readonly block: boolean;
  /** The line an edit that names lines puts its text at (`<lines A:B>`'s A, an insert's line); `null` when it names text. */
  readonly at: number | null;
}

/** Files one agent's book follows, and edits a file: a loop re-sends a few, a turn makes tens. */
const FILES_KEPT = 64;
const EDITS_KEPT = 64;

/** How SWE-agent's `edit A:B` is logged: lines, not text. */
const LINES = /^<lines (\d+):\d+>$/;

/**
 * How far from its last landing an edit that names lines may go and still be
 * the same edit sent again: earlier edits shift a place by a few lines (the
 * loops of the split drift by 3 at most), while the same block placed at
 * several sites of a file (a guard added to three functions) goes far.
 */
const PLACE_LINES = 12;

/** The line an edit that names lines starts at. */
function placeOf(args: unknown, named: string | undefined): number | null {
  const range = named === undefined ? null : LINES.exec(named);
  if (range !== null) return Number(range[1]);
  const insert = safeMember(args, 'insert_line');
  return typeof insert === 'number' && Number.isSafeInteger(insert) ? insert : null;
}

/** Whether a landing at `at` is the same place as one at `before` (an edit that names text has one place). */
export function samePlace(before: number | null, at: number | null): boolean {
  return before === null || at === null || Math.abs(before - at) <= PLACE_LINES;
}

/** The first of `names` the arguments hold as a string. */
function stringMember(args: unknown, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = safeMember(args, name);
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** Whether a text is a block: two lines or more that are not blank. */
function isBlock(text: string): boolean {
  let lines = 0;
  for (const line of text.split('\n')) if (line.trim() !== '' && ++lines >= 2) return true;
  return false;
}

/** The edit a file tool's call makes; `null` for a read, a shell line, or an edit that puts no text in. */
export function editTextOf(call: TrackedCall, args: unknown): EditText | null {
  if (call.file === undefined || call.reads) return null;
  const text = stringMember(args, ['new_string', 'new_str', 'content', 'file_text']);
  if (text === undefined || text.trim() === '') return null;
  const named = stringMember(args, ['old_string', 'old_str']);
  const old = named === undefined || LINES.test(named) ? null : named;
  const file = `${call.file}\u0000`;
  return {
    file: lookupKey(call.file),
    edit: lookupKey(`${file}${old ?? '\u0001'}\u0000${text}`),
    text: lookupKey(`${file}${text}`),
    old: old === null ? null : lookupKey(`${file}${old}`),
    block: isBlock(text),
    at: old === null ? placeOf(args, named) : null,
  };
}

/** One edit of a file: how many times it landed, and was rejected since the file last took an edit. */
interface Sent {
  landed: number;
  rejected: number;
  readonly text: string;
  /** Where it last landed, when it names lines. */
  at: number | null;
}

/** The edits of each file, per agent, since the last change that may have undone one. */
export interface EditBook {
  /** The edit as the book has it: landed and rejected counts (0 when never, or since undone). */
  of(agent: Agent, edit: EditText): { readonly landed: number; readonly rejected: number };
  /** An accepted edit: one more landing (a block's), the file's rejections forgotten; one undoing another (its old text is that one's text) takes it out. Returns its landings. */
  land(agent: Agent, edit: EditText): number;
  /** A rejected edit: one more rejection. Returns its rejections since the file last took an edit. */
  reject(agent: Agent, edit: EditText): number;
  /** The agent read the file (`file`, as the call names it): its rejected edits are forgotten. */
  looked(agent: Agent, file: string): void;
  /** A shell line changed files: every edit of every agent may have been undone. */
  unsettle(): void;
  clear(agent: Agent): void;
}

const NEVER = Object.freeze({ landed: 0, rejected: 0 });

export function createEditBook(): EditBook {
  const books = new WeakMap<Agent, { epoch: number; files: Map<string, Map<string, Sent>> }>();
  let epoch = 0;
  const filesOf = (agent: Agent, make: boolean): Map<string, Map<string, Sent>> | undefined => {
    const book = books.get(agent);
    if (book !== undefined && book.epoch === epoch) return book.files;
    if (!make) return undefined;
    const files = new Map<string, Map<string, Sent>>();
    books.set(agent, { epoch, files });
    return files;
  };
  /** The edit's entry, made when missing, as its file's newest. */
  const sentOf = (agent: Agent, edit: EditText): { sent: Sent; edits: Map<string, Sent> } => {
    const files = filesOf(agent, true) as Map<string, Map<string, Sent>>;
    const edits = files.get(edit.file) ?? new Map<string, Sent>();
    keep(files, edit.file, edits, FILES_KEPT);
    const sent = edits.get(edit.edit) ?? { landed: 0, rejected: 0, text: edit.text, at: null };
    keep(edits, edit.edit, sent, EDITS_KEPT);
    return { sent, edits };
  };
  return {
    of(agent, edit) {
      const sent = filesOf(agent, false)?.get(edit.file)?.get(edit.edit);
      if (sent === undefined) return NEVER;
      // Sent to another site of the file, the landings elsewhere do not count (a block placed at several sites).
      return samePlace(sent.at, edit.at) ? sent : { landed: 0, rejected: sent.rejected };
    },
    land(agent, edit) {
      const { sent, edits } = sentOf(agent, edit);
      for (const [key, other] of edits) {
        other.rejected = 0;
        if (edit.old !== null && other.text === edit.old && other !== sent) edits.delete(key);
      }
      if (!edit.block) return sent.landed;
      // Landed at another site of the file: counted there from 1, as a fix placed at several sites.
      sent.landed = samePlace(sent.at, edit.at) ? sent.landed + 1 : 1;
      sent.at = edit.at;
      return sent.landed;
    },
    reject: (agent, edit) => (sentOf(agent, edit).sent.rejected += 1),
    looked(agent, file) {
      for (const sent of filesOf(agent, false)?.get(lookupKey(file))?.values() ?? []) sent.rejected = 0;
    },
    unsettle: () => void (epoch += 1),
    clear: (agent) => void books.delete(agent),
  };
}

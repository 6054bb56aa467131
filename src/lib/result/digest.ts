/**
 * The one digest of what a call returned. Two notions of "the same result"
 * are behaviour, and both are kept, as data over one machinery:
 *
 * - **the outcome** (`OUTCOME`: the stale, spin and guess tracks, the failure
 *   evidence, `progress: outcomes`): the error flag, the exit status parts of
 *   the structured value (exit code, time-out, signal: bash's value otherwise
 *   repeats the text or echoes arguments), and the text as a multiset of
 *   lines with their noise masked (result/noise.ts): the order of lines, line
 *   endings, trailing blanks, meters, clocks and a shell's line counter do
 *   not make two outcomes differ; any other difference, a number included, does.
 * - **the results** (`RESULTS`: `progress: results`, 0.6's): the error flag,
 *   every text block exactly (its length first, so the split between blocks
 *   counts), and the whole structured value without the tool's decoy
 *   arguments (hosts echo some back: a model varying `timeoutMs` must not
 *   look like a poll making progress).
 *
 * They cannot be one: a poll whose meter moved made progress for `results`
 * and none for the outcome. So a notion is data (which flag tags, what of
 * the value, the text as lines or as blocks, how a field is read) and one
 * function digests a result under it: the blocks come from the one result
 * reader (host/result.ts), and every text goes through one hash, two FNV-1a
 * lanes over UTF-16 code units (64 bits: two results of one action share a
 * digest by accident with odds of about 1 in 10^19). Only equality of digests
 * is ever read. Linear in the result; a line with nothing to mask is hashed
 * in place, never copied.
 */
import { canonical, decoysFor, withoutDecoys } from '../call/canonical.js';
import { member, safeMember } from '../host/member.js';
import { resultBlocks, type Reader } from '../host/result.js';
import { maskShellLine, NOISE_LINE_LIMIT, quietLine } from './noise.js';
import { isDigitCode, isSpaceCode } from '../shell/tokenize.js';
import { keepShape } from '../host/shape.js';

/** A notion of "the same result": what of a result its digest reads, and how. */
export interface DigestNotion {
  /** What the error flag reads as, set and not. */
  readonly flag: readonly [error: string, ok: string];
  /** The text as a multiset of quiet lines (`lines`), or every block exactly (`blocks`). */
  readonly text: 'lines' | 'blocks';
  /** Of the structured value, the exit status parts (`status`) or all of it but the decoys (`value`). */
  readonly value: 'status' | 'value';
  /** How fields are read: `member` (an unreadable result has no digest) or `safeMember` (an unreadable field is absent). */
  readonly read: Reader;
}

// Stryker disable next-line StringLiteral: only equality of digests is read: an emptied flag still differs from the other
export const OUTCOME: DigestNotion = { flag: ['E', 'ok'], text: 'lines', value: 'status', read: member };
// Stryker disable next-line StringLiteral: as above, and an emptied `blocks` or `value` is still the branch that is not `lines` or `status`
export const RESULTS: DigestNotion = { flag: ['error', 'ok'], text: 'blocks', value: 'value', read: safeMember };

// The lanes and their sums are held as signed 32-bit integers (what Math.imul gives), written
// unsigned: V8 keeps them as small integers, so a Lanes never changes shape as its sums grow.
const BASIS_A = 0x811c9dc5 | 0;
const BASIS_B = 0x01234567;
const PRIME = 0x01000193;

/** Two FNV-1a lanes, fed code units in order; a multiset of lines adds each line's lanes into `sumA`/`sumB`. */
class Lanes {
  a = BASIS_A;
  b = BASIS_B;
  sumA = 0;
  sumB = 0;
  lines = 0;

  /** Feeds `text[from, to)`. */
  feed(text: string, from = 0, to = text.length): void {
    let { a, b } = this;
    for (let i = from; i < to; i += 1) {
      const code = text.charCodeAt(i);
      a = Math.imul(a ^ code, PRIME);
      b = Math.imul(b ^ code, PRIME);
    }
    this.a = a;
    this.b = b;
  }

  /** Feeds one line whole and adds it to the multiset. */
  line(text: string, from = 0, to = text.length): void {
    this.a = BASIS_A;
    this.b = BASIS_B;
    this.feed(text, from, to);
    // Stryker disable next-line ArithmeticOperator: a sum taken away is still a digest of the multiset (order-free, every line counted)
    this.sumA = (this.sumA + this.a) | 0;
    // Stryker disable next-line ArithmeticOperator: as above
    this.sumB = (this.sumB + this.b) | 0;
    // Stryker disable next-line AssignmentOperator: a count down is still a count
    this.lines += 1;
  }

  /** The lanes fed so far, as text. */
  stream(): string {
    return written(this.a >>> 0, this.b >>> 0);
  }

  /** The multiset of lines, as text. */
  multiset(): string {
    return `${this.lines}.${written(this.sumA >>> 0, this.sumB >>> 0)}`;
  }
}

// A digest's lanes die with it (host/shape.ts).
keepShape(new Lanes());

/** `0`: the first of the 64 characters a digest's values are written in. */
const DIGIT_0 = 0x30;

/**
 * Two 32-bit values as eleven characters of six bits, from `0` to `o`: a digest
 * is only ever compared (each value written whole, so two digests are equal
 * exactly when their values are), and never holds a newline (the books of
 * recent digests separate them by one, memory/book.ts) or a `|`. One-byte
 * characters keep the digest, and every book of recent ones, a one-byte string:
 * half the size of one holding a wider character, and searched faster.
 * Exported for its test, which reads each value back.
 */
export function written(a: number, b: number): string {
  return String.fromCharCode(
    DIGIT_0 + (a & 0x3f),
    DIGIT_0 + ((a >>> 6) & 0x3f),
    DIGIT_0 + ((a >>> 12) & 0x3f),
    DIGIT_0 + ((a >>> 18) & 0x3f),
    DIGIT_0 + ((a >>> 24) & 0x3f),
    // The last two bits of `a` and the first four of `b`.
    DIGIT_0 + ((a >>> 30) | ((b & 0xf) << 2)),
    DIGIT_0 + ((b >>> 4) & 0x3f),
    DIGIT_0 + ((b >>> 10) & 0x3f),
    DIGIT_0 + ((b >>> 16) & 0x3f),
    DIGIT_0 + ((b >>> 22) & 0x3f),
    DIGIT_0 + (b >>> 28),
  );
}

/**
 * Whether the line `text[from, to)` holds what noise masking reads: a carriage
 * return, or a digit or spinner glyph in a line short enough to be a meter. A
 * shortcut only in one direction: a line it sends to the noise reader with
 * nothing to mask reads the same there (test/unit/digest.test.ts holds the other).
 */
function needsMasking(text: string, from: number, to: number): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: the noise reader leaves a line past the meter length as it is
  const meter = to - from <= NOISE_LINE_LIMIT;
  // Stryker disable next-line EqualityOperator: one past the line is its newline or NaN, neither a mark
  for (let i = from; i < to; i += 1) {
    const code = text.charCodeAt(i);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: each survivor reads more lines as marked (see above)
    if (code === 0x0d) return true;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: each survivor reads more lines as marked (see above)
    if (meter && (isDigitCode(code) || (code >= 0x2800 && code <= 0x28ff))) return true;
  }
  // Stryker disable next-line BooleanLiteral: every line to the noise reader (see above)
  return false;
}

/**
 * Adds the lines of `text` (split at `\n`) to the multiset, each as a terminal
 * last showed it with its noise masked and its trailing blanks dropped
 * (`quietLine`, `maskShellLine`); a meter row is no line. A line with nothing
 * to mask is hashed where it stands. (A `\r` before a `\n` needs no care of its
 * own: a terminal shows what came before a trailing carriage return.)
 */
function addLines(lanes: Lanes, text: string): void {
  for (let start = 0; ; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator: a shortcut: the noise reader reads a line with nothing to mask as it stands
    if (needsMasking(text, start, end) || (end - start > NOISE_LINE_LIMIT && hasDigit(text, start, end))) {
      const quiet = quietLine(text.slice(start, end));
      if (quiet !== null) lanes.line(maskShellLine(quiet.trimEnd()));
    } else {
      let last = end;
      // What trimEnd drops is what `\s` matches: white space and line terminators.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: past a line's start is its newline, a blank: a line fed from after its end feeds nothing, as an empty one
      while (last > start && isSpaceCode(text.charCodeAt(last - 1))) last -= 1;
      lanes.line(text, start, last);
    }
    if (newline === -1) return;
    start = newline + 1;
  }
}

/** Whether `text[from, to)` holds a digit (a long line's shell counter is masked too). */
function hasDigit(text: string, from: number, to: number): boolean {
  // Only the head can hold `bash: line N:` (maskShellLine reads no further); a shortcut, as in needsMasking.
  // Stryker disable next-line MethodExpression: a longer head sends more long lines to the noise reader, which leaves them as they stand
  const head = Math.min(to, from + 128);
  // Stryker disable next-line EqualityOperator: as above
  for (let i = from; i < head; i += 1) {
    // Stryker disable next-line ConditionalExpression: as above
    if (isDigitCode(text.charCodeAt(i))) return true;
  }
  // Stryker disable next-line BooleanLiteral: as above
  return false;
}

/** The lines of a text as a multiset, noise masked (the outcome's text; the guess track digests an error's head so). */
export function linesDigest(text: string): string {
  const lanes = new Lanes();
  addLines(lanes, text);
  return lanes.multiset();
}

/**
 * The status parts of the values nearly every result has, written once: no
 * signal, and no exit code (row 0) or one of 0 to 255 (row `code + 1`); in each
 * row, the run that finished, then the one that timed out.
 */
const PLAIN_STATUS: readonly (readonly [string, string])[] = Array.from({ length: 257 }, (_, row) => {
  const exit = row === 0 ? '-' : String(row - 1);
  return [`${exit}/-/-`, `${exit}/t/-`] as const;
});

/** The exit status parts of a structured value (bash's). */
function statusOf(value: unknown): string {
  const exitCode = member(value, 'exitCode');
  const timedOut = member(value, 'timedOut');
  const signal = member(value, 'signal');
  // The table is a shortcut: the spelling at the end writes the same for every value it holds.
  // Stryker disable next-line ConditionalExpression,BlockStatement: the table is a shortcut
  if (typeof signal !== 'string') {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: the table is a shortcut
    const row = typeof exitCode !== 'number' ? 0 : Number.isInteger(exitCode) && exitCode >= 0 && exitCode <= 255 ? exitCode + 1 : -1;
    // Stryker disable next-line ConditionalExpression: the table is a shortcut
    if (row !== -1) return (PLAIN_STATUS[row] as readonly [string, string])[timedOut === true ? 1 : 0];
  }
  return `${typeof exitCode === 'number' ? exitCode : '-'}/${timedOut === true ? 't' : '-'}/${typeof signal === 'string' ? JSON.stringify(signal.slice(0, 32)) : '-'}`;
}

/** The digest of a result under a notion; `decoys`: the tool's decoy arguments, for `value`. Throws what the result throws under `member`. */
function digestOf(result: unknown, notion: DigestNotion, decoys: ReadonlySet<string>): string {
  const { read } = notion;
  // Stryker disable next-line EqualityOperator,BooleanLiteral: the two flags swapped still tell an error from a success
  const flag = notion.flag[read(result, 'isError') === true ? 0 : 1];
  const lanes = new Lanes();
  // Stryker disable next-line StringLiteral: the reader reads any mode but 'all' and 'shown' as 'strings'
  const blocks = resultBlocks(result, 'strings', read);
  if (notion.text === 'lines') {
    for (const text of blocks) addLines(lanes, text);
    if (blocks.length === 0) lanes.line('');
  } else {
    lanes.feed(flag);
    for (const text of blocks) {
      // Each block's length goes first, so the split between blocks is part of the digest.
      lanes.feed(`\u0000${text.length}\u0000`);
      lanes.feed(text);
    }
  }
  // One flat string, not a rope of its parts: the books keep it (each of a few an action) and share it.
  if (notion.value === 'status') return [flag, statusOf(read(result, 'value')), lanes.multiset()].join('|');
  lanes.feed(`\u0001${canonical(withoutDecoys(read(result, 'value'), decoys))}`);
  return lanes.stream();
}

/** The outcome of a result (`OUTCOME`); `null` for a result that cannot be read (no evidence either way). */
export function outcomeDigest(result: unknown): string | null {
  try {
    return digestOf(result, OUTCOME, NO_DECOYS);
  } catch {
    return null;
  }
}

const NO_DECOYS: ReadonlySet<string> = new Set();

/** The results digest (`RESULTS`) of a result of the tool `name`; `unreadable` for one that cannot be read whole (all such look alike). */
export function resultDigest(result: unknown, name: string, ignoreArgs: Readonly<Record<string, readonly string[]>>): string {
  try {
    return digestOf(result, RESULTS, decoysFor(name, ignoreArgs));
  } catch {
    return 'unreadable';
  }
}

/**
 * A file's text with its line-number gutter aside: a file tool answers a read
 * with each line numbered (`1\tDEBUG = False`, `     1→…`, SWE-agent's
 * `1:…`), `cat -n` numbers it its own way (`     1\tDEBUG = False`), `cat`
 * not at all: one text, three answers. The stale track's back-to-back run
 * compares a file tool's read and a shell read of the same path so
 * (tracks/stale.ts), only as the very same, non-empty text.
 *
 * A gutter is read only when every line has one and the numbers go up by one
 * from the first: a text whose lines merely start with digits keeps them.
 */
import { ANSWER_READ_LIMIT } from './answer.js';

/** A gutter: the line's number, right-aligned or not, then a tab, an arrow or a colon. */
const GUTTER = /^ *(\d{1,9})(?:\t|\u2192|:)/;

/** The text's lines with their gutter aside; the lines themselves when any line has none, or the numbers skip. */
function linesOf(text: string): readonly string[] {
  const lines = text.split('\n');
  // A last newline ends the last line: no line after it.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const first = GUTTER.exec(lines[0] ?? '');
  if (first === null) return lines;
  const from = Number(first[1]);
  const bare: string[] = [];
  for (const [at, line] of lines.entries()) {
    const gutter = at === 0 ? first : GUTTER.exec(line);
    if (gutter === null || Number(gutter[1]) !== from + at) return lines;
    bare.push(line.slice(gutter[0].length));
  }
  return bare;
}

/** A text's last line, its gutter aside if it has one: two texts whose last lines differ are not read in full. */
function lastLine(text: string): string {
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  const line = text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
  const gutter = GUTTER.exec(line);
  return gutter === null ? line : line.slice(gutter[0].length);
}

/**
 * Whether two answers are one file's text once each one's gutter is aside:
 * the same lines, at least one of them not blank. Texts past answer.ts's read
 * limit are not read.
 */
export function sameTextBesideGutters(a: string, b: string): boolean {
  if (a.length > ANSWER_READ_LIMIT || b.length > ANSWER_READ_LIMIT || lastLine(a) !== lastLine(b)) return false;
  const left = linesOf(a);
  const right = linesOf(b);
  if (left.length !== right.length || left.every((line) => line.trim() === '')) return false;
  return left.every((line, at) => line === right[at]);
}

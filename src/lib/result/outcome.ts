/**
 * What a call returned, as the stale track compares outcomes: a short digest
 * that is the same for two results that tell the model the same thing. Equal
 * text, flag, exit code and timeout give equal digests; so do three kinds of
 * noise that carry no news:
 * - line endings and trailing blanks (`\r\n`, a space before the newline);
 * - the order of the lines (a command's stdout and stderr interleave
 *   differently from run to run: `0\nfind: …` and `find: …\n0`);
 * - the counter a long-lived shell puts in its own errors
 *   (`/bin/bash: line 32514: cd: x: No such file or directory`, one more each call);
 * - progress meters, spinners, rates, clocks and durations (result/noise.ts):
 *   the same download printing another meter is the same download.
 * Anything else that differs, a number included, makes the digest differ:
 * a poll whose answer changes is not stale. Linear in the result. A result
 * that throws while it is read (a hostile getter) is no evidence either way.
 */
import { member } from '../host/member.js';
import { quietLine } from './noise.js';
import { isDigitCode } from '../shell/tokenize.js';

/** Longest shell path before `: line N:` (`/usr/local/bin/bash`). */
const SHELL_PREFIX = 48;

/** `bash: line 12: …` → `bash: line #: …`; any other line as it is. */
export function maskShellLine(line: string): string {
  const at = line.indexOf(': line ');
  if (at < 2 || at > SHELL_PREFIX || line.charCodeAt(at - 1) !== 0x68 || line.charCodeAt(at - 2) !== 0x73) return line;
  // The shell's name or path: no spaces, no colon before `: line`.
  for (let i = 0; i < at; i += 1) {
    const code = line.charCodeAt(i);
    if (code === 0x20 || code === 0x09 || code === 0x3a) return line;
  }
  let end = at + ': line '.length;
  const digits = end;
  while (isDigitCode(line.charCodeAt(end))) end += 1;
  if (end === digits || line.charCodeAt(end) !== 0x3a) return line;
  return `${line.slice(0, digits)}#${line.slice(end)}`;
}

/** FNV-1a over a string's UTF-16 code units, from a given basis: two bases give two independent-enough hashes. */
function fnv(text: string, basis: number): number {
  let hash = basis;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The lines of a text, as a multiset: sums of per-line hashes, so their order does not count (and noise masked). */
export function linesDigest(text: string): string {
  let a = 0;
  let b = 0;
  let lines = 0;
  for (const raw of text.split('\n')) {
    const quiet = quietLine(raw);
    if (quiet === null) continue;
    const line = maskShellLine(quiet.trimEnd());
    a = (a + fnv(line, 0x811c9dc5)) >>> 0;
    b = (b + fnv(line, 0x01234567)) >>> 0;
    lines += 1;
  }
  return `${lines}.${a.toString(36)}.${b.toString(36)}`;
}

/** The exit status parts of a structured value (bash's), the rest of which repeats the text or echoes arguments. */
function statusOf(value: unknown): string {
  const exitCode = member(value, 'exitCode');
  const timedOut = member(value, 'timedOut');
  const signal = member(value, 'signal');
  return `${typeof exitCode === 'number' ? exitCode : '-'}/${timedOut === true ? 't' : '-'}/${typeof signal === 'string' ? JSON.stringify(signal.slice(0, 32)) : '-'}`;
}

/** The text a result shows the model, its blocks joined, CRLF as LF; `null` when it cannot be read. */
export function resultText(result: unknown): string | null {
  try {
    const content = member(result, 'content');
    const texts: string[] = [];
    if (Array.isArray(content)) {
      for (const block of content) {
        const text = member(block, 'text');
        if (typeof text === 'string') texts.push(text);
      }
    }
    return texts.join('\n').replace(/\r\n/g, '\n');
  } catch {
    return null;
  }
}

/** The digest of what a call returned; `null` for a result that cannot be read (no evidence either way). */
export function outcomeDigest(result: unknown): string | null {
  try {
    const flag = member(result, 'isError') === true ? 'E' : 'ok';
    const text = resultText(result);
    if (text === null) return null;
    return `${flag}|${statusOf(member(result, 'value'))}|${linesDigest(text)}`;
  } catch {
    return null;
  }
}

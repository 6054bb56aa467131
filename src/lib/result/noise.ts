/**
 * The noise in a result line: what changes from run to run while the answer
 * stays the same. A download that succeeds with the same bytes every time
 * still prints another progress meter (times, speeds, an ETA); a test run that
 * fails the same way still says it took another 0.53 s. Two results that differ
 * only in such parts tell the model nothing new, so the outcome digest
 * (result/digest.ts) reads each line through `quietLine`:
 *
 * - a terminal overwrites a line at each carriage return: only the last
 *   state of the line is what was shown (spinners, `\r` progress bars);
 * - the rows of curl's progress meter (sizes, percentages and `--:--:--`
 *   clocks) are dropped whole; its two header lines hold no number and read
 *   the same in every run, so they stay as any other line;
 * - a line that shows a rate (`3.4 MB/s`, `12.5it/s`) or an ETA is a progress
 *   line of which only its words are kept (`45%|████▌ | 450/1000 [00:05<00:06,
 *   88.1it/s]` reads `it s`, `Downloading torch (2.1 GB) 1.2 MB/s eta 0:10:00`
 *   reads `Downloading torch GB MB s eta`);
 * - on any other line, clocks (`00:12`, `12:03:44`), ISO timestamps and
 *   durations (`0.53s`, `120 ms`, `1m2.3s`) are masked;
 * - spinner glyphs (braille dots) are dropped;
 * - what a run names anew each time: memory addresses (`object at
 *   0x7f3a…`), UUIDs, temporary names (`/tmp/tmpk2j9x_1`, pytest's
 *   `pytest-12`).
 *
 * A stack frame's line number is news, not noise: `asyn.py, line 910` after an
 * edit that moved it to 911 may be the same error, but it may as well be the
 * model's fix taking effect one line further, and a good run's edit → rerun
 * must not read as a failing retry.
 *
 * Every other digit is news: a count that moves, a size that changes, an exit
 * status. Linear in the line.
 */

import { isDigitCode } from '../shell/tokenize.js';

/** A duration with its unit, as tools print how long something took. */
const DURATION = /\b(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds?|min|mins|minutes?)\b/g;
/** A wall clock or an elapsed clock: `12:03`, `12:03:44`, `0:00:05.12`; never a `file:12:34` position. */
const CLOCK = /(?<![\w:./-])\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?![\w:])/g;
/** An ISO date, as log lines stamp themselves. */
const DATE = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;
/** What marks a progress line: a rate (a digit, an optional unit prefix, `/s`: `88.1it/s` holds `1it/s`) or an ETA. */
const PROGRESS = /\d\s?(?:[kKMGT]i?)?(?:B|b|bytes|it|its)\/s\b|\beta\b|\bETA\b/;
/** A row of curl's meter: numbers ending in three clocks and a speed. */
const CURL_ROW = /^\s*\d{1,3}\s+[\d.]+[kMGT]?\s+\d{1,3}\s+[\d.]+[kMGT]?\s+\d{1,3}\s+[\d.]+[kMGT]?\s+[\d.]+[kMGT]?\s+[\d.]+[kMGT]?\s+[-\d:]{7,8}\s+[-\d:]{7,8}\s+[-\d:]{7,8}\s+[\d.]+[kMGT]?\s*$/;
/** What a run names anew each time. */
const ADDRESS = /\b0x[0-9a-fA-F]{6,}\b/g;
const UUID = /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g;
const TEMP = /\b(tmp|pytest-)[A-Za-z0-9_]{1,16}\b/g;
/** Braille spinner glyphs (U+2800–U+28FF). */
const SPINNER = /[\u2800-\u28ff]/g;
/** Everything but letters: the numbers, bars and brackets of a progress line. */
const NOT_WORDS = /[^A-Za-z]+/g;

/** Longest shell path before `: line N:` (`/usr/local/bin/bash`). */
const SHELL_PREFIX = 48;

/**
 * The counter a long-lived shell puts in its own errors, masked:
 * `bash: line 12: …` → `bash: line #: …` (one more each call); any other line as it is.
 */
export function maskShellLine(line: string): string {
  const at = line.indexOf(': line ');
  // No `: line`, or one too near the start for a name, fails the name's test: a character before the line reads NaN.
  if (at > SHELL_PREFIX || line.charCodeAt(at - 1) !== 0x68 || line.charCodeAt(at - 2) !== 0x73) return line;
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

/** Longest line read for noise: a longer one is data, not a meter. */
export const NOISE_LINE_LIMIT = 4096;

/** The line as a terminal last showed it: what follows the last carriage return. */
function lastState(line: string): string {
  const at = line.lastIndexOf('\r');
  if (at === -1) return line;
  const shown = line.slice(at + 1);
  // A trailing `\r` (a line ended CRLF-style) shows what came before it.
  return shown === '' ? lastState(line.slice(0, at)) : shown;
}

/** What noise is made of: a digit or a spinner glyph. */
const NOISY = /[\d\u2800-\u28ff]/;
/** A spinner glyph: a line of one-byte characters (most) cannot hold one, and the search sees so before it starts. */
const SPINNING = /[\u2800-\u28ff]/;

/**
 * `text.replace(pattern, by)`, searched for only when `holds`: when the line
 * holds the needle every match of `pattern` holds. Most lines hold none, and a
 * search that cannot match costs more than a look for one character.
 */
function masked(text: string, pattern: RegExp, by: string, holds: boolean): string {
  // Stryker disable next-line ConditionalExpression: a shortcut: searching a text without the needle replaces nothing
  return holds ? text.replace(pattern, by) : text;
}

/** A result line with its noise masked; `null` for a line that is noise whole (a row of curl's meter). */
export function quietLine(raw: string): string | null {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut: a line without a carriage return shows as it is
  const line = raw.includes('\r') ? lastState(raw) : raw;
  if (line.length > NOISE_LINE_LIMIT || !NOISY.test(line)) return line;
  if (CURL_ROW.test(line)) return null;
  // Stryker disable next-line ConditionalExpression: a shortcut: a line without a spinner glyph has none to drop
  const bare = SPINNING.test(line) ? line.replace(SPINNER, '') : line;
  // Each needle is looked for once, in the line before any mask: a mask leaves `#` or what it matched, and no needle holds a `#`, so no mask adds a needle.
  // A progress line is noise but for the words that say what is in progress (`Downloading torch`): a rate or an ETA says so,
  // and no line with a rate gets past here, so no mask below looks for one.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: a shortcut: every progress mark holds `/s` or `eta` (`ETA`)
  if ((bare.includes('/s') || bare.includes('eta') || bare.includes('ETA')) && PROGRESS.test(bare)) return bare.replace(NOT_WORDS, ' ').trim();
  // Stryker disable next-line StringLiteral: a shortcut, as above
  const dashed = bare.includes('-');
  // Stryker disable next-line StringLiteral,ConditionalExpression: shortcuts, as above
  const named = masked(masked(masked(bare, ADDRESS, '0x#', bare.includes('0x')), UUID, '#', dashed), TEMP, '$1#', bare.includes('tmp') || bare.includes('pytest-'));
  // Stryker disable next-line StringLiteral: a shortcut, as above
  return masked(masked(named, DATE, '#', dashed), CLOCK, '#:#', bare.includes(':')).replace(DURATION, '#s');
}


/**
 * What a shell command does and where it writes: the verb (§2.10), the
 * command without volatile flags (§2.5) and the output path (§2.9).
 */

import { isDigitCode, tokenize } from './tokenize.js';

/** `NAME=value`: an environment assignment in front of the real command. */
export function isAssignment(token: string): boolean {
  const first = token.charCodeAt(0);
  if (!(isLetter(first) || first === 0x5f)) return false;
  // Stryker disable next-line EqualityOperator: charCodeAt(length) is NaN, neither `=` nor a name character, so one more turn returns false as leaving the loop does
  for (let i = 1; i < token.length; i += 1) {
    const code = token.charCodeAt(i);
    if (code === 0x3d) return true;
    if (!(isLetter(code) || isDigitCode(code) || code === 0x5f)) return false;
  }
  return false;
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** `timeout`'s duration: `30`, `2.5`, `30s`, `1m`, `2h`, `1d`. */
export function isDuration(token: string): boolean {
  let end = token.length;
  const last = token.charCodeAt(end - 1);
  // Unit letters s, m, h, d.
  if (last === 0x73 || last === 0x6d || last === 0x68 || last === 0x64) end -= 1;
  let i = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the character at end is a unit letter or past the text, never a digit, so the loop stops there either way
  while (i < end && isDigitCode(token.charCodeAt(i))) i += 1;
  if (i === 0) return false;
  if (i === end) return true;
  if (token.charCodeAt(i) !== 0x2e) return false;
  const fraction = i + 1;
  i = fraction;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the character at end is a unit letter or past the text, never a digit, so the loop stops there either way
  while (i < end && isDigitCode(token.charCodeAt(i))) i += 1;
  return i === end && i > fraction;
}

/**
 * Index past leading `NAME=value` words and `timeout [--opts] [duration]`
 * wrappers. `sudo` and friends stay: `cmd:` keeps them, only `firstVerb` skips them.
 */
function skipAssignmentsAndTimeout(tokens: readonly string[], from: number): number {
  let i = from;
  for (;;) {
    const token = tokens[i];
    if (token === undefined) return i;
    if (isAssignment(token)) {
      i += 1;
    } else if (token === 'timeout') {
      i += 1;
      while (tokens[i]?.startsWith('--') === true) i += 1;
      const duration = tokens[i];
      if (duration !== undefined && isDuration(duration)) i += 1;
    } else {
      return i;
    }
  }
}

// Wrappers that run another command; the verb is the command they run.
// The tables are exported for the tests' generators, which draw from them.
export const WRAPPERS: ReadonlySet<string> = new Set(['sudo', 'doas', 'command', 'env', 'time', 'nice', 'nohup', 'exec']);
// Wrapper options that take a value (`sudo -u root`, `nice -n 10`).
export const WRAPPER_VALUE_OPTIONS: ReadonlySet<string> = new Set(['-u', '-g', '-p', '-C', '-h', '-r', '-t', '-U', '-R', '-T', '-S', '-n', '-D']);

/** A command's words; callers that read one command several ways pass its words once. */
function wordsOf(command: string | readonly string[]): readonly string[] {
  if (typeof command === 'string') return tokenize(command);
  try {
    return Array.isArray(command) && command.every((word) => typeof word === 'string') ? command : [];
  } catch {
    return [];
  }
}

/** Index of the command word at or after `from`: past assignments, `timeout` and wrappers with their options. */
export function commandWordAt(tokens: readonly string[], from: number): number {
  let i = from;
  for (;;) {
    i = skipAssignmentsAndTimeout(tokens, i);
    const token = tokens[i];
    // Stryker disable next-line ConditionalExpression: WRAPPERS has no undefined entry, so the second test breaks as well
    if (token === undefined || !WRAPPERS.has(token)) return i;
    i += 1;
    // Pairs of value-option and value may step past the end, which means no verb.
    // Stryker disable next-line ConditionalExpression: WRAPPER_VALUE_OPTIONS has no undefined entry, so the second test stops the loop as well
    while (tokens[i] !== undefined && WRAPPER_VALUE_OPTIONS.has(tokens[i] as string)) i += 2;
    while (tokens[i]?.startsWith('-') === true) i += 1;
  }
}

/** A command word as a verb: lowercased and cut to its basename. */
function verbOf(word: string | undefined): string {
  if (word === undefined) return '';
  const cut = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  return word.slice(cut + 1).toLowerCase();
}

/**
 * The command word that does the work, lowercased and cut to its basename.
 * Edge cases: only the first command counts (`cd /w && curl x` gives `cd`);
 * `timeout -s KILL 30 curl` gives `-s` (short options are not skipped after
 * `timeout`); a command of assignments only gives `''`.
 */
export function firstVerb(command: string | readonly string[]): string {
  return wordsVerb(wordsOf(command));
}

/** `firstVerb` of words tokenize() split: a caller holding them skips the check that every word is a string. */
export function wordsVerb(words: readonly string[]): string {
  return verbOf(words[commandWordAt(words, 0)]);
}

// Flags whose value changes between retries of the same action; they eat the next word.
export const VOLATILE_VALUE_FLAGS: ReadonlySet<string> = new Set([
  '--max-time',
  '--connect-timeout',
  '--retry',
  '--retry-delay',
  '--retry-max-time',
  '--speed-time',
  '--speed-limit',
  '--max-redirs',
  '--user-agent',
  '-m',
  '-A',
]);
// Quietness and robustness switches: they do not change what is fetched.
export const VOLATILE_SWITCHES: ReadonlySet<string> = new Set([
  '--silent',
  '--show-error',
  '--fail',
  '--location',
  '--insecure',
  '--user-agent',
  '--compressed',
  '--no-progress-meter',
]);
// Short switches that may be clustered (`-sSLfk`).
export const VOLATILE_LETTERS: ReadonlySet<string> = new Set(['s', 'S', 'f', 'L', 'k']);

/** `-sSL`-style cluster made only of volatile letters. */
function isVolatileCluster(token: string): boolean {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a second `-` is not a volatile letter, so the loop below refuses the token anyway (the test only saves the loop)
  if (token.length < 2 || token[0] !== '-' || token[1] === '-') return false;
  for (let i = 1; i < token.length; i += 1) {
    if (!VOLATILE_LETTERS.has(token[i] as string)) return false;
  }
  return true;
}

/** Any other shape of a volatile flag: `--max-time=60`, `-m60`, `-A1`. */
function isVolatileGlued(token: string): boolean {
  if (token.startsWith('--')) {
    const eq = token.indexOf('=');
    // Stryker disable next-line EqualityOperator: a token that starts with `--` has its `=` at 2 or later, never at 0
    return eq > 0 && VOLATILE_VALUE_FLAGS.has(token.slice(0, eq));
  }
  return token[0] === '-' && (token[1] === 'm' || token[1] === 'A') && isDigitCode(token.charCodeAt(2));
}

/**
 * The commands that own the volatile flags (decision P9): every one of them is
 * curl's, and wget has `--user-agent` too. `-m` is curl's `--max-time`, but
 * python's module (`python -m pytest`) and git's message (`git commit -m …`).
 */
export const VOLATILE_OWNERS: ReadonlySet<string> = new Set(['curl', 'wget']);

/** Whether `owner`, one of `VOLATILE_OWNERS` (the caller asks only for those), owns `flag`: curl every one, wget the rest. */
function ownsFlag(owner: string, flag: string): boolean {
  return owner === 'curl' || flag === '--user-agent' || flag.startsWith('--user-agent=');
}

/**
 * Words that end one simple command (`|`, `||`, `&&`, `;`, `&`): the next word
 * starts another, with its own flags. Only standalone words: `a|b` is one
 * word, as the tokenizer leaves it.
 */
function isSegmentEnd(word: string): boolean {
  // Read by its characters, not looked up in a set: a lookup hashes the whole
  // word, and most words are new strings whose hash no one has computed yet.
  const first = word.charCodeAt(0);
  if (word.length === 1) return first === PIPE || first === SEMI || first === AMP;
  return word.length === 2 && (first === PIPE || first === AMP) && word.charCodeAt(1) === first;
}

const SPACE = 0x20;
const DASH = 0x2d;
const GREATER = 0x3e;
const LETTER_T = 0x74;
const PIPE = 0x7c;
const SEMI = 0x3b;
const AMP = 0x26;

/** A line's words as its simple commands, split at the words that end one (which belong to none). */
export function segmentsOf(words: readonly string[]): (readonly string[])[] {
  const segments: (readonly string[])[] = [];
  let start = 0;
  for (let at = 0; at <= words.length; at += 1) {
    if (at < words.length && !isSegmentEnd(words[at] as string)) continue;
    segments.push(words.slice(start, at));
    start = at + 1;
  }
  return segments;
}

/** A path's last segment (`/usr/bin/sed` → `sed`), as written: the readers below compare it case-sensitively. */
export function lastSegment(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/**
 * The command as `cmd:` sees it: leading assignments and `timeout` dropped,
 * timing/retry/verbosity flags dropped where the command they belong to is the
 * one running (P9: curl's anywhere in the line, wget's `--user-agent`; `ls -s
 * -L` and `python -m pytest` keep theirs), words joined by single spaces. Edge
 * cases: quotes are gone, URLs are left raw, `-sv` is kept (`v` is not
 * volatile), and a segment is only what standalone `|`, `||`, `&&`, `;`, `&`
 * separate (`a|curl -s x` is one word, as the tokenizer leaves it).
 */
export function stripVolatileFlags(command: string | readonly string[]): string {
  const tokens = wordsOf(command);
  return wordsStripped(tokens, wordsVerb(tokens));
}

/**
 * `stripVolatileFlags` of words tokenize() split, whose `wordsVerb` is `verb`
 * (the owner of the first command's flags). The words are copied out only from
 * the first one dropped: most lines drop none, and are their words joined.
 * `spelled`: the command they were split from, which is that join when it is
 * written with single spaces and no quotes (half the commands are).
 */
export function wordsStripped(tokens: readonly string[], verb: string, spelled?: string): string {
  const start = skipAssignmentsAndTimeout(tokens, 0);
  let kept: string[] | null = null;
  let owner = verb;
  // Whether the current simple command's verb owns volatile flags: asked once a command, not once a word.
  let owns = VOLATILE_OWNERS.has(owner);
  for (let i = start; i < tokens.length; i += 1) {
    const token = tokens[i] as string;
    if (isSegmentEnd(token)) {
      kept?.push(token);
      owner = verbOf(tokens[commandWordAt(tokens, i + 1)]);
      owns = VOLATILE_OWNERS.has(owner);
      continue;
    }
    if (!owns || !ownsFlag(owner, token)) {
      kept?.push(token);
      continue;
    }
    const value = VOLATILE_VALUE_FLAGS.has(token);
    if (value || VOLATILE_SWITCHES.has(token) || isVolatileCluster(token) || isVolatileGlued(token)) {
      kept ??= tokens.slice(start, i);
      // A value flag takes its value with it.
      if (value) i += 1;
      continue;
    }
    kept?.push(token);
  }
  if (kept !== null) return kept.join(' ').trim();
  // Stryker disable next-line ConditionalExpression: a shortcut: the join below gives the same text
  if (start === 0 && spelled !== undefined && isSpelledAlike(tokens, spelled)) return spelled;
  // Stryker disable next-line ConditionalExpression: slicing from 0 copies the same words
  return (start === 0 ? tokens : tokens.slice(start)).join(' ').trim();
}

/**
 * Whether `command` is its words one space apart, as written: then it is their
 * join, and nothing to trim. The words keep a character of the command each,
 * in order, and at least one character parts two of them; so when the lengths
 * add up to the command's, nothing else was dropped (no quote, escape or
 * other space), and what parts them is one character, which must be a space.
 */
// Stryker disable next-line BlockStatement: a shortcut for wordsStripped: a no where it could say yes only sends the words to be joined, which gives the same text (a yes where a quote or another blank went fails the tests)
function isSpelledAlike(words: readonly string[], command: string): boolean {
  let at = -1;
  // Stryker disable next-line BlockStatement: as above, a no for every command of two words or more
  for (const word of words) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: as above, each a no more often (the check of the first word reads NaN, no space); the yes for a tab is tested
    if (at >= 0 && command.charCodeAt(at) !== SPACE) return false;
    // Stryker disable next-line AssignmentOperator,ArithmeticOperator: as above, a count that can no longer reach the command's length
    at += word.length + 1;
  }
  // Stryker disable next-line ConditionalExpression: as above, the no; the yes is tested
  return at === command.length;
}

// Operators that cannot be a redirection target and that end a `tee` file list.
export const SHELL_OPERATORS: ReadonlySet<string> = new Set(['|', '||', ';', '&&', '&', '>', '>>', '<']);
const QUOTES = new Set(['"', "'"]);

/** The path trimmed, one quote off each end, leading `./` gone; `null` when empty. */
function cleanPath(value: string): string | null {
  const text = value.trim();
  // Stryker disable next-line StringLiteral: text[0] is undefined only for an empty text, and QUOTES holds neither '' nor any other fallback string
  let start = QUOTES.has(text[0] ?? '') ? 1 : 0;
  let end = text.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: when end <= start the text is empty or one quote, and cutting that quote changes nothing returned
  if (end > start && QUOTES.has(text[end - 1] ?? '')) end -= 1;
  // Advance over every `./` before slicing once: repeated slicing would be quadratic.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: `./` at start needs two characters before end, as a closing quote is never `/`; the bound only stops the loop early
  while (end - start >= 2 && text.startsWith('./', start)) start += 2;
  return end > start ? text.slice(start, end) : null;
}

/** The first `>` / `>>` is part of the operator; a third one belongs to the path. */
function redirectTarget(token: string): string {
  return token.slice(token.startsWith('>>') ? 2 : 1);
}

/** Whether a word is an `http(s)://` URL, so `-O <url>` is curl's flag, not wget's file. */
function isUrlWord(token: string): boolean {
  return /^https?:\/\//i.test(token);
}

/**
 * Where the command writes its output: `-o`/`--output`/`--output-document`,
 * wget's `-O file`, `--output=`, a `>`/`>>` redirection, or the last file of
 * `tee`; the first match wins. Edge cases: `2>` and `&>` are not redirections
 * here, `-o -` gives nothing, `;` is not split (`> x;` gives `x;`), a target
 * that cleans to nothing gives `null`.
 */
export function extractSink(command: string | readonly string[]): string | null {
  return wordsSink(wordsOf(command));
}

/** `extractSink` of words tokenize() split. */
export function wordsSink(tokens: readonly string[]): string | null {
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as string;
    // Every word read below starts with `-`, `>` or `t`: the others, most words, are passed by on one character.
    const first = token.charCodeAt(0);
    // Stryker disable next-line ConditionalExpression: a shortcut: every test below fails for such a word
    if (first !== DASH && first !== GREATER && first !== LETTER_T) continue;
    const next = tokens[i + 1];
    if (token === '-o' || token === '--output' || token === '--output-document') {
      if (next !== undefined && !next.startsWith('-')) return cleanPath(next);
      continue;
    }
    if (token === '-O') {
      if (next !== undefined && !next.startsWith('-') && !isUrlWord(next)) return cleanPath(next);
      continue;
    }
    if (token.startsWith('--output=')) return cleanPath(token.slice('--output='.length));
    if (token.startsWith('>')) {
      const inline = redirectTarget(token);
      if (inline.length > 0) return cleanPath(inline);
      if (next !== undefined && !SHELL_OPERATORS.has(next)) return cleanPath(next);
      continue;
    }
    if (token === 'tee') {
      // The scan stops at an operator; the words it passes start with `-`, so the total stays linear.
      let last: string | null = null;
      for (let j = i + 1; j < tokens.length; j += 1) {
        const word = tokens[j] as string;
        if (SHELL_OPERATORS.has(word)) break;
        if (!word.startsWith('-')) last = word;
      }
      if (last !== null) return cleanPath(last);
    }
  }
  return null;
}

// Destinations that name no resource: writing there identifies nothing.
export const GENERIC_SINKS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/zero', '/dev/tty', '-']);

/**
 * Whether a sink says nothing about the action (`/dev/null`, `-`, …). Edge
 * case: a non-string or `''` is generic too, so it never becomes `sink:`.
 */
export function isGenericSink(sink: unknown): boolean {
  return typeof sink !== 'string' || sink.length === 0 || GENERIC_SINKS.has(sink);
}

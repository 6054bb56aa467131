/**
 * The programs a shell line runs, each as its name and first operand
 * (`fasttext supervised`, `python evaluate.py`, `pytest tests/test_axes.py`):
 * what stays the same when a model re-runs a long job with new flags. The
 * timeout track counts time-outs per program, because a job that ran out of
 * time will run out of time again however its hyperparameters are respelled.
 *
 * Commands that cannot run long by themselves (`cd`, `echo`, `cat`, `head`,
 * `rm`, …) are left out: they are never the part of a line that hangs. A
 * here-document's body is data, not commands, so only the line it starts on is read.
 *
 * Inline code is keyed by its program and flag (`python3 -c`, `node -e`,
 * `bash -c`): the code is what a model rewrites each time, not a new program.
 * `python3 - <<EOF` is `python3 -` for the same reason.
 */
import { commandWordAt, lastSegment, segmentsOf } from './command.js';
import { tokenize } from './tokenize.js';

/** Commands that finish at once on their own: never the program that ran out of time. */
const QUICK: ReadonlySet<string> = new Set([
  'cd', 'echo', 'printf', 'export', 'set', 'unset', 'source', '.', 'pwd', 'true', 'false', ':', 'test', '[',
  'cat', 'head', 'tail', 'ls', 'mkdir', 'rm', 'cp', 'mv', 'touch', 'wc', 'sort', 'uniq', 'tee', 'chmod', 'which', 'sleep',
]);

/** Most programs read from one line: a line of hundreds of commands is no long job respelled. */
const PROGRAMS_LIMIT = 8;

/** Flags after which the next word is a program's code, not its operand. */
const INLINE: ReadonlySet<string> = new Set(['-c', '-e', '-E', '--eval', '-r']);

/** A word of a simple command that can be its first operand: not an option or a redirection, though `-` (standard input) is. */
function isOperand(word: string): boolean {
  return word === '-' || !(word.startsWith('-') || word.startsWith('<') || word.startsWith('>'));
}

/** The program of one simple command, or `undefined` for a quick one. */
function programOf(words: readonly string[]): string | undefined {
  const at = commandWordAt(words, 0);
  const word = words[at];
  if (word === undefined) return undefined;
  const name = lastSegment(word);
  if (name === '' || QUICK.has(name)) return undefined;
  const flag = words[at + 1];
  if (flag !== undefined && INLINE.has(flag)) return `${name} ${flag}`;
  for (let next = at + 1; next < words.length; next += 1) {
    const operand = words[next] as string;
    if (isOperand(operand)) return `${name} ${lastSegment(operand)}`;
  }
  return name;
}

/** Only the head of a huge line is read. */
export const PROGRAMS_READ_LIMIT = 4096;

/** The text of a shell line its programs are read from: a here-document's body is data, so only the line that starts it. */
export function programText(command: string): string {
  const text = command.includes('<<') ? command.slice(0, command.indexOf('\n') >>> 0) : command;
  return text.length > PROGRAMS_READ_LIMIT ? text.slice(0, PROGRAMS_READ_LIMIT) : text;
}

/** The programs of a shell line, in order, each once. */
export function programsOf(command: string): string[] {
  return wordsPrograms(tokenize(programText(command)));
}

/** What `pick` reads of each simple command of the words, in order, each once, at most `PROGRAMS_LIMIT`. */
function eachOnce(words: readonly string[], pick: (segment: readonly string[]) => string | undefined): string[] {
  const found: string[] = [];
  for (const segment of segmentsOf(words)) {
    if (found.length >= PROGRAMS_LIMIT) break;
    const item = pick(segment);
    if (item !== undefined && item !== '' && !found.includes(item)) found.push(item);
  }
  return found;
}

/** The programs of the words of a line's `programText`, in order, each once. */
export function wordsPrograms(words: readonly string[]): string[] {
  return eachOnce(words, programOf);
}

/**
 * The command names a shell line runs, quick ones included (`cd`, `ls`, `make`):
 * what tells one call from another when every call hangs, whatever it runs.
 */
export function commandNamesOf(command: string): string[] {
  return wordsCommandNames(tokenize(programText(command)));
}

/** The command names of the words of a line's `programText`, in order, each once. */
export function wordsCommandNames(words: readonly string[]): string[] {
  return eachOnce(words, commandNameOf);
}

/** The command name of one simple command, quick or not. */
function commandNameOf(words: readonly string[]): string | undefined {
  const word = words[commandWordAt(words, 0)];
  return word === undefined ? undefined : lastSegment(word);
}

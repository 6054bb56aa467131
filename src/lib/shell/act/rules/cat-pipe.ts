/**
 * `cat f | head -50` is `head -50 f`: cat of one file hands the next command
 * exactly the lines it would read from that file. Only for one plain file, and
 * only into commands that read their input the same way from a file operand
 * as from a pipe: head, tail, wc and grep, each without the options that make
 * it read a file otherwise than its input.
 */
import { optionName, readArgs } from '../args.js';
import { specOf } from '../commands.js';
import type { Rule } from '../rule.js';
import { mapPipelines, nameOf, withWords, type Command, type Redirect, type Word } from '../syntax.js';

/** The commands that read their input as they read a file operand (a name that expands is none of them). */
const READERS = new Set<string | null>(['head', 'tail', 'wc', 'grep']);

/**
 * The options that make a reader read a file otherwise than its input, by
 * name whatever their value: with no file, `grep -r` (or `-d recurse`)
 * searches the working directory; `--exclude=*.log` may skip the file but
 * never the input; `tail -f` follows a file on and on but ends with its pipe;
 * `wc --files0-from=list` takes no file operand.
 */
const READS_OTHERWISE = new Set([
  'grep -r',
  'grep -R',
  'grep -d',
  'grep --directories',
  'grep --include',
  'grep --exclude',
  'grep --exclude-from',
  'tail -f',
  'tail -F',
  'tail --follow',
  'wc --files0-from',
]);

/** The one file `cat` reads, when that is all it does. */
function catFile(command: Command): Word | null {
  const [, file, extra] = command.words;
  if (nameOf(command) !== 'cat' || file === undefined || extra !== undefined || command.assigns.length > 0 || command.redirects.length > 0) return null;
  return file.value !== null && file.value !== '' && !file.value.startsWith('-') ? file : null;
}

/** A redirection that gives the command another standard input than the pipe (`<f`, `<&3`, `0>&-`). */
const setsInput = (r: Redirect): boolean => (r.fd === '' ? r.op === '<' || r.op === '<&' : r.fd === '0');

/** The reader with `file` as its operand, or `null` when it already reads files or would read something else. */
function withFile(reader: Command, file: Word): Command | null {
  const name = nameOf(reader);
  if (!READERS.has(name) || reader.redirects.some(setsInput)) return null;
  const words = [...reader.words, file];
  const spec = specOf(name);
  // Stryker disable next-line ConditionalExpression: every reader has an option table; the check keeps one added without a table from throwing
  if (spec === undefined) return null;
  const args = readArgs(spec, words.slice(1));
  // The file must be the reader's first and only file: not its pattern (`grep` alone) nor a second file.
  if (args === null || args.operands.find((operand) => operand.path)?.at !== words.length - 2) return null;
  // Each option by its name: a switch letter as `-r`, `--exclude=*.log` as `--exclude`.
  const options = [...[...args.switches].map((letter) => `-${letter}`), ...args.options.map(optionName)];
  if (options.some((option) => READS_OTHERWISE.has(`${name} ${option}`))) return null;
  return withWords(reader, words);
}

function feed(pipeline: readonly Command[]): readonly Command[] {
  const second = pipeline[1];
  if (second === undefined) return pipeline;
  // With a second command there is a first.
  const file = catFile(pipeline[0] as Command);
  const reader = file === null ? null : withFile(second, file);
  return reader === null ? pipeline : [reader, ...pipeline.slice(2)];
}

// The one command the rule takes out of a pipeline.
const CAT: ReadonlySet<string> = new Set(['cat']);

export const catPipe: Rule = {
  name: 'cat-pipe',
  reason: 'cat of one file piped into head, tail, wc or grep hands it the lines it would read from the file.',
  apply: (line) => mapPipelines(line, feed),
  names: CAT,
  folds: [
    ['head -50 src/app.py', 'cat src/app.py | head -50', 'cat ./src/app.py | head -n 50'],
    ['grep -n error app.log', 'cat app.log | grep -n error'],
    ['wc -l data.csv', 'cat data.csv | wc -l'],
    // A redirection that leaves the input to the pipe.
    ['head -5 app.log >top.txt', 'cat app.log | head -5 >top.txt'],
  ],
  keeps: [
    ['cat a.txt b.txt | head -5', 'head -5 a.txt b.txt'],
    ['cat app.log | grep -r error', 'grep -r error app.log'],
    ['cat -n app.log | head', 'head app.log'],
    ['cat app.log | head -5', 'cat app.log | tail -5'],
    ['cat app.log | grep error other.log', 'grep error other.log app.log'],
    ['cat app.log | tail -f', 'tail -f app.log'],
    // Every other option that reads a file otherwise than the input, each a claim an example holds.
    ['cat app.log | grep -R error', 'grep -R error app.log'],
    ['cat app.log | grep -d recurse error', 'grep -d recurse error app.log'],
    ['cat app.log | grep --directories=recurse error', 'grep --directories=recurse error app.log'],
    ['cat app.log | grep --include=app.log error', 'grep --include=app.log error app.log'],
    ['cat app.log | grep --exclude=app.log error', 'grep --exclude=app.log error app.log'],
    ['cat app.log | grep --exclude-from=skip.txt error', 'grep --exclude-from=skip.txt error app.log'],
    ['cat app.log | tail -F', 'tail -F app.log'],
    ['cat app.log | tail --follow=name', 'tail --follow=name app.log'],
    ['cat list.txt | wc --files0-from=-', 'wc --files0-from=- list.txt'],
    // The reader's input given otherwise than by the pipe.
    ['cat app.log | head -5 <other.log', 'head -5 app.log <other.log'],
    ['cat app.log | head -5 <&3', 'head -5 app.log <&3'],
    ['cat app.log | head -5 0>&-', 'head -5 app.log 0>&-'],
    // cat with more to it than one file.
    ['LC_ALL=C cat app.log | head -5', 'LC_ALL=C head -5 app.log'],
    ['cat app.log <input.txt | head -5', 'head -5 app.log'],
    ['cat "" | head -5', 'head -5 ""'],
    ['cat | head -5', 'head -5'],
  ],
};

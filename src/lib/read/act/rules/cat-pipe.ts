/**
 * `cat f | head -50` is `head -50 f`: cat of one file hands the next command
 * exactly the lines it would read from that file. Only for one plain file, and
 * only into commands that read their input the same way from a file operand
 * as from a pipe: head, tail, wc, and grep when it is not recursive (a
 * recursive grep with no file searches the directory, not its input).
 */
import { readArgs } from '../args.js';
import { specOf } from '../commands.js';
import type { Rule } from '../rule.js';
import { mapPipelines, nameOf, type Command, type Word } from '../syntax.js';

const READERS = new Set(['head', 'tail', 'wc', 'grep']);

/** The one file `cat` reads, when that is all it does. */
function catFile(command: Command): Word | null {
  const file = command.words[1];
  if (nameOf(command) !== 'cat' || command.words.length !== 2 || command.assigns.length > 0 || command.redirects.length > 0) return null;
  return file !== undefined && file.value !== null && file.value !== '' && !file.value.startsWith('-') ? file : null;
}

/** The reader with `file` as its operand, or `null` when it already reads files or would read something else. */
function withFile(reader: Command, file: Word): Command | null {
  const name = nameOf(reader);
  const spec = specOf(name);
  if (name === null || !READERS.has(name) || spec === undefined || reader.redirects.some((r) => r.op === '<' || r.op === '<&')) return null;
  const args = readArgs(spec, reader.words.slice(1));
  if (args === null || args.operands.some((operand) => operand.path) || /[rR]/.test(args.switches)) return null;
  return { ...reader, words: [...reader.words, file] };
}

function feed(pipeline: readonly Command[]): readonly Command[] {
  const [first, second] = pipeline;
  if (first === undefined || second === undefined) return pipeline;
  const file = catFile(first);
  const reader = file === null ? null : withFile(second, file);
  return reader === null ? pipeline : [reader, ...pipeline.slice(2)];
}

export const catPipe: Rule = {
  name: 'cat-pipe',
  reason: 'cat of one file piped into head, tail, wc or grep hands it the lines it would read from the file.',
  apply: (line) => mapPipelines(line, feed),
  folds: [
    ['head -50 src/app.py', 'cat src/app.py | head -50', 'cat ./src/app.py | head -n 50'],
    ['grep -n error app.log', 'cat app.log | grep -n error'],
    ['wc -l data.csv', 'cat data.csv | wc -l'],
  ],
  keeps: [
    ['cat a.txt b.txt | head -5', 'head -5 a.txt b.txt'],
    ['cat app.log | grep -r error', 'grep -r error app.log'],
    ['cat -n app.log | head', 'head app.log'],
    ['cat app.log | head -5', 'cat app.log | tail -5'],
    ['cat app.log | grep error other.log', 'grep error other.log app.log'],
  ],
};

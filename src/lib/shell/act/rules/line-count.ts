/**
 * Line counts: `head -50 f`, `head --lines=50 f`, `head --lines 50 f` and
 * `head -n 50 f` read the same lines. Written as `-n N`. The count and the end
 * (`head` or `tail`) always count, and so does `+N` (from line N on).
 *
 * GNU reads `-N` as a count only in its old place: head's first argument
 * (`head -q -5 f` is an error), and tail's only when at most one file follows
 * (`tail -5 a b` and `tail -5 -f f` are errors). Elsewhere it is left as written.
 */
import type { Rule } from '../rule.js';
import { mapCommands, nameOf, sameWords, withWords, word, type Command, type Word } from '../syntax.js';

// Flags of head and tail whose value is the next word: a value is never an option (`head -c --lines=5`).
const VALUED: ReadonlySet<string | null> = new Set(['-n', '-c', '-s', '--bytes', '--sleep-interval', '--pid']);

/** What tail takes after an old-style count: nothing, one file that is not an option, or `--` and at most one file. */
function fitsTailCount(rest: readonly Word[]): boolean {
  const [first, ...others] = rest;
  if (first === undefined) return true;
  if (first.value === '--') return others.length <= 1;
  return others.length === 0 && first.value !== null && (first.value === '-' || !first.value.startsWith('-'));
}

/** N of a first argument `-N`, where GNU reads it as the line count. */
function leadingCount(name: string, words: readonly Word[]): string | undefined {
  const count = words[1]?.value?.match(/^-(\d+)$/)?.[1];
  return name === 'head' || fitsTailCount(words.slice(2)) ? count : undefined;
}

function countForm(command: Command): Command {
  const name = nameOf(command);
  if (name !== 'head' && name !== 'tail') return command;
  const leading = leadingCount(name, command.words);
  const words: Word[] = [command.words[0] as Word];
  if (leading !== undefined) words.push(word('-n'), word(leading));
  for (let at = leading === undefined ? 1 : 2; at < command.words.length; at += 1) {
    const w = command.words[at] as Word;
    if (w.value === '--') {
      // Operands from here on: `head -5 -- --lines=5` reads a file of that name.
      for (let rest = at; rest < command.words.length; rest += 1) words.push(command.words[rest] as Word);
      break;
    }
    const next = command.words[at + 1];
    if (VALUED.has(w.value) && next !== undefined) {
      words.push(w, next);
      at += 1;
      continue;
    }
    const count = w.value?.match(/^--lines=(.+)$/)?.[1];
    if (count !== undefined) {
      words.push(word('-n'), word(count));
    } else if (w.value === '--lines' && next !== undefined) {
      words.push(word('-n'), next);
      at += 1;
    } else {
      words.push(w);
    }
  }
  // Already in that form (`head -n 20`, most of them): the command itself.
  return sameWords(words, command.words) ? command : withWords(command, words);
}

const COUNTED: ReadonlySet<string> = new Set(['head', 'tail']);

export const lineCount: Rule = {
  name: 'line-count',
  reason: 'head -50, head --lines=50 and head -n 50 read the same lines.',
  apply: (line) => mapCommands(line, countForm),
  // Only the count is written again.
  // Stryker disable next-line BooleanLiteral: a shortcut: without it the engine reads the new line's outline, the same one
  keepsOutline: true,
  names: COUNTED,
  folds: [
    ['head -50 src/app.py', 'head -n 50 src/app.py', 'head --lines=50 src/app.py', 'head --lines 50 src/app.py'],
    ['tail -20 build.log', 'tail -n 20 build.log'],
    // tail's old-style count before standard input, `-`, or `--` and one file.
    ['tail -5', 'tail -n 5'],
    ['tail -5 -', 'tail -n 5 -'],
    ['tail -5 -- app.log', 'tail -n 5 -- app.log'],
  ],
  keeps: [
    ['head -n 50 app.py', 'tail -n 50 app.py'],
    ['tail -n 50 app.py', 'tail -n +50 app.py'],
    ['head -50 app.py', 'head -100 app.py'],
    ['head -c 50 app.py', 'head -n 50 app.py'],
    ['head -- -5', 'head -n 5'],
    ['head -n -5 app.py', 'head -n 5 app.py'],
    ['tail -c -5 app.py', 'tail -n 5 app.py'],
    ['tail -5 a.log b.log', 'tail -n 5 a.log b.log'],
    ['tail -5 -f app.log', 'tail -n 5 -f app.log'],
    ['tail -5 -- a.log b.log', 'tail -n 5 -- a.log b.log'],
    // A flag's value is never a count, whatever it looks like.
    ['head -c --lines=5 app.py', 'head -c -n 5 app.py'],
    ['tail -s --lines=5 app.log', 'tail -s -n 5 app.log'],
    ['tail --bytes --lines=5 app.log', 'tail --bytes -n 5 app.log'],
    ['tail --sleep-interval --lines=5 app.log', 'tail --sleep-interval -n 5 app.log'],
    ['tail --pid --lines=5 app.log', 'tail --pid -n 5 app.log'],
  ],
};

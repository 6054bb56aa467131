/**
 * Line counts: `head -50 f`, `head -n50 f`, `head --lines=50 f` and
 * `head -n 50 f` read the same lines. Written as `-n N`. The count and the end
 * (`head` or `tail`) always count, and so does `+N` (from line N on).
 */
import type { Rule } from '../rule.js';
import { mapCommands, nameOf, word, type Command, type Word } from '../syntax.js';

// Flags of head and tail whose value is the next word.
const VALUED = new Set(['-n', '-c', '-s', '--bytes', '--sleep-interval', '--pid']);

function countForm(command: Command): Command {
  const name = nameOf(command);
  if (name !== 'head' && name !== 'tail') return command;
  const words: Word[] = [];
  let changed = false;
  for (let at = 0; at < command.words.length; at += 1) {
    const w = command.words[at] as Word;
    const v = at === 0 ? null : w.value;
    if (v === '--') {
      // Operands from here on: `head -- -5` reads a file named -5.
      for (let rest = at; rest < command.words.length; rest += 1) words.push(command.words[rest] as Word);
      break;
    }
    const next = command.words[at + 1];
    if (v !== null && VALUED.has(v) && next !== undefined) {
      // A value is not a count spelling: `head -n -5` is all but the last five lines.
      words.push(w, next);
      at += 1;
      continue;
    }
    const count = v === null ? null : /^-(\d+)$/.exec(v)?.[1] ?? /^--lines=(.+)$/.exec(v)?.[1] ?? null;
    if (count !== null) {
      words.push(word('-n'), word(count));
      changed = true;
    } else if (v === '--lines' && next !== undefined) {
      words.push(word('-n'), next);
      at += 1;
      changed = true;
    } else {
      words.push(w);
    }
  }
  return changed ? { ...command, words } : command;
}

export const lineCount: Rule = {
  name: 'line-count',
  reason: 'head -50, head --lines=50 and head -n 50 read the same lines.',
  apply: (line) => mapCommands(line, countForm),
  folds: [
    ['head -50 src/app.py', 'head -n 50 src/app.py', 'head --lines=50 src/app.py', 'head --lines 50 src/app.py'],
    ['tail -20 build.log', 'tail -n 20 build.log'],
  ],
  keeps: [
    ['head -n 50 app.py', 'tail -n 50 app.py'],
    ['tail -n 50 app.py', 'tail -n +50 app.py'],
    ['head -50 app.py', 'head -100 app.py'],
    ['head -c 50 app.py', 'head -n 50 app.py'],
    ['head -- -5', 'head -n 5'],
    ['head -n -5 app.py', 'head -n 5 app.py'],
    ['tail -c -5 app.py', 'tail -n 5 app.py'],
  ],
};

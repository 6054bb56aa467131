/**
 * The shell's no-op: `:` (and `true`) ignore their arguments and exit 0, so
 * `: ls -la /app`, `: "test the polyglot"` and `:` are one action that does
 * nothing. A model whose tool calls arrive mangled as `: …` runs that one
 * action again and again under new spellings. Only arguments that expand to
 * nothing the shell runs are dropped: a substitution (`: $(rm x)`, which the reader leaves as written anyway) or a
 * parameter expansion with a side effect (`: ${X:=1}`) runs, so such a word
 * (and any redirection, `: > log` truncates a file) keeps the command as written.
 */
import type { Rule } from '../rule.js';
import { mapCommands, nameOf, type Command } from '../syntax.js';

const NO_OPS: ReadonlySet<string | null> = new Set([':', 'true']);

function dropArguments(command: Command): Command {
  if (command.words.length < 2 || command.redirects.length > 0 || command.assigns.length > 0 || !NO_OPS.has(nameOf(command))) return command;
  // A word the shell would expand is kept as written (value null): it may run something.
  if (command.words.some((w) => w.value === null)) return command;
  return { ...command, words: command.words.slice(0, 1) };
}

export const noOp: Rule = {
  name: 'no-op',
  reason: '`:` and `true` ignore their arguments, so literal arguments change nothing that runs.',
  apply: (line) => mapCommands(line, dropArguments),
  folds: [
    [':', ': ls -la /app', ': "ls -la"', ": 'test the polyglot'", ': test a few Fibonacci numbers'],
    ['true', 'true ok', 'true "done"'],
  ],
  keeps: [
    [': $HOME', ':'],
    [': ${X:=1}', ':'],
    [': > log.txt', ':'],
    [':ls', ':'],
    [': ls', 'true'],
    ['ls -la /app', ': ls -la /app'],
  ],
};

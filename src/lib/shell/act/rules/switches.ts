/**
 * Switches: for a command whose flags are known to be order-free
 * (commands.ts), `ls -la`, `ls -al`, `ls -l -a` and `ls --all -l` are one
 * call. Written canonically: the switches as one sorted cluster (repeats kept:
 * `-vv` is not `-v`), long switches sorted, options with their values in the
 * order given (`-A 3`, `--tb=short`), then the operands in order.
 */
import { sortedSwitches, writeArgs, writesBack } from '../args.js';
import { argsOf, COMMAND_NAMES } from '../commands.js';
import type { Rule } from '../rule.js';
import { mapCommands, withWords, type Command, type Word } from '../syntax.js';

function canonicalFlags(command: Command): Command {
  const args = argsOf(command);
  if (args === null) return command;
  // Operands alone, in order (`cat a b`): written back, they are the words as they stand.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,UnaryOperator: a shortcut: writing such a command back gives the same words
  if (args.switches === '' && args.longs.length === 0 && args.options.length === 0 && args.dashdash === -1) return command;
  // Stryker disable next-line ConditionalExpression: a shortcut: fewer than two long switches are in order
  const kept = { switches: sortedSwitches(args.switches), longs: args.longs.length < 2 ? args.longs : [...args.longs].sort(), options: args.options };
  // Already canonical (the common case): the command itself.
  return writesBack(command.words, args, kept) ? command : withWords(command, writeArgs(command.words[0] as Word, command.words.slice(1), args, kept));
}

export const switches: Rule = {
  name: 'switches',
  reason: 'Boolean short flags of getopt and argparse commands may be bundled and come in any order.',
  apply: (line) => mapCommands(line, canonicalFlags),
  // Only the words after the name are written again.
  // Stryker disable next-line BooleanLiteral: a shortcut: without it the engine reads the new line's outline, the same one
  keepsOutline: true,
  names: COMMAND_NAMES,
  folds: [
    ['ls -la /tmp', 'ls -al /tmp', 'ls -l -a /tmp', 'ls -a -l /tmp', 'ls --all -l /tmp'],
    ['grep -rn TODO src', 'grep -nr TODO src', 'grep -r -n TODO src', 'grep --recursive --line-number TODO src'],
    ['rm -rf build', 'rm -fr build', 'rm -r -f build'],
    ['pytest -x -s tests', 'pytest -sx tests', 'pytest tests -x -s', 'pytest --exitfirst -s tests'],
    ['grep -m 3 -n error app.log', 'grep -nm3 error app.log', 'grep -n -m3 error app.log'],
    ['pytest --maxfail 2 tests', 'pytest --maxfail=2 tests'],
    ['pytest --lf --ff tests', 'pytest --ff --lf tests', 'pytest --failed-first --last-failed tests'],
  ],
  keeps: [
    ['ls -la /tmp', 'ls -l /tmp'],
    ['python -O run.py', 'python -OO run.py'],
    ['grep -rn TODO src', 'grep -rn FIXME src'],
    ['grep -m 3 error app.log', 'grep -m 5 error app.log'],
    ['ls -la /tmp', 'ls -la /var'],
    ['rm -rf build', 'rm -f build'],
    ['grep -- -v app.log', 'grep -v app.log'],
    ['grep -e -n x', 'grep -n -e x'],
    ['ls -l $OPTS /tmp', 'ls $OPTS -l /tmp'],
    ['sed -i s/a/b/ f.txt', 'sed s/a/b/ -i f.txt'],
    ['pytest --lf --ff tests', 'pytest tests'],
  ],
};

/**
 * The shell's no-op: `:` (and `true`) ignore their arguments and exit 0, so
 * `: ls -la /app`, `: "test the polyglot"` and `:` are one action that does
 * nothing. A model whose tool calls arrive mangled as `: …` runs that one
 * action again and again under new spellings. Only arguments that expand to
 * nothing the shell runs are dropped: a substitution (`: $(rm x)`, which the reader leaves as written anyway) or a
 * parameter expansion with a side effect (`: ${X:=1}`) runs, so such a word
 * (and any redirection, `: > log` truncates a file) keeps the command as written.
 *
 * `set +H` in front of a line (`set +H; python -c "print('hi!')"`) turns off
 * history expansion, which a shell that runs a command string (`bash -c`, a
 * tool's shell) never has on: it changes nothing, and goes when it is the first
 * command and the rest follows it with `;` or `&&` (it always succeeds). Later
 * in the line it is kept: `a || set +H && b` is not `a || b`.
 */
import type { Rule } from '../rule.js';
import { lineWith, mapCommands, nameOf, valueOf, withWords, type Command, type Line } from '../syntax.js';

const NO_OPS: ReadonlySet<string | null> = new Set([':', 'true']);

function dropArguments(command: Command): Command {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut: a command of one word has no argument to drop
  if (command.words.length < 2) return command;
  // Assignments in front stay, and run as they would (`X=1 : a` is `X=1 :`); only the arguments go.
  if (command.redirects.length > 0 || !NO_OPS.has(nameOf(command))) return command;
  // A word the shell would expand is kept as written (value null): it may run something.
  if (command.words.some((w) => w.value === null)) return command;
  return withWords(command, command.words.slice(0, 1));
}

/** `set +H` or `set +o histexpand`, alone. */
function turnsHistoryOff(command: Command): boolean {
  if (command.assigns.length > 0 || command.redirects.length > 0 || nameOf(command) !== 'set') return false;
  // Stryker disable next-line StringLiteral: a word the shell expands stands for no option; with one, the options are never `+H` alone, whatever it reads as
  const options = command.words.slice(1).map((w) => valueOf(w) ?? '\0').join(' ');
  return options === '+H' || options === '+o histexpand';
}

function dropHistoryOff(line: Line): Line {
  const first = line.pipelines[0];
  const joined = line.connectors[0];
  // Stryker disable next-line OptionalChaining: the rule reads only lines naming `:`, `true` or `set`, which have a first pipeline
  if (first?.length !== 1 || (joined !== ';' && joined !== '&&') || !turnsHistoryOff(first[0] as Command)) return line;
  return lineWith(line.pipelines.slice(1), line.connectors.slice(1), line.background);
}

// `set` for `set +H`.
const NO_OPS_AND_SET: ReadonlySet<string | null> = new Set([...NO_OPS, 'set']);

export const noOp: Rule = {
  name: 'no-op',
  reason: '`:` and `true` ignore their arguments, so literal arguments change nothing that runs; `set +H` turns off what a command string never has on.',
  apply: (line) => mapCommands(dropHistoryOff(line), dropArguments),
  names: NO_OPS_AND_SET,
  folds: [
    [':', ': ls -la /app', ': "ls -la"', ": 'test the polyglot'", ': test a few Fibonacci numbers'],
    ['true', 'true ok', 'true "done"'],
    ['X=1 :', 'X=1 : a'],
    ['python -c "print(1)" t.py', 'set +H; python -c "print(1)" t.py', 'set +H && python -c "print(1)" t.py', 'set +o histexpand; python -c "print(1)" t.py'],
  ],
  keeps: [
    [': $HOME', ':'],
    [': ${X:=1}', ':'],
    [': > log.txt', ':'],
    [':ls', ':'],
    [': ls', 'true'],
    ['ls -la /app', ': ls -la /app'],
    ['set -H; echo hi', 'echo hi'],
    ['set +e; make', 'make'],
    ['false || set +H && make', 'false || make'],
    ['set +H || make', 'make'],
    ['set +H | cat; make', 'make'],
    ['set +H > /dev/null; make', 'make'],
    ['X=1 set +H; make', 'make'],
    ['echo +H; set -e; make', 'set -e; make'],
    [': x > log.txt', ': > log.txt'],
    ['X=1 :', ':'],
  ],
};

/**
 * `bash -c "pytest -q"` runs `pytest -q`: the whole line is the inner command,
 * read and folded like any other. Only `bash -c STRING` with nothing else on
 * the line: `bash -lc` reads the login profile first, words after the string
 * become `$0` and `$1`, and `sh` may be another shell.
 */
import { readLine } from '../line.js';
import type { Rule } from '../rule.js';
import { nameOf, valueOf, type Line } from '../syntax.js';

function unwrap(line: Line): Line {
  const only = line.pipelines.length === 1 && !line.background ? line.pipelines[0] : undefined;
  const command = only?.length === 1 ? only[0] : undefined;
  if (command === undefined || command.assigns.length > 0 || command.redirects.length > 0 || command.words.length !== 3) return line;
  const script = valueOf(command.words[2]);
  if (nameOf(command) !== 'bash' || valueOf(command.words[1]) !== '-c' || script === null) return line;
  // The string is bash's to read, whatever shell the line came from.
  return readLine(script, 'posix') ?? line;
}

export const inlineShell: Rule = {
  name: 'inline-shell',
  reason: 'bash -c runs its string as the command line it is.',
  apply: unwrap,
  reopens: true,
  folds: [
    ['bash -c "pytest -q"', "bash -c 'pytest -q'", 'pytest -q'],
    ['bash -c "cd /repo && make test"', 'cd /repo && make test'],
  ],
  keeps: [
    ['bash -lc "pytest -q"', 'pytest -q'],
    ['bash -c "pytest -q" extra', 'pytest -q'],
    ['sh -c "echo {a,b}"', 'echo {a,b}'],
    ['bash -c "$CMD"', '$CMD'],
    ['bash -c "pytest -q" > out.txt', 'pytest -q'],
  ],
};

/**
 * `bash -c "pytest -q"` runs `pytest -q`: the whole line is the inner command,
 * read and folded like any other. So does `bash -lc "pytest -q"`: a login
 * shell reads the profile first, which may set PATH, but what the model asks
 * to run is the same command (the wrapper of some harnesses). `sh -c` may be
 * another shell (dash), so its string is unwrapped only when every word is
 * literal and no redirection is bash's own (`&>`, `>&file`): there the two
 * shells read it alike. Only the shell, its `-c` string and nothing else on the
 * line: words after the string become `$0` and `$1`, and `-i` (interactive)
 * reads the rc file and expands history.
 */
import { readLine } from '../line.js';
import type { Rule } from '../rule.js';
import { copiesDescriptor, nameOf, valueOf, type Line } from '../syntax.js';

/** The options before the string that leave the command as it runs: `-c` alone, or with a login shell's `-l`. */
const RUNS_STRING: ReadonlySet<string> = new Set(['-c', '-lc', '-cl', '-l -c', '--login -c']);

/** Whether sh would read the line as bash does: no word expands, no redirection is bash's own. */
function readsAlike(line: Line): boolean {
  for (const pipeline of line.pipelines) {
    for (const command of pipeline) {
      if (command.words.some((w) => w.value === null) || command.assigns.some((w) => w.value === null)) return false;
      if (command.redirects.some((r) => r.op === '&>' || r.op === '&>>' || (r.op === '>&' && !copiesDescriptor(r)))) return false;
    }
  }
  return true;
}

function unwrap(line: Line): Line {
  const only = line.pipelines.length === 1 && !line.background ? line.pipelines[0] : undefined;
  const command = only?.length === 1 ? only[0] : undefined;
  if (command === undefined || command.assigns.length > 0 || command.redirects.length > 0) return line;
  // Stryker disable next-line ConditionalExpression: a shortcut: the options of a shell with fewer words or more are no spelling RUNS_STRING holds
  if (command.words.length < 3 || command.words.length > 4) return line;
  const shell = nameOf(command);
  if (shell !== 'bash' && shell !== 'sh') return line;
  // Stryker disable next-line StringLiteral: a word that expands stands for no option, and no spelling holds any stand-in for it
  const options = command.words.slice(1, -1).map((w) => valueOf(w) ?? '\0').join(' ');
  const script = valueOf(command.words[command.words.length - 1]);
  if (!RUNS_STRING.has(options) || script === null || (shell === 'sh' && options !== '-c')) return line;
  // The string is the shell's to read, whatever shell the line came from.
  const inner = readLine(script, 'posix');
  return inner === null || (shell === 'sh' && !readsAlike(inner)) ? line : inner;
}

const SHELLS: ReadonlySet<string> = new Set(['bash', 'sh']);

export const inlineShell: Rule = {
  name: 'inline-shell',
  reason: 'bash -c (or a login bash -lc, or sh -c on a line both shells read alike) runs its string as the command line it is.',
  apply: unwrap,
  // Only a line that is one shell and its string.
  names: SHELLS,
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut: a line that is not one shell alone reads the same through the rule
  concerns: (outline) => outline.names.length === 1 && SHELLS.has(outline.names[0] as string),
  reopens: true,
  folds: [
    ['bash -c "pytest -q"', "bash -c 'pytest -q'", 'pytest -q', 'bash -lc "pytest -q"', 'bash -l -c "pytest -q"', 'bash --login -c "pytest -q"', 'bash -cl "pytest -q"', "sh -c 'pytest -q'"],
    // A redirection both shells read alike.
    ['sh -c "make 2>&1"', 'make 2>&1'],
    ['bash -c "cd /repo && make test"', 'cd /repo && make test', "bash -lc 'cd /repo && make test'", 'sh -c "cd /repo && make test"'],
    // A file written as both shells write it; bash's own redirections under bash.
    ['sh -c "make > build.log"', 'make > build.log'],
    ['bash -c "make &> build.log"', 'make &> build.log'],
  ],
  keeps: [
    ['bash -ic "pytest -q"', 'pytest -q'],
    ['bash -c "pytest -q" extra', 'pytest -q'],
    ['sh -c "echo {a,b}"', 'echo {a,b}'],
    ['sh -c "ls *.py"', 'ls *.py'],
    ['sh -c "make &> build.log"', 'make &> build.log'],
    ['sh -lc "pytest -q"', 'pytest -q'],
    ['bash -c "$CMD"', '$CMD'],
    ['bash -c "pytest -q" > out.txt', 'pytest -q'],
    ['bash -c "pytest -q" &', 'pytest -q'],
    ['CI=1 bash -c "pytest -q"', 'CI=1 pytest -q'],
    ['sh -c "make &>> build.log"', 'make &>> build.log'],
    ['sh -c "make >&build.log"', 'make >&build.log'],
    ["sh -c 'CI=$X make'", 'CI=$X make'],
    // A second command whose name expands: the line is not the shell alone.
    ['bash -c "pytest -q" && "$RUN"', 'pytest -q'],
  ],
};

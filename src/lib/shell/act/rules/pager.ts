/**
 * Pagers: an agent's shell has no terminal, so `| cat`, `| less` and `| more`
 * at the end of the line pass the output through unchanged, and
 * `git --no-pager` or `GIT_PAGER=cat` only say so explicitly.
 */
import type { Rule } from '../rule.js';
import { commandOf, lastPipeline, mapCommands, nameOf, withLastPipeline, type Command, type Line, type Word } from '../syntax.js';

const PAGERS: ReadonlySet<string | null> = new Set(['cat', 'less', 'more']);
const PAGER_VARIABLES = new Set(['PAGER', 'GIT_PAGER']);

/** A bare pager: the name and nothing else, not even a redirection. */
const isBarePager = (command: Command): boolean =>
  command.words.length === 1 && command.assigns.length === 0 && command.redirects.length === 0 && PAGERS.has(nameOf(command));

/** `PAGER=cat` and `GIT_PAGER=` (or `=cat`) say "no pager". */
function isNoPager(w: Word): boolean {
  if (w.value === null) return false;
  const eq = w.value.indexOf('=');
  const rest = w.value.slice(eq + 1);
  return PAGER_VARIABLES.has(w.value.slice(0, eq)) && (rest === '' || rest === 'cat');
}

/** Whether an assignment says "no pager": a loop, as every command of a line with an assignment is asked. */
function hasNoPager(assigns: readonly Word[]): boolean {
  // Stryker disable next-line ConditionalExpression: a shortcut: where no assignment says "no pager", the command written again without such assignments has the same words
  for (const w of assigns) if (isNoPager(w)) return true;
  // Stryker disable next-line BooleanLiteral: as above
  return false;
}

function quiet(command: Command): Command {
  const flag = command.words[1]?.value;
  const noPagerFlag = nameOf(command) === 'git' && (flag === '--no-pager' || flag === '-P');
  // Stryker disable next-line ConditionalExpression: a shortcut: written again, a command with nothing to drop has the same words
  if (!noPagerFlag && !hasNoPager(command.assigns)) return command;
  return commandOf(
    command.assigns.filter((w) => !isNoPager(w)),
    noPagerFlag ? [command.words[0] as Word, ...command.words.slice(2)] : command.words,
    command.redirects,
  );
}

function dropTrailingPagers(line: Line): Line {
  const last = lastPipeline(line);
  let end = last.length;
  while (end > 1 && isBarePager(last[end - 1] as Command)) end -= 1;
  // Stryker disable next-line ConditionalExpression: a shortcut: the line itself when no pager was dropped
  return end === last.length ? line : withLastPipeline(line, last.slice(0, end));
}

/** The names the rule reads: git's flag, and the trailing pagers. */
const PAGED: ReadonlySet<string | null> = new Set(['git', ...PAGERS]);

export const pager: Rule = {
  name: 'pager',
  reason: 'With no terminal attached, a trailing pager or cat passes the output through unchanged.',
  apply: (line) => dropTrailingPagers(mapCommands(line, quiet)),
  // `PAGER=cat` is an assignment, whatever the command.
  names: PAGED,
  assigns: 1,
  folds: [
    [
      'git log --oneline -20',
      'git log --oneline -20 | cat',
      'git --no-pager log --oneline -20',
      'GIT_PAGER=cat git log --oneline -20',
      'git log --oneline -20 | less',
      'git -P log --oneline -20 | more',
      'PAGER=cat git log --oneline -20',
      'GIT_PAGER= git log --oneline -20',
    ],
  ],
  keeps: [
    ['git log | cat > log.txt', 'git log'],
    ['echo hi | cat', 'echo hi | cat notes.txt'],
    ['git log | cat -n', 'git log'],
    ['git diff | less', 'git show | less'],
    ['cat', 'less'],
    ['PAGER=less git log', 'git log'],
    ['EDITOR=cat git log', 'git log'],
    // `-P` is git's no-pager flag only: grep's is Perl patterns.
    ['grep -P "\\d+" app.log | cat', 'grep "\\d+" app.log'],
  ],
};

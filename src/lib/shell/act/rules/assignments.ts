/**
 * Assignments: `env A=1 cmd` is `A=1 cmd`, and literal assignments in front of
 * a command may come in any order. The values themselves always count.
 */
import { isAssignment } from '../../command.js';
import type { Rule } from '../rule.js';
import { commandOf, mapCommands, type Command, type Word } from '../syntax.js';

/** `env A=1 B=2 cmd …` as `A=1 B=2 cmd …`; `env` with options, or with nothing to run, stays. */
function unwrapEnv(command: Command): Command {
  if (command.words[0]?.value !== 'env') return command;
  let at = 1;
  const moved: Word[] = [];
  for (; at < command.words.length; at += 1) {
    const w = command.words[at] as Word;
    // env reads `'A=1'` as an assignment too: it sees the value, not the quoting.
    if (w.value === null || !isAssignment(w.value)) break;
    moved.push(w);
  }
  const next = command.words[at];
  if (next === undefined || next.value === null || next.value.startsWith('-')) return command;
  return commandOf([...command.assigns, ...moved], command.words.slice(at), command.redirects);
}

const nameOfAssignment = (w: Word): string => (w.value as string).slice(0, (w.value as string).indexOf('='));

/** Literal assignments sorted by name (stable); one that expands keeps them all in place. */
function sortAssignments(command: Command): Command {
  // None or one: already in order (a shortcut: sorting them gives them back).
  // Stryker disable next-line ConditionalExpression: the shortcut above
  if (command.assigns.length < 2) return command;
  if (command.assigns.some((w) => w.value === null)) return command;
  const sorted = [...command.assigns].sort((a, b) => {
    const x = nameOfAssignment(a);
    const y = nameOfAssignment(b);
    if (x < y) return -1;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: V8's sort only asks whether a result is below 0, so 1 and 0 order alike; the 1 keeps the comparator consistent, as the language asks
    return x > y ? 1 : 0;
  });
  // Already in order (the common case): the command itself. A shortcut: the sorted copy writes the same words.
  // Stryker disable next-line ArrowFunction,ConditionalExpression: the shortcut above
  const inOrder = sorted.every((w, at) => w === command.assigns[at]);
  return inOrder ? command : commandOf(sorted, command.words, command.redirects);
}

// `env A=1 cmd`, whatever the assignments in front of it.
const ENV: ReadonlySet<string> = new Set(['env']);

export const assignments: Rule = {
  name: 'assignments',
  reason: 'The environment a command gets does not depend on whether env or the shell sets it, nor on the order of literal assignments.',
  apply: (line) => mapCommands(line, (command) => sortAssignments(unwrapEnv(command))),
  // One assignment is already in order.
  names: ENV,
  assigns: 2,
  folds: [
    ['NODE_ENV=test CI=1 make test', 'CI=1 NODE_ENV=test make test', 'env CI=1 NODE_ENV=test make test', 'CI=1 env NODE_ENV=test make test'],
    ['env PYTHONPATH=src pytest', 'PYTHONPATH=src pytest'],
  ],
  keeps: [
    ['CI=1 make test', 'make test'],
    ['CI=1 make test', 'CI=0 make test'],
    ['env -i make test', 'make test'],
    ['A=1 B=$A make', 'B=$A A=1 make'],
    ['env', 'env A=1'],
    // An assignment that expands may be anything, an option included.
    ['env "$VARS" make test', 'make test'],
  ],
};

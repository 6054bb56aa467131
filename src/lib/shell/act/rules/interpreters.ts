/**
 * Interpreter aliases: `python3`, `python3.12` and `python` name the same
 * interpreter on any system an agent works on today, as do `pip3` and `pip`.
 * Only bare names are folded: a path (`.venv/bin/python`) names one binary.
 */
import type { Rule } from '../rule.js';
import { mapCommands, nameOf, withWords, word, type Command } from '../syntax.js';

const ALIASES: readonly (readonly [RegExp, string])[] = [
  [/^python3(?:\.\d+)?$/, 'python'],
  [/^pip3(?:\.\d+)?$/, 'pip'],
  [/^py\.test$/, 'pytest'],
  [/^nodejs$/, 'node'],
];

/** The first letters of the spellings above (`p`, `n`): any other name is none of them, and is not tested four times. */
const FIRST_LETTERS: ReadonlySet<number> = new Set([0x70, 0x6e]);

/** The one name of an interpreter spelled `name`, or `undefined` when it is no alias (the views rule reads interpreters by it too). */
export function aliasOf(name: string): string | undefined {
  // Stryker disable next-line ConditionalExpression: a shortcut: a name that starts otherwise matches no spelling
  if (name.length > 16 || !FIRST_LETTERS.has(name.charCodeAt(0))) return undefined;
  for (const [spelling, canonical] of ALIASES) if (spelling.test(name)) return canonical;
  return undefined;
}

function alias(command: Command): Command {
  const name = nameOf(command);
  const canonical = name === null ? undefined : aliasOf(name);
  return canonical === undefined ? command : withWords(command, [word(canonical), ...command.words.slice(1)]);
}

// Stryker disable next-line ConditionalExpression: a shortcut: a line that names no alias reads the same through the rule
const isAlias = (name: string): boolean => aliasOf(name) !== undefined;

export const interpreters: Rule = {
  name: 'interpreters',
  reason: 'python and python3 (pip and pip3, py.test and pytest, nodejs and node) are one program under two names.',
  apply: (line) => mapCommands(line, alias),
  concerns: (outline) => outline.names.some(isAlias),
  folds: [
    ['python3 manage.py test', 'python manage.py test', 'python3.12 manage.py test', 'python3.9 manage.py test'],
    ['pip3 install -r requirements.txt', 'pip install -r requirements.txt', 'pip3.11 install -r requirements.txt'],
    ['py.test -q tests', 'pytest -q tests'],
    ['nodejs server.js', 'node server.js'],
  ],
  keeps: [
    ['python2 x.py', 'python x.py'],
    ['.venv/bin/python x.py', 'python x.py'],
    ['python3 a.py', 'python3 b.py'],
    ['pip3 install requests', 'pip3 uninstall requests'],
    ['python3.x a.py', 'python a.py'],
    ['py_test tests', 'pytest tests'],
    ['nodejs-dev x.js', 'node x.js'],
    ['pypy.test tests', 'pytest tests'],
    ['node-nodejs x.js', 'node x.js'],
  ],
};

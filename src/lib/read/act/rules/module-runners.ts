/**
 * `python -m pytest` is `pytest`: the module and the console script run the
 * same tool (the module form also puts the current directory on sys.path,
 * which changes imports, not what is run). Only well-known runners, and only
 * when `-m` is the interpreter's first argument.
 */
import type { Rule } from '../rule.js';
import { mapCommands, word, type Command } from '../syntax.js';

const RUNNERS = new Set(['pytest', 'pip', 'mypy', 'ruff', 'black', 'flake8', 'pylint', 'isort', 'tox']);

function unwrapModule(command: Command): Command {
  const words = command.words;
  if (words[0]?.value !== 'python') return command;
  const flag = words[1]?.value;
  const module = flag === '-m' ? words[2]?.value : flag?.startsWith('-m') === true ? flag.slice(2) : undefined;
  if (module === undefined || module === null || !RUNNERS.has(module)) return command;
  return { ...command, words: [word(module), ...words.slice(flag === '-m' ? 3 : 2)] };
}

export const moduleRunners: Rule = {
  name: 'module-runners',
  reason: 'python -m pytest and pytest (pip, mypy, ruff, …) run the same tool.',
  apply: (line) => mapCommands(line, unwrapModule),
  folds: [
    ['python -m pytest -q tests', 'pytest -q tests', 'python3 -m pytest -q tests', 'python -mpytest -q tests'],
    ['python -m pip install requests', 'pip install requests'],
  ],
  keeps: [
    ['python -m unittest', 'python -m pytest'],
    ['python -m pytest tests/a.py', 'pytest tests/b.py'],
    ['python -m http.server', 'python -m pytest'],
    ['python -c "import pytest"', 'pytest'],
  ],
};

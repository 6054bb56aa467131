/**
 * `python -m pytest` is `pytest`: the module and the console script run the
 * same tool (the module form also puts the current directory on sys.path,
 * which changes imports, not what is run). Only well-known runners, and only
 * when `-m` is the interpreter's first argument.
 */
import type { Rule } from '../rule.js';
import { mapCommands, nameOf, valueOf, withWords, word, type Command } from '../syntax.js';

const RUNNERS: ReadonlySet<string | null> = new Set(['pytest', 'pip', 'mypy', 'ruff', 'black', 'flake8', 'pylint', 'isort', 'tox']);

const isRunner = (module: string | null): module is string => RUNNERS.has(module);

function unwrapModule(command: Command): Command {
  if (nameOf(command) !== 'python') return command;
  const words = command.words;
  const flag = valueOf(words[1]);
  // `-m pytest`, or glued: `-mpytest`.
  const module = flag === '-m' ? valueOf(words[2]) : flag?.startsWith('-m') === true ? flag.slice(2) : null;
  if (!isRunner(module)) return command;
  return withWords(command, [word(module), ...words.slice(flag === '-m' ? 3 : 2)]);
}

// The one program whose `-m` the rule reads.
const PYTHON: ReadonlySet<string> = new Set(['python']);

export const moduleRunners: Rule = {
  name: 'module-runners',
  reason: 'python -m pytest and pytest (pip, mypy, ruff, …) run the same tool.',
  apply: (line) => mapCommands(line, unwrapModule),
  names: PYTHON,
  folds: [
    ['python -m pytest -q tests', 'pytest -q tests', 'python3 -m pytest -q tests', 'python -mpytest -q tests'],
    ['python -m pip install requests', 'pip install requests'],
    ['python -m mypy src', 'mypy src'],
    ['python -m ruff check .', 'ruff check .'],
    ['python -m black --check .', 'black --check .'],
    ['python -m flake8 src', 'flake8 src'],
    ['python -m pylint src', 'pylint src'],
    ['python -m isort --check .', 'isort --check .'],
    ['python -m tox -e py311', 'tox -e py311'],
  ],
  keeps: [
    ['python -m unittest', 'python -m pytest'],
    ['python -m pytest tests/a.py', 'pytest tests/b.py'],
    ['python -m http.server', 'python -m pytest'],
    ['python -c "import pytest"', 'pytest'],
    ['python "$ARGS" tests', 'pytest tests'],
    ['python -u -m pytest', 'pytest'],
    ['python -V && node -m pytest', 'python -V && pytest'],
  ],
};

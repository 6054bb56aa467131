/**
 * One action (run the test suite, stop at the first failure, quietly) spelled
 * fourteen ways, as a model respells a call it keeps repeating. Every spelling
 * is a different command text; `act:` reads them all as `pytest -x tests` (quietly or not, the same run).
 * Shared by the unit tests, the host suite and the demo.
 */
export const RESPELLED_PYTEST: readonly string[] = [
  'pytest -x -q tests',
  'pytest -q -x tests/',
  'python -m pytest -xq tests',
  'python3 -m pytest tests -x -q',
  'pytest -qx ./tests 2>&1 | tail -20',
  'timeout 300 pytest -x -q tests',
  'pytest --exitfirst -q tests | head -50',
  'python -m pytest -x --quiet tests/ 2>&1',
  'nice pytest -xq tests > /dev/null',
  'pytest -q -x "tests"',
  'pytest -x -q tests//',
  'time python3 -m pytest -q -x ./tests/ 2>&1 | tail -n 40',
  'bash -c "pytest -x -q tests"',
  'pytest -xq tests | cat',
];

/** What every spelling above folds to. */
export const RESPELLED_PYTEST_ACT = 'act:pytest -x tests';

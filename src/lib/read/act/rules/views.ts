/**
 * Views of a run: `pytest | tail -20`, then `pytest 2>&1 | head -50`, is one
 * test run looked at twice. A trailing `head`/`tail` that only counts lines is
 * dropped when what it cuts is the output of a run (a test runner, a build, a
 * script), never when it is a listing or a file: `ls -t | head -1` (newest)
 * and `ls -t | tail -1` (oldest), or `cat f | head` and `cat f | tail`, are
 * different reads.
 */
import { splitDirectory } from '../directory-flags.js';
import type { Rule } from '../rule.js';
import { nameOf, withLastPipeline, type Command, type Line, type Word } from '../syntax.js';

/** Programs whose output is the log of a run. A subcommand list limits a manager to its running subcommands. */
const RUNNERS: Readonly<Record<string, readonly string[] | null>> = {
  pytest: null,
  tox: null,
  mypy: null,
  ruff: null,
  eslint: null,
  tsc: null,
  jest: null,
  vitest: null,
  mocha: null,
  make: null,
  cmake: null,
  ctest: null,
  ninja: null,
  mvn: null,
  gradle: null,
  python: null,
  node: null,
  npx: null,
  npm: ['run', 'test', 'install', 'ci', 'exec'],
  pnpm: ['run', 'test', 'install', 'exec'],
  yarn: ['run', 'test', 'install'],
  cargo: ['build', 'test', 'run', 'check', 'clippy'],
  go: ['build', 'test', 'run', 'vet'],
  dotnet: ['build', 'test', 'run'],
};
// Inline code prints whatever it likes (`python -c 'print(sorted(x))' | head -1` is a listing), and these list.
const NOT_A_RUN = new Set(['-c', '-e', '-p', '--co', '--collect-only', '--help', '-h', '--version', '-V']);

function isRunner(command: Command): boolean {
  const name = nameOf(command);
  if (name === null) return false;
  // A project script by relative path (`./run_tests.sh`, `scripts/check.py`).
  if (!name.startsWith('/') && name.includes('/')) return true;
  if (!Object.hasOwn(RUNNERS, name)) return false;
  if (command.words.some((w) => w.value !== null && NOT_A_RUN.has(w.value))) return false;
  const subcommands = RUNNERS[name];
  // `npm --prefix web test`: the subcommand follows the directory flag.
  const words = splitDirectory(command)?.words ?? command.words;
  return subcommands === null || subcommands === undefined || subcommands.includes(words[1]?.value ?? '');
}

const isCount = (v: string | null): boolean => v !== null && /^\d+$/.test(v);

/** `head`/`tail` with at most a line count (`-20`, `-n 20`, `-n20`, `--lines=20`): a view of the last lines or the first. */
function isView(command: Command): boolean {
  const name = nameOf(command);
  if ((name !== 'head' && name !== 'tail') || command.assigns.length > 0 || command.redirects.length > 0) return false;
  const args: readonly Word[] = command.words.slice(1);
  const [a, b] = [args[0]?.value ?? null, args[1]?.value ?? null];
  if (args.length === 0) return true;
  if (args.length === 1) return a !== null && (/^-n?\d+$/.test(a) || /^--lines=\d+$/.test(a));
  return args.length === 2 && (a === '-n' || a === '--lines') && isCount(b);
}

function dropViews(line: Line): Line {
  const last = line.pipelines[line.pipelines.length - 1] ?? [];
  const first = last[0];
  if (last.length < 2 || first === undefined || !isRunner(first) || !last.slice(1).every(isView)) return line;
  return withLastPipeline(line, [first]);
}

export const views: Rule = {
  name: 'views',
  reason: 'A head or tail of a run’s output is a view of the same run; the run is the action.',
  apply: dropViews,
  folds: [
    ['pytest -q', 'pytest -q | tail -20', 'pytest -q | head -50', 'pytest -q | tail -n 30', 'pytest -q | tail -n30 | head -5'],
    ['./run_tests.sh | tail -40', './run_tests.sh'],
    ['cargo test | tail -40', 'cargo test | head'],
  ],
  keeps: [
    ['ls -t | head -1', 'ls -t | tail -1'],
    ['sort -n sizes.txt | head -5', 'sort -n sizes.txt | tail -5'],
    ['cat app.log | head -50', 'cat app.log | tail -50'],
    ['git log --oneline | head -20', 'git log --oneline | tail -20'],
    ["python -c 'print(1)' | head -3", "python -c 'print(1)' | tail -3"],
    ['npm ls | head -20', 'npm ls | tail -20'],
    ['pytest | tail -n +20', 'pytest'],
    ['pytest | grep FAIL | head', 'pytest | grep FAIL'],
  ],
};

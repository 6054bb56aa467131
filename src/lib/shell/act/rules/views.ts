/**
 * Views of a run: `pytest | tail -20`, then `pytest 2>&1 | head -50`, is one
 * test run looked at twice. A trailing `head`/`tail` that only counts lines is
 * dropped when what it cuts is the output of a run (a test runner, a build, a
 * script), never when it is a listing or a file: `ls -t | head -1` (newest)
 * and `ls -t | tail -1` (oldest), or `cat f | head` and `cat f | tail`, are
 * different reads.
 */
import { nameBeforeValue } from '../args.js';
import { splitDirectory } from '../directory-flags.js';
import { aliasOf } from './interpreters.js';
import type { Rule } from '../rule.js';
import { lastPipeline, nameOf, valueOf, withLastPipeline, type Command, type Line } from '../syntax.js';

/** Programs whose output is the log of a run. A subcommand list limits a manager to its running subcommands. */
// A map: a name that is not listed (`constructor` included) gets undefined.
const RUNNERS: ReadonlyMap<string, ReadonlySet<string | null> | null> = new Map(
  Object.entries({
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
    npm: new Set(['run', 'test', 'install', 'ci', 'exec']),
    pnpm: new Set(['run', 'test', 'install', 'exec']),
    yarn: new Set(['run', 'test', 'install']),
    cargo: new Set(['build', 'test', 'run', 'check', 'clippy']),
    go: new Set(['build', 'test', 'run', 'vet']),
    dotnet: new Set(['build', 'test', 'run']),
    // A shell running a script file (`bash run_tests.sh`; `-c` is inline code, below), and the runners that run a project's tools.
    bash: null,
    sh: null,
    rspec: null,
    uv: new Set(['run']),
    poetry: new Set(['run']),
    pipenv: new Set(['run']),
    bundle: new Set(['exec']),
  }),
);
/** Words after which a program lists (its tests, its help, its version) rather than runs, whichever program reads them. */
const LISTING = new Set<string | null>(['--co', '--collect-only', '--help', '-h', '--version', '-V']);
/** Where `-V` is a run all the same: a verbose one (`ctest -V`), or one that shows its version first (`mvn -V`). */
const RUNS_WITH_V: ReadonlySet<string> = new Set(['ctest', 'mvn']);

/** How an interpreter is handed inline code: the letters of its short options, and its long ones (`--eval=…` too). */
interface InlineSpelling {
  readonly letters: string;
  readonly long: ReadonlySet<string>;
}

const NO_LONG: ReadonlySet<string> = new Set();

/**
 * Interpreters and how they take inline code: inline code prints whatever it
 * likes (`python -c 'print(sorted(x))' | head -1` is a listing). Read after an
 * interpreter's name, where it may stand behind a runner (`uv run python -c …`):
 * the same letters are a run's options elsewhere (`tox -e py311`, `pytest -p
 * no:cacheprovider`, `cargo test -p core`, `tsc -p .`).
 */
const INLINE: ReadonlyMap<string | null, InlineSpelling> = new Map([
  ['python', { letters: 'c', long: NO_LONG }],
  ['node', { letters: 'cep', long: new Set(['--eval', '--print', '--check']) }],
  ['ruby', { letters: 'e', long: NO_LONG }],
  ['perl', { letters: 'eE', long: NO_LONG }],
  ['bash', { letters: 'c', long: NO_LONG }],
  ['sh', { letters: 'c', long: NO_LONG }],
]);

/** The interpreter a word names, its version and alias spellings folded as the interpreters rule folds them (`python3.12`, `nodejs`); else the word. */
function interpreterOf(name: string | null): string | null {
  return name === null ? null : (aliasOf(name) ?? name);
}

/** Whether a word spells an interpreter's inline code: a short cluster holding one of its letters (`-c`, `-Bc`, `-pe`), or one of its long options. */
function spellsInline(flag: string | null, spelling: InlineSpelling): boolean {
  if (flag === null || !flag.startsWith('-')) return false;
  if (flag.startsWith('--')) return spelling.long.has(nameBeforeValue(flag));
  // Stryker disable next-line MethodExpression: the dash is no inline letter
  for (const letter of flag.slice(1)) if (spelling.letters.includes(letter)) return true;
  return false;
}

/**
 * Whether an interpreter among the words runs inline code: a word after its
 * name spells it. Any word after: an option's value is not told from an operand
 * (`python -W ignore -c …`, `node --require x -e …`), so a script given such a
 * word of its own stays apart, which only reads a loop later.
 */
function runsInlineCode(words: Command['words']): boolean {
  // Stryker disable next-line EqualityOperator: one past the words is no word, and names no interpreter
  for (let at = 0; at < words.length; at += 1) {
    const spelling = INLINE.get(interpreterOf(valueOf(words[at])));
    if (spelling === undefined) continue;
    // Stryker disable next-line EqualityOperator: one past the words is no word, and spells nothing
    for (let after = at + 1; after < words.length; after += 1) if (spellsInline(valueOf(words[after]), spelling)) return true;
  }
  return false;
}

/** Whether the command lists rather than runs: a listing word, or inline code. */
function lists(command: Command, name: string): boolean {
  const listing = command.words.some((w) => LISTING.has(w.value) && (w.value !== '-V' || !RUNS_WITH_V.has(name)));
  return listing || runsInlineCode(command.words);
}

/** Whether the command is a run: its output is the log of a test run, a build or a script. */
export function isRunner(command: Command): boolean {
  const name = nameOf(command);
  if (name === null) return false;
  // A project script by relative path (`./run_tests.sh`, `scripts/check.py`).
  if (!name.startsWith('/') && name.includes('/')) return true;
  const subcommands = RUNNERS.get(name);
  if (subcommands === undefined || lists(command, name)) return false;
  // A shell runs a script only when a file comes first (`bash -lc …`, `sh -s` read code from elsewhere).
  if ((name === 'bash' || name === 'sh') && (valueOf(command.words[1]) ?? '-').startsWith('-')) return false;
  // `npm --prefix web test`: the subcommand follows the directory flag.
  const words = splitDirectory(command)?.words ?? command.words;
  return subcommands === null || subcommands.has(valueOf(words[1]));
}

/** A line count on its own (`-20`, `-n20`, `--lines=20`), and after `-n` or `--lines`. */
const COUNT_FLAG = /^(?:-n?|--lines=)\d+$/;
const COUNT = /^\d+$/;

/** `head`/`tail` with at most a line count: a view of the last lines or the first. */
function isView(command: Command): boolean {
  const name = nameOf(command);
  if ((name !== 'head' && name !== 'tail') || command.assigns.length > 0 || command.redirects.length > 0) return false;
  // Stryker disable next-line StringLiteral: '' stands for a word that expands, which is no count, as no text put in its place is
  const [a, b, ...more] = command.words.slice(1).map((w) => w.value ?? '');
  if (a === undefined) return true;
  if (b === undefined) return COUNT_FLAG.test(a);
  return more.length === 0 && (a === '-n' || a === '--lines') && COUNT.test(b);
}

function dropViews(line: Line): Line {
  const last = lastPipeline(line);
  // A pipeline always has a command; a run alone has no view to drop, and is written back as it was.
  const run = last[0] as Command;
  if (!isRunner(run) || !last.slice(1).every(isView)) return line;
  return withLastPipeline(line, [run]);
}

/** A view is a head or a tail: a line with neither has none to drop. */
const VIEWS: ReadonlySet<string> = new Set(['head', 'tail']);

/** A run of every other program and subcommand the table lists, each a claim an example holds. */
// Stryker disable next-line ArrayDeclaration: examples, not the rule: emptied, fewer of them are run
const LISTED_RUNS = [
  'tox', 'mypy src', 'ruff check .', 'eslint src', 'tsc --noEmit', 'jest', 'vitest run', 'mocha', 'make test', 'cmake --build build',
  'ctest', 'ninja -C build', 'mvn test', 'gradle test', 'python manage.py test', 'node test.js', 'npx jest', 'npm run test', 'npm test',
  'npm install', 'npm ci', 'npm exec jest', 'pnpm run test', 'pnpm test', 'pnpm install', 'pnpm exec jest', 'yarn run test', 'yarn test',
  'yarn install', 'cargo build', 'cargo run', 'cargo check', 'cargo clippy', 'go build ./...', 'go test ./...', 'go run .', 'go vet ./...',
  'dotnet build', 'dotnet test', 'dotnet run', 'sh run_tests.sh', 'rspec', 'poetry run pytest', 'pipenv run pytest', 'bundle exec rspec',
];
/** Runs whose options share a letter with an interpreter's inline code, or spell `-V` as a run. */
// Stryker disable next-line ArrayDeclaration: examples, not the rule: emptied, fewer of them are run
const RUNS_WITH_INLINE_LETTERS = [
  'tox -e py311', 'pytest -p no:cacheprovider', 'pytest -c setup.cfg', 'python -m pytest -p xdist', 'tsc -p tsconfig.json', 'cargo test -p core',
  'go test -p 1 ./...', 'make -e test', 'mvn -e test', 'mvn -V test', 'ctest -V', 'npx -p typescript tsc',
  // An interpreter's options that are no inline code: a short one, a long one whose letters are, another's long inline option.
  'python -B run.py', 'node --experimental-vm-modules test.js', 'uv run python3 -B run.py', 'python train.py --eval',
];
/** Inline code behind a runner, or in an interpreter's option cluster: what it prints is no run's log. */
// Stryker disable next-line ArrayDeclaration: examples, not the rule: emptied, fewer of them are run
const INLINE_CODE = [
  "uv run python -c 'print(1)'", "poetry run python3.12 -Bc 'print(1)'", "npx nodejs -pe 1", "uv run bash -c 'ls -t'", "bundle exec ruby -e 'puts 1'",
  "uv run perl -E 'say 1'", "uv run sh -c 'ls -t'", "python -u -c 'print(1)'", "uv run python3 -c 'print(1)'",
  "node --eval 'console.log(1)'", 'node --print=1', "node --inspect -e 'console.log(1)'",
  // After an option's value, which is not told from an operand.
  "python -W ignore -c 'print(1)'", "node --require ts-node/register -e 'console.log(1)'",
];
/** What a listed program prints when it lists rather than runs: a view of it is a different read. */
// Stryker disable next-line ArrayDeclaration: examples, not the rule: emptied, fewer of them are run
const LISTINGS = [
  'cargo tree', 'go list ./...', 'dotnet --info', 'pnpm ls', 'yarn why react', 'poetry show', 'pipenv graph', 'bundle list',
  "node -e 'console.log(1)'", 'node -p 1', 'pytest --co', 'pytest --collect-only', 'make --help', 'mypy -h', 'python --version', 'python -V',
];

export const views: Rule = {
  name: 'views',
  reason: 'A head or tail of a run’s output is a view of the same run; the run is the action.',
  apply: dropViews,
  names: VIEWS,
  folds: [
    ['pytest -q', 'pytest -q | tail -20', 'pytest -q | head -50', 'pytest -q | tail -n 30', 'pytest -q | tail -n30 | head -5'],
    ['./run_tests.sh | tail -40', './run_tests.sh'],
    ['cargo test | tail -40', 'cargo test | head'],
    ['bash run_tests.sh 2>&1 | tail -n 50', 'bash run_tests.sh'],
    ['uv run pytest tests | tail -30', 'uv run pytest tests'],
    ...LISTED_RUNS.map((run) => [run, `${run} | tail -20`]),
    ...RUNS_WITH_INLINE_LETTERS.map((run) => [run, `${run} | tail -20`]),
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
    ["bash -c 'ls -t' | head -1", "bash -c 'ls -t' | tail -1"],
    ["bash -lc 'ls -t' | head -1", "bash -lc 'ls -t' | tail -1"],
    ['sh | head -1', 'sh | tail -1'],
    ['uv pip list | head -20', 'uv pip list | tail -20'],
    // `-V` is a run for ctest, its help is not; a shell reading its script from standard input is no run of a file.
    ['ctest --help | head -20', 'ctest --help | tail -20'],
    ['bash -s | head -1', 'bash -s | tail -1'],
    ...LISTINGS.map((listing): [string, string] => [`${listing} | head -20`, `${listing} | tail -20`]),
    ...INLINE_CODE.map((code): [string, string] => [`${code} | head -20`, `${code} | tail -20`]),
  ],
};

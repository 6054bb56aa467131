/**
 * Verbosity: `pytest -q tests`, `pytest -v tests` and `pytest --tb=short -rA
 * tests` run the same tests; only the report of the run is longer or shorter.
 * Per program, the options that set how much a run prints (its verbosity, its
 * traceback style, its colours, its summary) are dropped, and nothing else:
 * an option that selects what runs (`-x`, `-k`, `--lf`), or that can change
 * how the code behaves (`-s` lets tests read the terminal, `--log-level` sets
 * the root logger's level, `-W` can turn a warning into an error, `-p` loads
 * or unloads a plugin) is kept, whatever it prints.
 *
 * A program with an option table (commands.ts) is read by it, so a value is
 * never taken for an operand; the others are read only for their own flags,
 * on their running subcommands, up to a `--` (past it, the words belong to
 * another program).
 */
import { nameBeforeValue, optionName, optionSpan, writeArgs } from '../args.js';
import { argsOf } from '../commands.js';
import type { Rule } from '../rule.js';
import { mapCommands, nameOf, valueOf, withWords, type Command, type Word } from '../syntax.js';

/** A program read by its option table: the printing switches' letters, long switches and valued options. */
interface Tabled {
  readonly letters: string;
  readonly longs: ReadonlySet<string>;
  /** Valued options as read: a short `-r` (its value the next word of the reading) or a long `--tb` (read as `--tb=…`). */
  readonly valued: ReadonlySet<string>;
}

const TABLED: ReadonlyMap<string, Tabled> = new Map([
  [
    'pytest',
    {
      letters: 'qvl',
      longs: new Set(['--no-header', '--no-summary', '--disable-warnings']),
      valued: new Set(['-r', '--tb', '--durations', '--durations-min', '--color', '--code-highlight']),
    },
  ],
  // Unbuffered output, the interactive banner, the import trace: how the interpreter prints, not what it runs.
  ['python', { letters: 'quv', longs: new Set(), valued: new Set() }],
]);

/** A program without an option table: its printing flags (whole words, `--x=…` for the valued ones) on the subcommands that run something. */
interface Listed {
  /** The subcommands the flags belong to; `null`: the program itself (make). */
  readonly subcommands: ReadonlySet<string> | null;
  readonly flags: ReadonlySet<string>;
  /** Flags whose value is the next word, or attached with `=`. */
  readonly valued: ReadonlySet<string>;
}

const LISTED: ReadonlyMap<string, Listed> = new Map([
  ['go', { subcommands: new Set(['test', 'vet']), flags: new Set(['-v']), valued: new Set() }],
  ['cargo', { subcommands: new Set(['test', 'build', 'check', 'clippy']), flags: new Set(['-q', '--quiet', '-v', '-vv', '--verbose']), valued: new Set(['--color']) }],
  ['make', { subcommands: null, flags: new Set(['-s', '--silent', '--quiet', '-w', '--print-directory', '--no-print-directory']), valued: new Set() }],
  ['mvn', { subcommands: null, flags: new Set(['-q', '--quiet', '-B', '--batch-mode', '-e', '--errors', '-ntp', '--no-transfer-progress']), valued: new Set() }],
  ['./mvnw', { subcommands: null, flags: new Set(['-q', '--quiet', '-B', '--batch-mode', '-e', '--errors', '-ntp', '--no-transfer-progress']), valued: new Set() }],
  ['gradle', { subcommands: null, flags: new Set(['-q', '--quiet', '-i', '--info', '-S', '--full-stacktrace', '-s', '--stacktrace']), valued: new Set(['--console']) }],
  ['./gradlew', { subcommands: null, flags: new Set(['-q', '--quiet', '-i', '--info', '-S', '--full-stacktrace', '-s', '--stacktrace']), valued: new Set(['--console']) }],
  ['jest', { subcommands: null, flags: new Set(['--verbose', '--silent', '--colors', '--no-colors']), valued: new Set() }],
]);

/** Drops a table-read program's printing options; the command itself when it has none, or when its words do not read. */
function tabled(command: Command, table: Tabled): Command {
  const args = argsOf(command);
  if (args === null) return command;
  let letters = '';
  for (const letter of args.switches) if (!table.letters.includes(letter)) letters += letter;
  const longs = args.longs.filter((long) => !table.longs.has(long));
  const options: Word[] = [];
  for (let at = 0; at < args.options.length; at += 1) {
    const option = args.options[at] as Word;
    const named = optionName(option);
    // A short option's value goes or stays with it.
    const took = optionSpan(args.options, at);
    // Stryker disable next-line ConditionalExpression: a null name is in no table; the test only tells the type checker so
    if (named === null || !table.valued.has(named)) options.push(...args.options.slice(at, at + took));
    at += took - 1;
  }
  if (letters.length === args.switches.length && longs.length === args.longs.length && options.length === args.options.length) return command;
  return withWords(command, writeArgs(command.words[0] as Word, command.words.slice(1), args, { switches: letters, longs, options }));
}

/**
 * The words a listed program's printing flag spans, as optionSpan (args.ts)
 * does for a read option: 0 when the word is no printing flag, 1 for a flag
 * (`-v`, `--color=never`), 2 for a valued flag written apart from its value
 * (`--color never`).
 */
function flagSpan(listed: Listed, v: string): 0 | 1 | 2 {
  if (listed.flags.has(v)) return 1;
  if (listed.valued.has(v)) return 2;
  // A valued flag with its value attached (`--color=never`).
  return listed.valued.has(nameBeforeValue(v)) ? 1 : 0;
}

/** Drops a listed program's printing flags up to a `--`; the command itself when it has none. */
function listed(command: Command, listed: Listed): Command {
  const { words } = command;
  // Stryker disable next-line StringLiteral: no subcommand is spelled as either stand-in for a missing or expanding one
  if (listed.subcommands !== null && !listed.subcommands.has(valueOf(words[1]) ?? '')) return command;
  // The program's name is none of its flags.
  const kept: Word[] = [words[0] as Word];
  let at = 1;
  for (; at < words.length; at += 1) {
    const w = words[at] as Word;
    if (w.value === '--') break;
    const span = w.value === null ? 0 : flagSpan(listed, w.value);
    // A value the shell expands might be another flag, or nothing: the command is kept as written.
    if (span === 2 && valueOf(words[at + 1]) === null) return command;
    if (span === 0) kept.push(w);
    else at += span - 1;
  }
  // Stryker disable next-line ConditionalExpression: a shortcut: with nothing dropped, the words made again are the words
  return kept.length === at ? command : withWords(command, [...kept, ...words.slice(at)]);
}

function quieted(command: Command): Command {
  const name = nameOf(command);
  // Stryker disable next-line ConditionalExpression: a shortcut: no table lists a name that expands
  if (name === null) return command;
  const table = TABLED.get(name);
  if (table !== undefined) return tabled(command, table);
  const list = LISTED.get(name);
  return list === undefined ? command : listed(command, list);
}

const QUIETED: ReadonlySet<string> = new Set([...TABLED.keys(), ...LISTED.keys()]);

export const verbosity: Rule = {
  name: 'verbosity',
  reason: 'Options that set how much a run prints (verbosity, traceback style, colours, a summary) leave what runs as it was.',
  apply: (line) => mapCommands(line, quieted),
  // Only options are dropped: names, assignments and redirections stay.
  // Stryker disable next-line BooleanLiteral: a shortcut: without it the engine reads the new line's outline, the same one
  keepsOutline: true,
  names: QUIETED,
  folds: [
    ['pytest -q tests/test_api.py', 'pytest -v tests/test_api.py', 'pytest -vv --tb=short tests/test_api.py', 'pytest tests/test_api.py -rA --tb line --no-header', 'pytest --quiet --color=no tests/test_api.py'],
    ['pytest --no-summary --disable-warnings tests', 'pytest --durations 5 --durations-min=1.0 tests', 'pytest --code-highlight=no tests', 'pytest tests'],
    ['pytest -x -q tests', 'pytest -xvv tests', 'pytest -x --showlocals tests'],
    ['python -u train.py', 'python -q train.py', 'python -v train.py', 'python train.py'],
    ['go test -v ./pkg/...', 'go test ./pkg/...'],
    ['go vet -v ./...', 'go vet ./...'],
    ['cargo test -q', 'cargo test --verbose', 'cargo test --color never', 'cargo test --color=always'],
    ['cargo build -q', 'cargo build --quiet', 'cargo build'],
    ['cargo check -v', 'cargo check'],
    ['cargo clippy -vv', 'cargo clippy'],
    ['make -s test', 'make test', 'make --no-print-directory test', 'make --silent --quiet test', 'make -w test', 'make --print-directory test'],
    ['mvn -q -B test', 'mvn test', 'mvn -e test', 'mvn --quiet --batch-mode --errors test', 'mvn -ntp test', 'mvn --no-transfer-progress test'],
    ['./mvnw -q -B -e -ntp test', './mvnw --quiet --batch-mode --errors --no-transfer-progress test', './mvnw test'],
    ['./gradlew test --info --console=plain', './gradlew test', './gradlew -q test --stacktrace', './gradlew -i -S -s --quiet --full-stacktrace test'],
    ['gradle -q -i -S -s test', 'gradle --quiet --info --full-stacktrace --stacktrace test', 'gradle --console plain test', 'gradle test'],
    ['jest --verbose', 'jest --silent', 'jest --colors', 'jest --no-colors', 'jest'],
    ['pytest -k login --tb=short tests', 'pytest -k login tests'],
    ['make -s "$TARGET"', 'make "$TARGET"'],
  ],
  keeps: [
    ['pytest -q tests/test_api.py', 'pytest -q tests/test_db.py'],
    ['pytest -q tests', 'pytest -x tests'],
    ['pytest -q tests', 'pytest -s tests'],
    ['pytest -q tests', 'pytest --log-level=DEBUG tests'],
    ['pytest -q tests', 'pytest -W error tests'],
    ['pytest -q tests', 'pytest -p no:cacheprovider tests'],
    ['pytest -q -k login', 'pytest -q -k logout'],
    ['pytest -k -r tests', 'pytest -k tests'],
    ['pytest -q --reruns 3 tests', 'pytest --reruns 3 tests'],
    ['pytest -q -k login -m slow tests', 'pytest -q -k login tests'],
    ['pytest --tb "$STYLE" tests', 'pytest tests'],
    ['go run main.go -v', 'go run main.go'],
    ['cargo run -q', 'cargo run'],
    ['cargo test -- -q', 'cargo test'],
    ['cargo test -- -q', 'cargo test --'],
    ['cargo test --colors', 'cargo test'],
    ['cargo test --color "$COLOR"', 'cargo test'],
    ['cargo test --color', 'cargo test'],
    ['make -k test', 'make test'],
    ['python -B train.py', 'python train.py'],
  ],
};

/**
 * Every entry of every `act:` table, one example each: the runners `python -m`
 * unwraps, the pagers, the interpreter aliases, the readers `cat f |` feeds,
 * the package managers' script spellings, the programs whose output is a run,
 * the stream defaults, the valued flags of head and tail, the directory flags,
 * and every letter and long flag of the option tables. A rule's own examples
 * (act-rules.test.ts) show what it does; these show it does it for each entry
 * listed, so dropping one fails here. The lists below are the specification:
 * an entry added to a table is added here with its example.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf, RULES } from '../../src/lib/shell/act/index.js';
import { COMMANDS } from '../../src/lib/shell/act/commands.js';
import { apart, same } from '../support/act.js';

const UNQUIETED = RULES.filter((rule) => rule.name !== 'verbosity');


describe('act: every entry of the rules’ tables', () => {
  test('module-runners: python -m runs each listed tool as the tool itself', () => {
    for (const tool of ['pytest', 'pip', 'mypy', 'ruff', 'black', 'flake8', 'pylint', 'isort', 'tox']) same(`python -m ${tool} check`, `${tool} check`);
    apart('python -m unittest check', 'unittest check');
  });

  test('pager: each trailing pager passes the output through, and each pager variable says so', () => {
    for (const pager of ['cat', 'less', 'more']) same(`git log | ${pager}`, 'git log');
    for (const variable of ['PAGER', 'GIT_PAGER']) {
      same(`${variable}=cat git log`, 'git log');
      same(`${variable}= git log`, 'git log');
    }
    apart('git log | most', 'git log');
    apart('MANPAGER=cat git log', 'git log');
  });

  test('interpreters: each alias names its program', () => {
    const aliases: [string, string][] = [
      ['python3 x.py', 'python x.py'],
      ['python3.12 x.py', 'python x.py'],
      ['pip3 list', 'pip list'],
      ['pip3.11 list', 'pip list'],
      ['py.test -q', 'pytest -q'],
      ['nodejs x.js', 'node x.js'],
    ];
    for (const [alias, program] of aliases) same(alias, program);
  });

  test('cat-pipe: cat of one file feeds each listed reader as its file operand', () => {
    for (const reader of ['head -5', 'tail -5', 'wc -l', 'grep -n error']) same(`cat app.log | ${reader}`, `${reader} app.log`);
    apart('cat app.log | sort', 'sort app.log');
  });

  test('scripts: each manager’s script spellings and run spellings', () => {
    const forms: Record<string, { scripts: Record<string, string>; run: string[] }> = {
      npm: { scripts: { test: 'test', t: 'test', tst: 'test' }, run: ['run-script', 'rum', 'urn'] },
      pnpm: { scripts: { test: 'test', t: 'test', tst: 'test', build: 'build', lint: 'lint', dev: 'dev', format: 'format', typecheck: 'typecheck' }, run: ['run-script'] },
      yarn: { scripts: { test: 'test', build: 'build', lint: 'lint', dev: 'dev', format: 'format', typecheck: 'typecheck' }, run: [] },
    };
    for (const [manager, { scripts, run }] of Object.entries(forms)) {
      for (const [spelling, script] of Object.entries(scripts)) same(`${manager} ${spelling}`, `${manager} run ${script}`);
      for (const spelling of run) same(`${manager} ${spelling} e2e`, `${manager} run e2e`);
    }
    apart('yarn t', 'yarn run test');
    apart('npm build', 'npm run build');
  });

  test('views: a line-count view of each listed run is the run; of its other subcommands it is not', () => {
    const runs = ['pytest', 'tox', 'mypy', 'ruff', 'eslint', 'tsc', 'jest', 'vitest', 'mocha', 'make', 'cmake', 'ctest', 'ninja', 'mvn', 'gradle', 'python x.py', 'node x.js', 'npx jest'];
    for (const run of runs) same(`${run} | tail -20`, run);
    const subcommands: Record<string, string[]> = {
      npm: ['run', 'test', 'install', 'ci', 'exec'],
      pnpm: ['run', 'test', 'install', 'exec'],
      yarn: ['run', 'test', 'install'],
      cargo: ['build', 'test', 'run', 'check', 'clippy'],
      go: ['build', 'test', 'run', 'vet'],
      dotnet: ['build', 'test', 'run'],
    };
    for (const [manager, subs] of Object.entries(subcommands)) {
      for (const sub of subs) same(`${manager} ${sub} x | tail -20`, `${manager} ${sub} x`);
      apart(`${manager} list | tail -20`, `${manager} list`);
    }
    // Each word that makes the program list rather than run: the view stays.
    for (const flag of ['--co', '--collect-only', '--help', '-h', '--version', '-V']) apart(`pytest ${flag} x | head -3`, `pytest ${flag} x`);
    // Where -V is a run all the same.
    for (const program of ['ctest', 'mvn']) same(`${program} -V x | head -3`, `${program} -V x`);
    // Each interpreter's inline-code letters, behind a runner too: the view stays. After any other program the letters are a run's options.
    const inline: [string, string][] = [['python', 'c'], ['python3.12', 'c'], ['node', 'cep'], ['nodejs', 'cep'], ['ruby', 'e'], ['perl', 'eE'], ['bash', 'c'], ['sh', 'c']];
    for (const [interpreter, letters] of inline) {
      for (const letter of letters) apart(`uv run ${interpreter} -${letter} x | head -3`, `uv run ${interpreter} -${letter} x`);
    }
    for (const letter of 'cepE') same(`pytest -${letter} x | head -3`, `pytest -${letter} x`);
    apart('ls | tail -20', 'ls');
  });

  test('streams: each explicit default descriptor is the default, and each write to /dev/null at the end is dropped', () => {
    same('make 1> out.log', 'make > out.log');
    same('make 1>> out.log', 'make >> out.log');
    same('make 1>| out.log', 'make >| out.log');
    same('make 1>&2', 'make >&2');
    same('sort 0< in.txt', 'sort < in.txt');
    same('sort 0<&3', 'sort <&3');
    for (const op of ['>', '>>', '>|', '&>', '&>>']) same(`make ${op} /dev/null`, 'make');
    apart('make 2> out.log', 'make > out.log');
    apart('make >& /dev/null', 'make');
  });

  test('line-count: the value of each valued flag of head and tail is not a count spelling', () => {
    for (const flag of ['-n', '-c', '-s', '--bytes', '--sleep-interval', '--pid']) apart(`tail ${flag} -5 app.log`, `tail ${flag} -n 5 app.log`);
    same('tail -5 app.log', 'tail -n 5 app.log');
  });

  test('directory: each tool’s directory flag, separate and glued, is a cd before it', () => {
    const flags: [string, string[], string[]][] = [
      ['make', ['-C', '--directory'], ['-C', '--directory=']],
      ['git', ['-C'], []],
      ['npm', ['--prefix'], ['--prefix=']],
      ['pnpm', ['-C', '--dir'], ['--dir=']],
      ['yarn', ['--cwd'], ['--cwd=']],
      ['go', ['-C'], ['-C=']],
    ];
    for (const [tool, separate, glued] of flags) {
      const sub = tool === 'make' ? 'all' : tool === 'git' ? 'status' : tool === 'go' ? 'vet' : 'run x';
      for (const flag of separate) same(`${tool} ${flag} web ${sub}`, `cd web && ${tool} ${sub}`);
      for (const flag of glued) same(`${tool} ${flag}web ${sub}`, `cd web && ${tool} ${sub}`);
    }
    same('npm run x --prefix web', 'cd web && npm run x');
    apart('git --work-tree web status', 'cd web && git status');
  });
});

describe('act: every entry of the reader’s tables (lex.ts)', () => {
  test('a line that opens with each reserved word is kept as written', () => {
    for (const reserved of ['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'function', 'select', 'coproc', '!', '{', '}', '[[', ']]']) {
      assert.equal(actOf(`${reserved}  x  ./y`), `${reserved}  x  ./y`, reserved);
    }
    assert.equal(actOf('iff  x  ./y'), 'iff x ./y');
  });

  test('in PowerShell the same words are reserved but select, which is Select-Object there', () => {
    for (const reserved of ['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'function', 'coproc', '!', '{', '}', '[[', ']]']) {
      assert.equal(actOf(`${reserved}  x  ./y`, 'pwsh'), `${reserved}  x  ./y`, reserved);
    }
    assert.equal(actOf('select  x  ./y', 'pwsh'), 'select x ./y');
  });

  test('each word-ending character ends the word, as the shell splits it', () => {
    const split: [string, string][] = [
      [' ', 'echo a b'],
      ['\t', 'echo a b'],
      ['\n', 'echo a; b'],
      ['|', 'echo a | b'],
      ['&', 'echo a & b'],
      [';', 'echo a; b'],
      ['<', 'echo a <b'],
      ['>', 'echo a >b'],
    ];
    for (const [c, act] of split) assert.equal(actOf(`echo  a${c}b`), act, JSON.stringify(c));
    // A parenthesis ends the word too, and a subshell is syntax the reader keeps as written.
    for (const c of ['(', ')']) assert.equal(actOf(`echo  a${c}b`), `echo  a${c}b`);
    assert.equal(actOf('echo  a=b'), 'echo a=b');
  });

  test('a word with each expanding character is not a path the path rule may respell', () => {
    for (const c of ['*', '?', '[', '{', '}', '~']) apart(`cat ./x${c}`, `cat x${c}`);
    same('cat ./xa', 'cat xa');
  });

  test('inside double quotes a backslash escapes each POSIX character, and stays before any other', () => {
    for (const c of ['$', '`', '"', '\\']) same(`echo "a\\${c}b"`, `echo 'a${c}b'`);
    same('echo "a\\\nb"', 'echo ab');
    apart('echo "a\\zb"', "echo 'azb'");
  });
});

/**
 * What act: reads of each command: switch letters | valued letters | long switches | long valued flags.
 * A long switch is written with what it stands for: `--all:a` is `-a`, `--last-failed:--lf` is `--lf`,
 * and a bare `--noreport` stands for itself.
 */
const OPTION_TABLES: Readonly<Record<string, string>> = {
  ls: 'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1 | ITw | --all:a --almost-all:A --human-readable:h --recursive:R --reverse:r --directory:d --inode:i --size:s | ',
  cat: 'AbeEnstTuv |  | --number:n --number-nonblank:b --show-all:A --squeeze-blank:s | ',
  head: 'qvz | nc | --quiet:q --silent:q --verbose:v | --lines --bytes',
  tail: 'fFqvz | ncs | --quiet:q --silent:q --verbose:v | --lines --bytes --sleep-interval --pid',
  wc: 'clmwL |  | --lines:l --words:w --bytes:c --chars:m --max-line-length:L | ',
  du: 'abcDhHklLmPsSx0 | dBtX | --all:a --human-readable:h --summarize:s --total:c | --max-depth --block-size --threshold --exclude-from',
  df: 'ahHiklPTv | Btx | --all:a --human-readable:h --inodes:i --print-type:T | ',
  tree: 'adlfxRpsughDFqNQrtvUcCnJXi | LPIoH | --noreport --dirsfirst --gitignore | ',
  rm: 'dfiIrRv |  | --recursive:r --force:f --verbose:v --dir:d | ',
  mkdir: 'pv | m | --parents:p --verbose:v | --mode',
  touch: 'acfhm | drt |  | ',
  stat: 'Lft | c | --dereference:L --terse:t | --format --printf',
  cd: 'LP |  |  | ',
  diff: 'abBcdeEinNpqrstTuwy | CUDxXWSFIL | --recursive:r --brief:q --new-file:N --ignore-all-space:w --text:a | ',
  grep:
    'EFGPiyvwxcLloqsbHhnTZaIrRUz | efmABCdD | --recursive:r --dereference-recursive:R --ignore-case:i --line-number:n --count:c --files-with-matches:l --files-without-match:L --invert-match:v --word-regexp:w --line-regexp:x --extended-regexp:E --fixed-strings:F --perl-regexp:P --only-matching:o --quiet:q --silent:q --no-messages:s --with-filename:H --no-filename:h --color | --include --exclude --exclude-dir --max-count --context --after-context --before-context --regexp --file',
  rg: 'cFHiIlLnNopqsSuvwxz0ab. | ABCeEfgjmMrtT | --hidden:. --ignore-case:i --smart-case:S --case-sensitive:s --fixed-strings:F --files-with-matches:l --line-number:n --no-line-number:N --count:c --word-regexp:w --no-heading --no-ignore | --glob --type --type-not --max-count --max-depth --context --after-context --before-context --regexp',
  sed: 'nErsuz | efl | --quiet:n --silent:n --regexp-extended:E | ',
  pytest:
    'qvxslh | kmprcoWn | --exitfirst:x --quiet:q --verbose:v --showlocals:l --lf --last-failed:--lf --ff --failed-first:--ff --nf --new-first:--nf --sw --stepwise:--sw --co --collect-only:--co --no-header --no-summary --disable-warnings | --tb --maxfail --rootdir --ignore --deselect --cov --cov-report --durations --capture --log-level --confcutdir --basetemp --import-mode',
  python: 'bBdEiIOqsSuvx | WX |  | ',
  node: ' | r |  | ',
};

function parts(entry: string): [string[], string[], string[], string[]] {
  const [switches = '', valued = '', longs = '', longValued = ''] = entry.split(' | ');
  const words = (text: string): string[] => text.trim().split(/\s+/).filter((w) => w.length > 0);
  return [[...switches.trim()], [...valued.trim()], words(longs), words(longValued)];
}

describe('act: every entry of the option tables (commands.ts)', () => {
  test('the option tables list exactly the commands and flags specified here', () => {
    assert.deepEqual(Object.keys(COMMANDS).sort(), Object.keys(OPTION_TABLES).sort());
  });

  for (const [name, entry] of Object.entries(OPTION_TABLES)) {
    test(`${name}: every listed switch, valued flag and long flag is read`, () => {
      const [switches, valued, longs, longValued] = parts(entry);
      // The operand: a pattern first where the first operand is not a path.
      const spec = COMMANDS[name];
      assert.ok(spec !== undefined, `${name} is not in the option tables`);
      const operand = spec.paths === 'after-first' ? 'pat ./p' : './p';
      const tidy = spec.paths === 'after-first' ? 'pat p' : 'p';
      // Reading the command is what lets the path rule respell `./p`: unread, it stays as written.
      for (const letter of switches) same(`${name} -${letter} ${operand}`, `${name} -${letter} ${tidy}`);
      for (const letter of valued) same(`${name} -${letter} v ${operand}`, `${name} -${letter} v ${tidy}`);
      for (const entry of longs) {
        const [long = '', meaning = ''] = entry.split(':');
        same(`${name} ${long} ${operand}`, `${name} ${long} ${tidy}`);
        // What it stands for: the letter's switch, the long spelling, or (itself) a switch that counts.
        if (meaning.length === 1) same(`${name} ${long} ${operand}`, `${name} -${meaning} ${tidy}`);
        else if (meaning !== '') same(`${name} ${long} ${operand}`, `${name} ${meaning} ${tidy}`);
        // (read without the verbosity rule, which drops pytest's printing switches whatever their spelling)
        else assert.equal(actOf(`${name} ${long} ${operand}`, 'posix', UNQUIETED), `${name} ${long} ${tidy}`);
      }
      for (const long of longValued) {
        same(`${name} ${long} v ${operand}`, `${name} ${long}=v ${tidy}`);
      }
      // Switches are order-free and bundle.
      for (const [a, b] of switches.slice(1).map((b, i) => [switches[i] as string, b] as const)) {
        if (a !== b) same(`${name} -${a} -${b} ${operand}`, `${name} -${b}${a} ${tidy}`);
      }
      // A letter the table does not list leaves the command unread.
      const unknown = [...'jKMyYWk9'].find((c) => !switches.includes(c) && !valued.includes(c) && !(spec.terminal ?? '').includes(c) && !(spec.patternFlags ?? '').includes(c));
      if (unknown !== undefined) apart(`${name} -${unknown} ${operand}`, `${name} -${unknown} ${tidy}`);
    });
  }
});

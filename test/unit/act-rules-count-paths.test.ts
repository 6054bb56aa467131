/**
 * Five `act:` rules held at each of their guards, one command per guard:
 * line-count (where GNU head and tail read `-N` and `--lines` as the count),
 * module-runners (which `python -m` it unwraps), pager (which pagers and
 * no-pager spellings it drops), paths (which words it respells, and how) and
 * quoting (the one quoting it writes). Each expectation was checked against
 * bash 5, GNU coreutils 9.1 (head, tail), git and CPython.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf } from '../../src/lib/shell/act/index.js';
import { paths } from '../../src/lib/shell/act/rules/paths.js';
import { apart, same } from '../support/act.js';

/** The rules leave the command as written (it is already in its canonical spelling). */
const kept = (command: string): void => assert.equal(actOf(command), command);

describe('act rule line-count: -N', () => {
  test('head reads -N as the count only as its first argument; anywhere else it is an error', () => {
    // `head -q -5 f`: "invalid trailing option -- 5".
    apart('head -q -5 app.py', 'head -q -n 5 app.py');
    same('head -5 -q app.py', 'head -n 5 -q app.py');
    // head takes any number of files after it.
    same('head -5 a.log b.log', 'head -n 5 a.log b.log');
  });

  test('tail reads -N as the count only with at most one file after it', () => {
    same('tail -5', 'tail -n 5');
    same('tail -5 -', 'tail -n 5 -');
    same('tail -5 build-', 'tail -n 5 build-');
    same('tail -5 --', 'tail -n 5 --');
    same('tail -5 -- app.log', 'tail -n 5 -- app.log');
    // "option used in invalid context -- 5": two files, or an option after the count.
    apart('tail -5 a.log b.log', 'tail -n 5 a.log b.log');
    apart('tail -5 -- a.log b.log', 'tail -n 5 -- a.log b.log');
    apart('tail -5 -f', 'tail -n 5 -f');
    // A word that expands may be an option, or several files.
    kept('tail -5 "$f"');
  });

  test('only a dash and digits: -5c counts bytes, -v is a switch, - and notes-2 are files', () => {
    apart('head -5c app.py', 'head -5 app.py');
    kept('head -v app.py');
    kept('head - app.py');
    kept('head notes-2');
  });

  test('only head and tail: ls -1 is one name per line', () => {
    apart('ls -1 src', 'ls -n 1 src');
    kept('ls -1 src');
  });
});

describe('act rule line-count: --lines', () => {
  test('--lines=N and --lines N are the count wherever they stand before --', () => {
    same('head --lines=5 app.py', 'head -n 5 app.py');
    same('head -q --lines=5 app.py', 'head -q -n 5 app.py');
    same('tail --lines 5 app.py', 'tail -n 5 app.py');
  });

  test('an empty count, or one ending in a newline, is no count', () => {
    kept('head --lines= app.py');
    apart('head "--lines=5\n" app.py', 'head -n 5 app.py');
  });

  test('after -- every word is a file, and ./--lines=5 is a file too', () => {
    kept('head -- --lines=5');
    kept('head ./--lines=5');
  });

  test('a flag’s value is the flag’s, even when it is spelled like a count', () => {
    for (const [name, flag] of [['head', '-n'], ['head', '-c'], ['head', '--bytes'], ['tail', '-s'], ['tail', '--sleep-interval'], ['tail', '--pid']]) {
      apart(`${name} ${flag} --lines=5 app.log`, `${name} ${flag} -n 5 app.log`);
    }
  });

  test('a flag with no word after it, or a word that expands, is left as written', () => {
    kept('head');
    kept('head -n');
    kept('head --lines');
    kept('head "$f"');
  });
});

describe('act rule module-runners', () => {
  test('only python itself: a venv’s interpreter runs the venv’s pytest', () => {
    apart('.venv/bin/python -m pytest', 'pytest');
    kept('.venv/bin/python -m pytest');
  });

  test('only a listed runner: another module is left with its interpreter', () => {
    kept('python -m http.server 8000');
    kept('python -m unittest');
  });

  test('a script whose name ends like a runner is a script', () => {
    apart('python ./tox', 'tox');
    assert.equal(actOf('python ./tox'), 'python tox');
  });

  test('every listed runner is its console script', () => {
    for (const runner of ['pytest', 'pip', 'mypy', 'ruff', 'black', 'flake8', 'pylint', 'isort', 'tox']) {
      same(`python -m ${runner} src`, `${runner} src`);
    }
  });

  test('the runner keeps its arguments, after -m pytest as after -mpytest', () => {
    assert.equal(actOf('python -m pytest -x tests'), 'pytest -x tests');
    assert.equal(actOf('python -mpytest -x tests'), 'pytest -x tests');
  });

  test('python alone, -m with no module, or a word that expands, is left as written', () => {
    kept('python');
    kept('python -m');
    kept('python "$script"');
  });
});

describe('act rule pager: no-pager spellings', () => {
  test('PAGER=cat and an empty GIT_PAGER say no pager, as GIT_PAGER=cat does', () => {
    same('PAGER=cat git log', 'git log');
    same('GIT_PAGER= git log', 'git log');
  });

  test('only the no-pager assignments go; the others stay with the command', () => {
    same('CI=1 GIT_PAGER=cat git log', 'CI=1 git log');
    apart('CI=1 GIT_PAGER=cat git log', 'git log');
  });

  test('a pager variable naming a program, another variable set to cat or nothing, or one that expands, is kept', () => {
    apart('GIT_PAGER=less git log', 'git log');
    apart('CI= npm test', 'npm test');
    apart('EDITOR=cat git commit', 'git commit');
    kept('GIT_PAGER=$P git log');
  });

  test('git --no-pager and git -P say no pager', () => {
    same('git --no-pager log', 'git log');
    same('git -P log', 'git log');
  });

  test('-P is no-pager only for git: grep -P reads Perl regular expressions', () => {
    apart("grep -P '\\d+' app.log", "grep '\\d+' app.log");
    kept("grep -P '\\d+' app.log");
  });
});

describe('act rule pager: trailing pagers', () => {
  test('a pager with an assignment before it may be another program: kept', () => {
    kept('git log | PATH=/opt/bin less');
  });

  test('a pager with an argument or a redirection is a command of its own: kept', () => {
    kept('git log | cat -n');
    kept('git log | cat >log.txt');
  });

  test('every bare pager at the end goes, and only those: never another command, never the first', () => {
    assert.equal(actOf('git log | less | cat'), 'git log');
    assert.equal(actOf('git log | more'), 'git log');
    assert.equal(actOf('git log | grep fix | cat'), 'git log | grep fix');
    kept('less');
  });
});

describe('act rule paths: which words are paths', () => {
  test('an empty name and a lone dash are not paths: cat - reads its input', () => {
    apart("cat ''", 'cat .');
    apart('cat -', 'cat ./-');
    kept('cat -');
  });

  test('a word with a colon is left as written outside a pytest node id', () => {
    kept('cat ./notes::v2.txt');
    // A redirection's target is never read as a node id.
    kept('echo done >./notes::v2.txt');
    same('pytest ./tests/a.py::test_x', 'pytest tests/a.py::test_x');
    // The node id keeps its test: two tests of one file are two actions.
    assert.equal(actOf('pytest ./tests/a.py::test_x'), 'pytest tests/a.py::test_x');
    apart('pytest tests/a.py::test_x', 'pytest tests/a.py::test_y');
    // A node id with no :: is a path like any other.
    same('pytest ./tests/unit/', 'pytest tests/unit');
  });

  test('a descriptor copy’s target is a number, never a path: >&./1 writes a file, >&1 copies', () => {
    apart('make >&./1', 'make >&1');
    apart('make <&./3', 'make <&3');
  });

  test('an operand that is a pattern or script text is not a path', () => {
    assert.equal(actOf('sed s/a//g ./f.txt'), 'sed s/a//g f.txt');
  });

  test('a word that expands is kept as written, as an operand or a target', () => {
    kept('cat "$f"');
    kept('echo hi >"$LOG"');
  });

  test('a command whose options act: cannot read keeps its operands; its redirections are respelled', () => {
    assert.equal(actOf('cat --bogus ./a.txt > ./out.txt'), 'cat --bogus ./a.txt >out.txt');
    assert.equal(actOf('./run.sh ./a.txt > ./out.txt'), './run.sh ./a.txt >out.txt');
  });
});

describe('act rule paths: the one spelling', () => {
  test('a relative path loses its ./, unless it would start with a dash', () => {
    assert.equal(actOf('cat ./src/app.py'), 'cat src/app.py');
    assert.equal(actOf('cat ./notes-'), 'cat notes-');
    kept('rm ./-rf');
  });

  test('an absolute path keeps its root', () => {
    apart('cat /etc/hosts', 'cat etc/hosts');
    assert.equal(actOf('cd /repo/ && make'), 'cd /repo && make');
  });

  test('a path already in its one spelling keeps its text: its quoting is the quoting rule’s to fold', () => {
    assert.equal(actOf("cat 'src/app.py'", 'posix', [paths]), "cat 'src/app.py'");
    assert.equal(actOf("cat './src/app.py'", 'posix', [paths]), 'cat src/app.py');
  });

  test('the current directory is .', () => {
    assert.equal(actOf('ls ./'), 'ls .');
    same('ls ./', 'ls .');
  });
});

describe('act rule quoting', () => {
  test('a literal word comes out bare when it can, the command name and an a=b argument too', () => {
    assert.equal(actOf("grep -n 'TODO' src"), 'grep -n TODO src');
    assert.equal(actOf('"make" "CC=gcc"'), 'make CC=gcc');
  });

  test('a quoted command name that looks like an assignment stays quoted, its quotes escaped', () => {
    kept("'A=1' make");
    assert.equal(actOf(`"A='1'" make`), `'A='\\''1'\\''' make`);
  });

  test('an assignment keeps its name and = and gets its value requoted', () => {
    assert.equal(actOf('CI="1" npm run test'), 'CI=1 npm run test');
    assert.equal(actOf('MSG="a b" make'), "MSG='a b' make");
  });

  test('a word or assignment that expands is kept as written', () => {
    kept('echo $HOME');
    kept('A=$x make');
  });

  test('a redirection target that looks like an assignment is a file name: bare', () => {
    assert.equal(actOf("echo done > 'A=1.txt'"), 'echo done >A=1.txt');
    // >& writes stdout and stderr to a file that is not a descriptor: the paths rule leaves it to this one.
    assert.equal(actOf("make >& 'A=1.log'"), 'make >&A=1.log');
  });
});

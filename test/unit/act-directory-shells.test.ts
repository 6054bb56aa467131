/**
 * Three `act:` rules held at each of their guards, one command per guard: the
 * directory rule (which redirections mean the same from any directory, which
 * command of the line it moves a directory flag off), inline-shell (which
 * `bash -c` lines it unwraps) and interpreters (which names it reads). Each
 * expected outcome is what bash does with the two spellings.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf } from '../../src/lib/shell/act/index.js';
import { apart, same } from '../support/act.js';


describe('act rule directory: redirections on the moved command', () => {
  test('a descriptor copy means the same from any directory', () => {
    same('make -C /repo test >/tmp/test.log 2>&1', 'cd /repo && make test >/tmp/test.log 2>&1');
    same('make -C /repo test >/tmp/test.log 2>&10', 'cd /repo && make test >/tmp/test.log 2>&10');
    same('make -C /repo test <&3', 'cd /repo && make test <&3');
  });

  test('closing a descriptor means the same from any directory', () => {
    same('make -C /repo test <&-', 'cd /repo && make test <&-');
    same('make -C /repo test >/tmp/test.log 2>&-', 'cd /repo && make test >/tmp/test.log 2>&-');
  });

  test('a redirection to an absolute path writes the same file from any directory', () => {
    same('make -C sub test >/tmp/test.log', 'cd sub && make test >/tmp/test.log');
    same('make -C sub test >&/tmp/test.log', 'cd sub && make test >&/tmp/test.log');
  });

  test('bash reads >& before a word that is not a descriptor as a file to write, relative to the directory', () => {
    // `make -C sub test >&test.log` writes ./test.log; after `cd sub`, sub/test.log.
    apart('make -C sub test >&test.log', 'cd sub && make test >&test.log');
    apart('make -C sub test >&1.log', 'cd sub && make test >&1.log');
    apart('make -C sub test >&run1', 'cd sub && make test >&run1');
  });

  test('a redirection whose target expands may name a relative file', () => {
    apart('make -C sub test >$LOG', 'cd sub && make test >$LOG');
    apart('make -C sub test >&$LOG', 'cd sub && make test >&$LOG');
    assert.equal(actOf('make -C sub test >"$LOG"'), 'make -C sub test >"$LOG"');
  });

  test('a redirection to a relative path is left with the directory flag', () => {
    apart('make -C sub test <input.txt', 'cd sub && make test <input.txt');
    apart('make -C sub test 2>err.log', 'cd sub && make test 2>err.log');
  });

  test('only >& and <& copy a descriptor: 2>1 writes a file named 1', () => {
    apart('make -C sub test 2>1', 'cd sub && make test 2>1');
    apart('make -C sub test <0', 'cd sub && make test <0');
  });

  test('an empty word after >& names no descriptor', () => {
    // bash fails on it ("Bad file descriptor"); the line is left as written.
    assert.equal(actOf("make -C sub test >&''"), "make -C sub test >&''");
  });
});

describe('act rule directory: which command is moved', () => {
  test('the other commands of the last pipeline are kept', () => {
    apart('make -C /repo test | grep FAIL', 'make -C /repo test | grep PASS');
    assert.equal(actOf('make -C /repo test | grep FAIL'), 'make -C /repo test | grep FAIL');
  });

  test('after a job sent to the background the cd runs in the shell, as the flag would', () => {
    // `a & cd d && make` is `a &` then `cd d && make`: the job was forked before the cd.
    same('npm start & make -C e2e test', 'npm start & cd e2e && make test');
    same('npm start & git -C /repo status', 'npm start & cd /repo && git status');
  });

  test('after || the cd would group with the command before it, so the flag stays', () => {
    // `a || cd d && make` is `(a || cd d) && make`: when a succeeds, make runs here.
    apart('git pull || make -C /repo test', 'git pull || cd /repo && make test');
    assert.equal(actOf('git pull || make -C /repo test'), 'git pull || make -C /repo test');
  });

  test('after && or ; the command is moved as when it stands alone', () => {
    same('git pull && make -C /repo test', 'git pull && cd /repo && make test');
    same('git pull; make -C /repo test', 'git pull; cd /repo && make test');
  });
});

describe('act rule inline-shell: which bash -c lines are unwrapped', () => {
  test('a bash -c sent to the background is not read as the same command in the foreground', () => {
    apart('bash -c "make test" &', 'make test');
    assert.equal(actOf('bash -c "make test" &'), "bash -c 'make test' &");
  });

  test('a bash -c followed by another command keeps that command', () => {
    apart('bash -c "make test"; ls', 'make test');
    apart('bash -c "make test" && ls', 'make test');
  });

  test('an assignment before bash -c reaches the inner command, so it is not dropped', () => {
    apart('CI=1 bash -c "make test"', 'make test');
    assert.equal(actOf('CI=1 bash -c "make test"'), "CI=1 bash -c 'make test'");
  });

  test('the string is read as bash reads it: its assignments are assignments', () => {
    same('bash -c "CI=1 python3 -m pytest"', 'CI=1 python -m pytest');
    assert.equal(actOf('bash -c "CI=1 python3 -m pytest"', 'pwsh'), actOf('CI=1 python -m pytest'));
  });

  test('bash without -c, or with -c but no literal script, is left as written', () => {
    assert.equal(actOf('bash -x script.sh'), 'bash -x script.sh');
    assert.equal(actOf('bash -c $CMD arg'), 'bash -c $CMD arg');
    assert.equal(actOf('bash -c "$CMD"'), 'bash -c "$CMD"');
    assert.equal(actOf('$SHELL -c "make test"'), "$SHELL -c 'make test'");
    assert.equal(actOf('bash "make test" -c'), "bash 'make test' -c");
  });

  test('a bash -c inside a bash -c is unwrapped too: what comes out is read again from the first rule', () => {
    same(`bash -c "bash -c 'pytest -q'"`, 'pytest -q');
  });
});

describe('act rule interpreters: which names are read', () => {
  test('a command with no name, only an assignment or a redirection, is left as written', () => {
    assert.equal(actOf('CI=1'), 'CI=1');
    assert.equal(actOf('>out.txt'), '>out.txt');
    assert.equal(actOf('python3 x.py; >out.txt'), 'python x.py; >out.txt');
  });

  test('a name that expands is left as written', () => {
    assert.equal(actOf('$PYTHON x.py'), '$PYTHON x.py');
    apart('$PYTHON x.py', 'python x.py');
  });

  test('names of up to 16 characters are read; a longer version is no interpreter an agent has', () => {
    same('python3.12345678 x.py', 'python x.py');
    apart('python3.123456789 x.py', 'python x.py');
    same('pip3.12345678901 install requests', 'pip install requests');
    apart('pip3.123456789012 install requests', 'pip install requests');
  });

  test('only the whole name is an alias: a program whose name contains one is another program', () => {
    apart('pipx install black', 'pip install black');
    apart('micropip3 install black', 'pip install black');
    apart('pip3x install black', 'pip install black');
    apart('py.test3 tests', 'pytest tests');
    apart('ipy.test tests', 'pytest tests');
    apart('nodejs-dev app.js', 'node app.js');
    apart('mynodejs app.js', 'node app.js');
    apart('python3x x.py', 'python x.py');
    apart('bpython3 x.py', 'python x.py');
    same('py.test tests', 'pytest tests');
    same('nodejs app.js', 'node app.js');
  });
});

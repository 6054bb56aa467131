/**
 * Four `act:` rules held at each of their guards, one command per guard:
 * `scripts` (which package-manager subcommands run a script), `streams` (which
 * redirections only change what is read, and which write a file or change
 * what runs), `views` (which programs' output is a run, and which `head` or
 * `tail` only cuts it), and `switches` (the canonical order of a known
 * command's flags and `--`). Each entry of their tables is held in
 * act-tables.test.ts. Each expectation was checked against bash 5, GNU
 * coreutils and npm/pnpm/yarn's documented aliases.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf } from '../../src/lib/shell/act/index.js';
import { apart, same } from '../support/act.js';


describe('act rule scripts: the subcommands that run a script', () => {
  test('run with no script after it lists the scripts, however it is spelled', () => {
    assert.equal(actOf('npm run-script'), 'npm run');
    assert.equal(actOf('pnpm run-script'), 'pnpm run');
  });

  test('a manager alone, or a subcommand or manager the shell expands, is left as written', () => {
    assert.equal(actOf('npm'), 'npm');
    assert.equal(actOf('npm $TASK'), 'npm $TASK');
    assert.equal(actOf('$PM test'), '$PM test');
    apart('npm $TASK', 'npm run $TASK');
  });

  test('a command with no words is read: a line of only a redirection stays as it is', () => {
    assert.equal(actOf('>/dev/null'), '>/dev/null');
    assert.equal(actOf('2>&1'), '2>&1');
  });
});

describe('act rule streams: descriptors written the default way', () => {
  test('another descriptor keeps its number', () => {
    assert.equal(actOf('make build 1>a.log 2>b.log'), 'make build >a.log 2>b.log');
  });
});

describe('act rule streams: the plumbing it drops from the last command', () => {
  test('stderr appended to /dev/null is dropped', () => {
    same('make build 2>>/dev/null', 'make build');
  });

  test('a redirection that only reads stays while the plumbing goes', () => {
    assert.equal(actOf('make build <input.txt 2>&1'), 'make build <input.txt');
  });

  test('the commands before the last one of the pipeline stay as they are', () => {
    assert.equal(actOf('make build | grep error | tee build.log 2>/dev/null'), 'make build | grep error | tee build.log');
  });

  test('copying a descriptor to stdout is dropped only for stderr: 3>&1 gives the command a descriptor', () => {
    apart('make build 3>&1', 'make build');
  });

  test('2>1 writes a file named 1, and 2>&3 fails when 3 is not open: neither is plumbing', () => {
    apart('make build 2>1', 'make build');
    apart('make build 2>&3', 'make build');
  });

  test('/dev/null as input, or on another descriptor than stdout and stderr, changes what runs', () => {
    apart('make build </dev/null', 'make build');
    apart('make build 3>/dev/null', 'make build');
  });

  test('2>&/dev/null is an ambiguous redirect in bash: the command does not run, so it is kept', () => {
    apart('make build 2>&/dev/null', 'make build');
  });
});

describe('act rule streams: the writes that keep the plumbing', () => {
  test('bare >& before a file writes stdout and stderr there: 2>/dev/null changes the file', () => {
    apart('make build >&build.log 2>/dev/null', 'make build >&build.log');
    apart('make build 1>&build.log 2>/dev/null', 'make build 1>&build.log');
    apart('make build >&x1 2>/dev/null', 'make build >&x1');
    apart('make build >&1x 2>/dev/null', 'make build >&1x');
  });

  test('a >& target that expands may be a file: the plumbing is kept', () => {
    apart('make build >&$LOG 2>/dev/null', 'make build >&$LOG');
  });

  test('>& to a descriptor, or closing stdout, writes no file: the plumbing goes', () => {
    same('make build >&2 2>/dev/null', 'make build >&2');
    same('make build >&10 2>/dev/null', 'make build >&10');
    same('make build >&- 2>/dev/null', 'make build >&-');
  });
});

describe('act rule views: the runs whose views it drops', () => {
  test('a manager’s test subcommand after its directory flag is a run (before scripts names it run test)', () => {
    same('npm --prefix web test | tail -5', 'npm --prefix web test');
    same('pnpm -C web test | tail -5', 'pnpm -C web test');
    same('yarn --cwd web test | tail -5', 'yarn --cwd web test');
  });

  test('a project script by relative path is a run', () => {
    same('scripts/check.py | tail -5', 'scripts/check.py');
  });

  test('a program by absolute path, a manager alone or another subcommand, and a name that expands are no run', () => {
    apart('/bin/ls -t | head -1', '/bin/ls -t | tail -1');
    apart('npm | head -5', 'npm | tail -5');
    apart('cargo tree | head -5', 'cargo tree | tail -5');
    apart('$RUNNER | head -5', '$RUNNER | tail -5');
  });

  test('a view in an earlier pipeline stays: its exit status, not the run’s, decides what follows', () => {
    apart('pytest | tail -5 && echo done', 'pytest && echo done');
    assert.equal(actOf('pytest | tail -5 && echo done'), 'pytest | tail -n 5 && echo done');
  });
});

describe('act rule views: the head or tail it drops', () => {
  test('every spelling of a line count is a view', () => {
    for (const view of ['head', 'tail -20', 'head -n5', 'tail --lines=20', 'tail --lines 20', 'head -n 5']) same(`pytest | ${view}`, 'pytest');
  });

  test('another program after the run is no view, nor is a head after it', () => {
    apart('pytest | sort', 'pytest');
    apart('pytest | grep FAIL | head', 'pytest');
  });

  test('a head or tail with an assignment or a redirection is no view: another tail may run, or a file is written', () => {
    apart('pytest | PATH=/opt/bin tail -5', 'pytest');
    apart('pytest | tail -5 >last.log', 'pytest');
  });

  test('a tail that reads a file prints the file, not the run', () => {
    apart('pytest | tail -n 5 app.log', 'pytest');
    apart('pytest | tail app-20', 'pytest');
  });

  test('a byte count, an invalid count or a count that expands is no line count', () => {
    apart('pytest | tail -c 100', 'pytest');
    apart('pytest | head -5c', 'pytest');
    apart('pytest | tail -n 20x', 'pytest');
    apart('pytest | tail -n x20', 'pytest');
    apart('pytest | tail $N', 'pytest');
    apart('pytest | tail -n $N', 'pytest');
  });
});

describe('act rule switches: the canonical order', () => {
  test('a command with no switch gets no lone dash', () => {
    assert.equal(actOf('ls /tmp'), 'ls /tmp');
  });

  test('long switches that stand for themselves are sorted, and kept', () => {
    same('tree --noreport --dirsfirst src', 'tree --dirsfirst --noreport src');
    apart('tree --noreport src', 'tree src');
  });

  test('a -- stays where it was among the operands, and after the last one', () => {
    assert.equal(actOf('grep -- -v app.log'), 'grep -- -v app.log');
    assert.equal(actOf('grep -n -- error app.log'), 'grep -n -- error app.log');
    assert.equal(actOf('pytest tests --'), 'pytest tests --');
  });
});

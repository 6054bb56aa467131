/**
 * Two `act:` rules, each guard on its own: `cat-pipe` folds `cat f | reader`
 * into `reader f` only when the shell would run the same thing (one plain
 * file, a cat with nothing else to it, a reader that reads its input as it
 * reads a file), and `assignments` unwraps `env` and sorts literal assignments
 * only where the environment the command gets stays the same. Each
 * expectation was checked against bash 5 and GNU coreutils and grep.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf } from '../../src/lib/shell/act/index.js';
import { apart, same } from '../support/act.js';

/** The cat is still there, piped into its reader: the rule left the pipeline as it was. */
const unfolded = (command: string): void => assert.match(actOf(command), /\bcat\b.* \| /, command);

describe('act rule cat-pipe: the cat it folds', () => {
  test('only cat: another program of one file is not a cat', () => {
    apart('tac app.log | head -5', 'head -5 app.log');
    assert.equal(actOf('tac app.log | head -5'), 'tac app.log | head -n 5');
  });

  test('cat of two files is one stream, not the first file', () => {
    apart('cat a.txt b.txt | head -5', 'head -5 a.txt');
    unfolded('cat a.txt b.txt | head -5');
  });

  test('cat with nothing to read reads its input: it is left as written', () => {
    assert.equal(actOf('cat | head -5'), 'cat | head -n 5');
  });

  test('cat with no reader after it is left as written', () => {
    assert.equal(actOf('cat app.log'), 'cat app.log');
    assert.equal(actOf('cat app.log && head -5 app.log'), 'cat app.log && head -n 5 app.log');
  });

  test('cat with an assignment before it is not folded into its reader', () => {
    // `PATH=… cat` may run another cat; the assignment would be lost with it.
    apart('LC_ALL=C cat app.log | grep error', 'grep error app.log');
    unfolded('LC_ALL=C cat app.log | grep error');
  });

  test('cat with a redirection is not folded: its errors, or its input, would go elsewhere', () => {
    unfolded('cat app.log 2>err.txt | head -5');
    unfolded('cat app.log |& head -5');
    apart('cat app.log 2>err.txt | head -5', 'head -5 app.log 2>err.txt');
  });

  test('a word the shell expands may be several files or an option: not folded', () => {
    unfolded('cat "$f" | head -5');
    unfolded('cat *.log | head -5');
    unfolded('cat $f | head -5');
  });

  test('an empty file name is no plain file: not folded', () => {
    unfolded("cat '' | head -5");
    apart("cat '' | head -5", "head -5 ''");
  });

  test('an option or a lone dash is not a file: cat -n, cat --help and cat - are left as written', () => {
    unfolded('cat -n | head -5');
    unfolded('cat --help | head -5');
    unfolded('cat - | head -5');
  });

  test('a file whose name only ends with a dash is a file', () => {
    same('cat a- | head -5', 'head -5 a-');
    same('cat ./-n | head -5', 'head -5 ./-n');
  });
});

describe('act rule cat-pipe: the reader it feeds', () => {
  test('each reader with no option that reads otherwise takes the file', () => {
    same('cat app.log | head -5', 'head -5 app.log');
    same('cat app.log | tail -n 5', 'tail -n 5 app.log');
    same('cat app.log | wc -l', 'wc -l app.log');
    same('cat app.log | wc -w', 'wc -w app.log');
    same('cat app.log | head -qv', 'head -qv app.log');
    same('cat app.log | grep -n error', 'grep -n error app.log');
    same('cat app.log | grep -Fn error', 'grep -Fn error app.log');
    same('cat app.log | grep -e error', 'grep -e error app.log');
    same('cat app.log | LC_ALL=C grep error', 'LC_ALL=C grep error app.log');
    // Only the first two commands fold; the rest of the pipeline stays.
    same('cat app.log | head -5 | wc -l', 'head -5 app.log | wc -l');
  });

  test('a command that is not a reader is not fed: ls lists the directory, not its input', () => {
    apart('cat dirs.txt | ls', 'ls dirs.txt');
    apart('cat dirs.txt | ls -l', 'ls -l dirs.txt');
    unfolded('cat app.log | sort');
    unfolded('cat app.log | $PAGER');
  });

  test('a reader given its input by < or <& reads that, not the pipe: not folded', () => {
    unfolded('cat a.log | head -5 <b.log');
    unfolded('cat a.log | head -5 <&3');
    unfolded('cat a.log | head -5 0<b.log');
  });

  test('a reader whose standard input is redirected otherwise (0>&-, 0>f) does not read the pipe: not folded', () => {
    unfolded('cat a.log | head -5 0>&-');
    unfolded('cat a.log | head -5 0>f');
  });

  test('a reader that writes elsewhere still reads the pipe: folded with its redirection', () => {
    same('cat a.log | head -5 >out.txt', 'head -5 a.log >out.txt');
    same('cat a.log | head -5 2>err.txt', 'head -5 a.log 2>err.txt');
    same('cat a.log | grep error 2>&1 >out.txt', 'grep error a.log 2>&1 >out.txt');
  });

  test('a recursive grep with no file searches the working directory: not folded', () => {
    unfolded('cat app.log | grep -r error');
    unfolded('cat app.log | grep -R error');
    unfolded('cat app.log | grep -rn error');
    unfolded('cat app.log | grep -nR error');
    unfolded('cat app.log | grep --recursive error');
    unfolded('cat app.log | grep --dereference-recursive error');
    unfolded('cat app.log | grep -d recurse error');
    unfolded('cat app.log | grep --directories=recurse error');
  });

  test('a grep that picks its files by name may skip the file, never its input: not folded', () => {
    unfolded("cat app.log | grep --include='*.py' error");
    unfolded('cat app.log | grep --exclude=app.log error');
    unfolded('cat app.log | grep --exclude app.log error');
    unfolded('cat app.log | grep --exclude-from=skip.txt error');
  });

  test('a following tail never ends on a file, but ends with its pipe: not folded', () => {
    unfolded('cat app.log | tail -f');
    unfolded('cat app.log | tail -F');
    unfolded('cat app.log | tail -fn5');
    unfolded('cat app.log | tail --follow=name');
    // Another reader's F is not a follow: grep -F is fixed strings.
    same('cat app.log | grep -F error', 'grep -F error app.log');
  });

  test('wc reading its file names from a list takes no file operand: not folded', () => {
    unfolded('cat app.log | wc -l --files0-from=list');
  });

  test('a reader that already has a file operand reads that file, not the pipe: not folded', () => {
    unfolded('cat app.log | head -5 other.log');
    unfolded('cat app.log | grep error other.log');
    unfolded('cat app.log | grep -e error other.log');
  });

  test('grep with no pattern would take the file as its pattern: not folded', () => {
    unfolded('cat app.log | grep');
    unfolded('cat app.log | grep -n');
  });

  test('a reader with an option act: does not know is not read, so not folded', () => {
    unfolded('cat app.log | tail --retry');
    unfolded('cat app.log | head --unknown-flag');
  });

  test('a reader whose option value expands still takes the file', () => {
    same('cat app.log | head -n "$N"', 'head -n "$N" app.log');
  });
});

describe('act rule assignments: env', () => {
  test('env with options, or an option after its assignments, stays env', () => {
    assert.equal(actOf('env -i make test'), 'env -i make test');
    assert.equal(actOf('env A=1 -u B make'), 'env A=1 -u B make');
    apart('env -- make', 'make');
  });

  test('a command name ending with a dash is a command: env before it unwraps', () => {
    same('env A=1 run-', 'A=1 run-');
  });

  test('env with only assignments runs nothing more: it stays env', () => {
    assert.equal(actOf('env A=1'), 'env A=1');
    apart('env A=1', 'A=1');
  });

  test('env with an expanding assignment or command is not unwrapped: env would split the words the shell does not', () => {
    // With x='1 B=2', env sees A=1 and B=2; the shell's own A=$x keeps the value whole.
    apart('env A=$x make', 'A=$x make');
    assert.equal(actOf('env A=$x make'), 'env A=$x make');
    // `$cmd` may be an option of env.
    assert.equal(actOf('env A=1 $cmd'), 'env A=1 $cmd');
  });

  test('env is unwrapped only as the command name, not as an argument', () => {
    apart('echo env A=1 make', 'echo A=1 make');
  });
});

describe('act rule assignments: the order of literal assignments', () => {
  test('assignments are sorted by name, and come out in that order', () => {
    assert.equal(actOf('B=1 A=2 make'), 'A=2 B=1 make');
    assert.equal(actOf('C=3 B=2 A=1 make'), 'A=1 B=2 C=3 make');
    assert.equal(actOf('CI=1 NODE_ENV=test make test'), 'CI=1 NODE_ENV=test make test');
  });

  test('sorted by the name alone: A comes before A0 whatever the values', () => {
    assert.equal(actOf('A0=1 A=1 make'), 'A=1 A0=1 make');
    assert.equal(actOf('A=1 A0=1 make'), 'A=1 A0=1 make');
  });

  test('the same name twice keeps its order: the last one is the value the command gets', () => {
    assert.equal(actOf('A=1 A=2 make'), 'A=1 A=2 make');
    assert.equal(actOf('A=2 A=1 make'), 'A=2 A=1 make');
    apart('A=1 A=2 make', 'A=2 A=1 make');
    assert.equal(actOf('B=0 A=1 A=2 make'), 'A=1 A=2 B=0 make');
  });

  test('assignments with no command are sorted too; a line that is only a redirection is read', () => {
    same('B=2 A=1', 'A=1 B=2');
    assert.equal(actOf('>out.txt'), '>out.txt');
  });

  test('one assignment that expands keeps them all in place', () => {
    assert.equal(actOf('B=$A A=1 make'), 'B=$A A=1 make');
  });
});

/**
 * The `act:` reader's lexer and parser (lex.ts), by behaviour: how a line is
 * split into words, operators and redirections, what quoting and escapes leave
 * of a word, what the PowerShell dialect reads differently, and what the reader
 * gives up on (`readLine` returns `null`, and the command is kept as written).
 * The rule suites reach the reader through whole commands; here its structure
 * is pinned directly.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf } from '../../src/lib/shell/act/index.js';
import { readLine } from '../../src/lib/shell/act/line.js';
import type { Dialect } from '../../src/lib/shell/lex.js';
import type { Command, Line, Word } from '../../src/lib/shell/act/syntax.js';

function read(command: string, dialect: Dialect = 'posix'): Line {
  const line = readLine(command, dialect);
  assert.ok(line !== null, `${JSON.stringify(command)} should be read`);
  return line;
}

/** The one simple command of a line that has one. */
function only(command: string, dialect: Dialect = 'posix'): Command {
  const line = read(command, dialect);
  assert.equal(line.pipelines.length, 1, command);
  const [pipeline] = line.pipelines;
  assert.equal(pipeline?.length, 1, command);
  return pipeline?.[0] as Command;
}

/** The words of a one-command line, each as `[text, value]`. */
function wordsOf(command: string, dialect: Dialect = 'posix'): [string, string | null][] {
  return only(command, dialect).words.map((w: Word) => [w.text, w.value]);
}

function unread(command: string, dialect: Dialect = 'posix'): void {
  assert.equal(readLine(command, dialect), null, `${JSON.stringify(command)} should be kept as written`);
}

describe('act: the lexer reads words as the shell does', () => {
  test('a lone backslash at the end of the line is itself', () => {
    assert.deepEqual(wordsOf('echo a\\'), [
      ['echo', 'echo'],
      ['a\\', 'a\\'],
    ]);
    assert.deepEqual(wordsOf('echo \\'), [
      ['echo', 'echo'],
      ['\\', '\\'],
    ]);
  });

  test('a backslash-newline inside a word joins its two halves', () => {
    assert.deepEqual(wordsOf('echo a\\\nb'), [
      ['echo', 'echo'],
      ['a\\\nb', 'ab'],
    ]);
  });

  test('adjacent quoted pieces make one word (POSIX)', () => {
    assert.deepEqual(wordsOf("echo 'a''b'"), [
      ['echo', 'echo'],
      ["'a''b'", 'ab'],
    ]);
    assert.deepEqual(wordsOf('echo "a""b"'), [
      ['echo', 'echo'],
      ['"a""b"', 'ab'],
    ]);
    assert.deepEqual(wordsOf('echo a"b"\'c\'d'), [
      ['echo', 'echo'],
      ['a"b"\'c\'d', 'abcd'],
    ]);
  });

  test('inside double quotes a backslash escapes only $ ` " \\ and newline (POSIX), and stays before anything else', () => {
    assert.deepEqual(wordsOf('echo "a\\"b"'), [
      ['echo', 'echo'],
      ['"a\\"b"', 'a"b'],
    ]);
    assert.deepEqual(wordsOf('echo "a\\\\b"'), [
      ['echo', 'echo'],
      ['"a\\\\b"', 'a\\b'],
    ]);
    assert.deepEqual(wordsOf('echo "a\\\nb"'), [
      ['echo', 'echo'],
      ['"a\\\nb"', 'ab'],
    ]);
    assert.deepEqual(wordsOf('echo "a\\zb"'), [
      ['echo', 'echo'],
      ['"a\\zb"', 'a\\zb'],
    ]);
    unread('echo "a\\');
  });

  test('a line may open with an empty quoted word', () => {
    assert.deepEqual(wordsOf("'' x"), [
      ["''", ''],
      ['x', 'x'],
    ]);
    assert.deepEqual(wordsOf('"" x'), [
      ['""', ''],
      ['x', 'x'],
    ]);
  });

  test('a # inside a word is part of it; only a word that starts with # is a comment', () => {
    assert.deepEqual(wordsOf('echo a#b'), [
      ['echo', 'echo'],
      ['a#b', 'a#b'],
    ]);
    assert.equal(actOf('echo  a#b'), "echo 'a#b'");
    unread('echo #b');
  });

  test('a variable in double quotes makes the word expand; a command substitution there is not read', () => {
    assert.deepEqual(wordsOf('echo "$HOME/x"'), [
      ['echo', 'echo'],
      ['"$HOME/x"', null],
    ]);
    unread('echo "$(date)"');
    unread('echo "a$(date)"');
    unread('echo $(date)');
  });

  test('an escaped parenthesis before a variable is a word that expands, not a subshell', () => {
    assert.deepEqual(wordsOf('echo \\($x'), [
      ['echo', 'echo'],
      ['\\($x', null],
    ]);
  });

  test('${…} is one word whatever it holds, and an unclosed one is not read', () => {
    assert.deepEqual(wordsOf('echo ${x:-a b} next'), [
      ['echo', 'echo'],
      ['${x:-a b}', null],
      ['next', 'next'],
    ]);
    assert.deepEqual(wordsOf('echo ${x:-a } next'), [
      ['echo', 'echo'],
      ['${x:-a }', null],
      ['next', 'next'],
    ]);
    assert.deepEqual(wordsOf('echo a}${x}'), [
      ['echo', 'echo'],
      ['a}${x}', null],
    ]);
    unread('echo ${x');
    unread('echo ${x:-a b');
  });
});

describe('act: the lexer splits operators and redirections', () => {
  test('|| joins two pipelines', () => {
    const line = read('make || make clean');
    assert.equal(line.pipelines.length, 2);
    assert.deepEqual(line.connectors, ['||']);
    assert.equal(actOf('make  ||  make clean'), 'make || make clean');
  });

  test('|& pipes the standard error along with the output (POSIX), and is not read in PowerShell', () => {
    const line = read('make |& tee log');
    assert.deepEqual(line.connectors, []);
    assert.deepEqual(line.pipelines, [
      [
        {
          assigns: [],
          words: [{ text: 'make', value: 'make' }],
          redirects: [{ fd: '2', op: '>&', target: { text: '1', value: '1' } }],
        },
        { assigns: [], words: [{ text: 'tee', value: 'tee' }, { text: 'log', value: 'log' }], redirects: [] },
      ],
    ]);
    assert.equal(actOf('make  |&  tee log'), 'make 2>&1 | tee log');
    unread('make |& tee log', 'pwsh');
  });

  test('&> and &>> are two different redirections of both streams', () => {
    assert.deepEqual(only('make &>log').redirects, [{ fd: '', op: '&>', target: { text: 'log', value: 'log' } }]);
    assert.deepEqual(only('make &>>log').redirects, [{ fd: '', op: '&>>', target: { text: 'log', value: 'log' } }]);
    assert.notEqual(actOf('make &>log'), actOf('make &>>log'));
  });

  test('a trailing & runs the line in the background; & between commands separates them', () => {
    const background = read('make &');
    assert.equal(background.background, true);
    assert.deepEqual(background.connectors, []);
    const two = read('make & make test');
    assert.equal(two.background, false);
    assert.deepEqual(two.connectors, ['&']);
  });

  test('<& duplicates an input descriptor', () => {
    assert.deepEqual(only('cat <&3').redirects, [{ fd: '', op: '<&', target: { text: '3', value: '3' } }]);
    assert.deepEqual(only('cat 0<&3').redirects, [{ fd: '0', op: '<&', target: { text: '3', value: '3' } }]);
    assert.equal(actOf('cat  <&3'), 'cat <&3');
  });

  test('>>, >& and >| are redirections of their own', () => {
    assert.deepEqual(only('make >>log').redirects, [{ fd: '', op: '>>', target: { text: 'log', value: 'log' } }]);
    assert.deepEqual(only('make 2>&1').redirects, [{ fd: '2', op: '>&', target: { text: '1', value: '1' } }]);
    assert.deepEqual(only('make >|log').redirects, [{ fd: '', op: '>|', target: { text: 'log', value: 'log' } }]);
  });

  test('only a whole number glued to < or > names a file descriptor', () => {
    assert.deepEqual(only('echo 10>x').redirects, [{ fd: '10', op: '>', target: { text: 'x', value: 'x' } }]);
    assert.deepEqual(only('echo 2<x').redirects, [{ fd: '2', op: '<', target: { text: 'x', value: 'x' } }]);
    for (const command of ['echo a2>x', 'echo 2a>x']) {
      const c = only(command);
      assert.equal(c.words[1]?.text, command.slice(5, 7), command);
      assert.deepEqual(c.redirects, [{ fd: '', op: '>', target: { text: 'x', value: 'x' } }], command);
    }
    // Apart from its > the number is a word.
    assert.deepEqual(wordsOf('echo 2 >x'), [
      ['echo', 'echo'],
      ['2', '2'],
    ]);
  });

  test('a redirection alone, or assignments alone, is a command', () => {
    assert.deepEqual(read('>out').pipelines, [[{ assigns: [], words: [], redirects: [{ fd: '', op: '>', target: { text: 'out', value: 'out' } }] }]]);
    assert.deepEqual(read('A=1').pipelines, [[{ assigns: [{ text: 'A=1', value: 'A=1' }], words: [], redirects: [] }]]);
    assert.deepEqual(read('A=1; ls').connectors, [';']);
  });

  test('a redirection with no word after it is not read', () => {
    for (const command of ['ls >', 'ls > ; x', 'ls > >x', 'ls > | x', 'ls 2>', 'ls > &&']) unread(command);
  });

  test('a line that ends inside a pipeline or after && or || is not read', () => {
    for (const command of ['make |', 'ls; make |', 'make ||', 'make &&', 'ls; make ||', 'make &&\n']) unread(command);
  });

  test('a blank line, or one of separators only, is not read', () => {
    for (const command of ['', '  \n ', ';', '&', '\n;']) unread(command);
  });

  test('case arms’ ;; and ;& are not read', () => {
    for (const command of ['a;;b', 'a ;& b', 'a;;&b', 'a\n;b', 'a\n&b']) unread(command);
  });

  test('here-documents, here-strings, read-write opens and process substitutions are not read', () => {
    for (const command of ['cat <<EOF', 'cat <<-EOF', 'cat <<<x', 'cat <>x', 'cat <(ls)', 'tee >(cat)', 'cat 0<>x']) unread(command);
  });

  test('an assignment is read before the command name in POSIX shells only', () => {
    const posix = only('A=1 x');
    assert.deepEqual(posix.assigns, [{ text: 'A=1', value: 'A=1' }]);
    assert.deepEqual(
      posix.words.map((w) => w.text),
      ['x'],
    );
    const pwsh = only('A=1 x', 'pwsh');
    assert.deepEqual(pwsh.assigns, []);
    assert.deepEqual(
      pwsh.words.map((w) => w.text),
      ['A=1', 'x'],
    );
  });
});

describe('act: the PowerShell (pwsh) dialect', () => {
  test('`*>` redirects every stream (a descriptor of its own); in sh `*` is a word before `>`', () => {
    const all = only('dotnet test *>&1', 'pwsh');
    assert.deepEqual(all.redirects.map((r) => [r.fd, r.op, r.target.value]), [['*', '>&', '1']]);
    assert.deepEqual(all.words.map((w) => w.value), ['dotnet', 'test']);
    assert.deepEqual(only('dotnet test *> log.txt', 'pwsh').redirects.map((r) => [r.fd, r.op, r.target.value]), [['*', '>', 'log.txt']]);
    const sh = only('ls *>&1');
    assert.deepEqual([sh.words.map((w) => w.text), sh.redirects.map((r) => r.fd)], [['ls', '*'], ['']]);
    // Every stream merged at the end of a run is plumbing, as `2>&1` is; a file written is not.
    assert.equal(actOf('dotnet test *>&1', 'pwsh'), 'dotnet test');
    assert.notEqual(actOf('dotnet test *> log.txt', 'pwsh'), 'dotnet test');
  });

  test('a quoted string with no doubled quote is read', () => {
    assert.deepEqual(wordsOf("Write-Output 'a b'", 'pwsh'), [
      ['Write-Output', 'Write-Output'],
      ["'a b'", 'a b'],
    ]);
    assert.deepEqual(wordsOf('Write-Output "a b"', 'pwsh'), [
      ['Write-Output', 'Write-Output'],
      ['"a b"', 'a b'],
    ]);
  });

  test('a backslash escapes nothing, even in double quotes', () => {
    assert.deepEqual(wordsOf('Get-ChildItem "C:\\logs\\"', 'pwsh'), [
      ['Get-ChildItem', 'Get-ChildItem'],
      ['"C:\\logs\\"', 'C:\\logs\\'],
    ]);
    assert.deepEqual(wordsOf('Get-ChildItem C:\\logs\\', 'pwsh'), [
      ['Get-ChildItem', 'Get-ChildItem'],
      ['C:\\logs\\', 'C:\\logs\\'],
    ]);
  });

  test('braces are script blocks, not read even alone', () => {
    unread('Write-Output {', 'pwsh');
    unread('Write-Output }', 'pwsh');
    unread('Write-Output a{b', 'pwsh');
    assert.deepEqual(wordsOf('echo {', 'posix'), [
      ['echo', 'echo'],
      ['{', null],
    ]);
  });

  test('an @ that opens a word is splatting, not read; inside a word it is a character', () => {
    unread('Write-Output @args', 'pwsh');
    unread('Write-Output @(1)', 'pwsh');
    assert.deepEqual(wordsOf('git log user@host', 'pwsh'), [
      ['git', 'git'],
      ['log', 'log'],
      ['user@host', 'user@host'],
    ]);
  });

  test('a lone & is the call operator, not a background job, and &> is not read', () => {
    unread('Start-Sleep 1 & Get-Date', 'pwsh');
    unread('Start-Sleep 1 &', 'pwsh');
    unread('Get-Date &>log', 'pwsh');
    assert.deepEqual(read('Start-Sleep 1 && Get-Date', 'pwsh').connectors, ['&&']);
  });

  test('< is reserved in PowerShell', () => {
    unread('Get-Content <x', 'pwsh');
    unread('Get-Content 0<x', 'pwsh');
  });
});

describe('act: the reader gives up only on syntax', () => {
  test('a fault that is not the reader giving up is not hidden as an unread line', () => {
    assert.throws(() => readLine(undefined as unknown as string, 'posix'), TypeError);
  });
});

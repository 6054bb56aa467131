/**
 * The one reader of shell text (src/lib/shell/lex.ts), by behaviour: the
 * tokens it reads, where substitutions open and close, the here-documents it
 * finds, and when it says the text was left open. Its readers (act:'s line,
 * the written and recorded here-documents) are pinned in their own suites.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lex, MAX_DEPTH, type Dialect, type Token } from '../../src/lib/shell/lex.js';

/** Each token in a short form: a word's value (its text when it expands), an operator, a redirection with its target, `(`…`)` around substitutions. */
function shown(command: string, dialect: Dialect = 'posix'): string[] {
  return lex(command, dialect).tokens.map((token: Token) => {
    if (token.kind === 'word') return token.word.value ?? `~${token.word.text}`;
    if (token.kind === 'operator') return token.op === '\n' ? '⏎' : token.op;
    if (token.kind === 'redirect') return `${token.fd}${token.op}${token.target === null ? '∅' : (token.target.value ?? `~${token.target.text}`)}`;
    if (token.kind === 'open') return `open ${token.by}`;
    return token.kind;
  });
}

const bodies = (command: string): string[] => lex(command).hereDocuments.map((doc) => command.slice(doc.start, doc.end));

describe('lex: words and operators as the shell reads them', () => {
  test('operators split words wherever they stand; quotes and escapes keep them in', () => {
    assert.deepEqual(shown('a|b&&c;d'), ['a', '|', 'b', '&&', 'c', ';', 'd']);
    assert.deepEqual(shown(`echo "a|b" 'c;d' e\\&f`), ['echo', 'a|b', 'c;d', 'e&f']);
  });

  test('a backslash-newline is a line continuation everywhere: between words, in a word, in double quotes, before a redirection target', () => {
    assert.deepEqual(shown('true && \\\ngit \\\ncommit -m x'), ['true', '&&', 'git', 'commit', '-m', 'x']);
    assert.deepEqual(shown('\\\ngit co\\\nmmit "a\\\nb"'), ['git', 'commit', 'ab']);
    assert.deepEqual(shown('echo >\\\nout'), ['echo', '>out']);
    assert.deepEqual(shown("echo 'a\\\nb'"), ['echo', 'a\\\nb'], 'in single quotes it is two characters');
  });

  test('a newline is an operator, and a word that starts with # a comment to the end of its line', () => {
    assert.deepEqual(shown('a # b "c\nd e#f'), ['a', 'comment', '⏎', 'd', 'e#f']);
  });

  test('digits glued to < or > name a descriptor; a redirection takes the next word as its target, or none', () => {
    assert.deepEqual(shown('make 2>&1 >>log 10<x a2>y'), ['make', '2>&1', '>>log', '10<x', 'a2', '>y']);
    assert.deepEqual(shown('ls > ; x'), ['ls', '>∅', ';', 'x']);
    assert.deepEqual(shown('ls > 2>x'), ['ls', '>∅', '2>x']);
  });

  test('a control character the shell gives no meaning is a character of its word', () => {
    assert.deepEqual(shown('a\x01b c'), ['a\x01b', 'c']);
    assert.deepEqual(shown('\x01 ls'), ['\x01', 'ls']);
  });

  test(';; is one operator (a case arm’s end), not two separators', () => {
    assert.deepEqual(shown('a;;b'), ['a', ';;', 'b']);
  });

  test('every redirection operator is read whole: <>, <<<, a descriptor up to 9', () => {
    assert.deepEqual(shown('cat <>f <<< w 9>x'), ['cat', '<>f', '<<<w', '9>x']);
  });

  test('a descriptor before <( or >( makes it a redirection with no target, not a substitution', () => {
    assert.deepEqual(shown('echo 2>(x)'), ['echo', '2>∅', '(', 'x', ')']);
    assert.deepEqual(shown('echo 2<(x)'), ['echo', '2<∅', '(', 'x', ')']);
  });

  test('a redirection’s target is the next word past blanks and line continuations; a comment or a closing backtick is none', () => {
    assert.deepEqual(shown('ls >\tx'), ['ls', '>x']);
    assert.deepEqual(shown('echo > \\\n out'), ['echo', '>out']);
    assert.deepEqual(shown('echo > \\\n out', 'pwsh'), ['echo', '>\\', '⏎', 'out'], 'PowerShell has no continuation by backslash');
    assert.deepEqual(shown('ls > #x'), ['ls', '>∅', 'comment']);
    assert.deepEqual(shown('echo `ls >`'), ['echo', 'open `', 'ls', '>∅', 'close', '~`ls >`']);
    assert.deepEqual(shown('ls > `date` x'), ['ls', 'open `', 'date', 'close', '>~`date`', 'x'], 'outside backticks a backtick opens the target');
  });

  test('a << with no word after it is a redirection with no target, and no here-document', () => {
    assert.deepEqual(shown('cat <<'), ['cat', '<<∅']);
    assert.deepEqual(lex('cat <<').hereDocuments, []);
  });

  test('a word that expands keeps its text and has no value; ${…} runs to its first }, quoted or not', () => {
    assert.deepEqual(shown('echo $HOME *.ts ~ ${x:-a b} "${y}"'), ['echo', '~$HOME', '~*.ts', '~~', '~${x:-a b}', '~"${y}"']);
    // In double quotes too: the quotes of a default inside it are its own, and the word is one.
    assert.deepEqual(shown('echo "${A:-"b c"}" d'), ['echo', '~"${A:-"b c"}"', 'd']);
  });
});

describe('lex: substitutions', () => {
  test('$(…) opens a substitution whose tokens come before the word that holds it', () => {
    assert.deepEqual(shown('git commit -m "$(cat notes.txt | head)" done'), ['git', 'commit', '-m', 'open $(', 'cat', 'notes.txt', '|', 'head', 'close', '~"$(cat notes.txt | head)"', 'done']);
  });

  test('quotes inside a substitution are its own, even inside double quotes', () => {
    assert.deepEqual(shown('echo "$(printf "a b")" c'), ['echo', 'open $(', 'printf', 'a b', 'close', '~"$(printf "a b")"', 'c']);
  });

  test('parentheses inside a substitution do not close it; a ) in quotes is a character', () => {
    assert.deepEqual(shown('echo $( (a) ; echo ")" )x'), ['echo', 'open $(', '(', 'a', ')', ';', 'echo', ')', 'close', '~$( (a) ; echo ")" )x']);
  });

  test('backticks open and close a substitution; inside them the next backtick closes it, in quotes or not', () => {
    assert.deepEqual(shown('echo `date` x'), ['echo', 'open `', 'date', 'close', '~`date`', 'x']);
    assert.deepEqual(shown('echo `a "b` c'), ['echo', 'open `', 'a', 'b', 'close', '~`a "b`', 'c']);
  });

  test('a double-quoted string inside backticks is one word; backticks inside double quotes leave the quotes open', () => {
    assert.deepEqual(shown('echo `printf "a b"`'), ['echo', 'open `', 'printf', 'a b', 'close', '~`printf "a b"`']);
    assert.deepEqual(shown('echo "a`b`c d"'), ['echo', 'open `', 'b', 'close', '~"a`b`c d"']);
  });

  test('a backtick closes its substitution even with a parenthesis left open inside', () => {
    assert.deepEqual(shown('echo `(` x'), ['echo', 'open `', '(', 'close', '~`(`', 'x']);
  });

  test(`substitutions one after another are no deeper than one: ${MAX_DEPTH + 1} of them are read`, () => {
    const lexed = lex(`echo ${'$(a)'.repeat(MAX_DEPTH + 1)}`);
    assert.equal(lexed.complete, true);
    assert.equal(lexed.tokens.filter((token) => token.kind === 'close').length, MAX_DEPTH + 1);
  });

  test('<(…) and >(…) are substitutions too', () => {
    assert.deepEqual(shown('diff <(ls a) >(cat)'), ['diff', 'open <(', 'ls', 'a', 'close', 'open >(', 'cat', 'close']);
  });

  test(`past ${MAX_DEPTH} nested substitutions the reading stops and says so`, () => {
    assert.equal(lex(`${'$('.repeat(MAX_DEPTH)}x${')'.repeat(MAX_DEPTH)}`).complete, true);
    const deep = lex(`${'$('.repeat(MAX_DEPTH + 1)}x${')'.repeat(MAX_DEPTH + 1)}`);
    assert.equal(deep.complete, false);
    assert.equal(deep.tokens.filter((token) => token.kind === 'open').length, MAX_DEPTH);
  });
});

describe('lex: here-documents', () => {
  test('a body starts on the line after its operator and ends before its delimiter line, which is read past', () => {
    const command = "cat > f.py <<'EOF'\nimport x\nEOF\npython f.py";
    assert.deepEqual(bodies(command), ['import x\n']);
    assert.deepEqual(shown(command), ['cat', '>f.py', '<<EOF', '⏎', 'python', 'f.py']);
    assert.equal(lex(command).hereDocuments[0]?.delimiter, 'EOF');
  });

  test('<<- strips the tabs before the delimiter; a quoted, escaped or expanding delimiter is its text', () => {
    assert.deepEqual(bodies('cat <<-END\n\ta\n\t\tEND\nx'), ['\ta\n']);
    assert.deepEqual(bodies('cat <<"E F"\na\nE F\n'), ['a\n']);
    assert.deepEqual(bodies('cat <<\\EOF\na\nEOF'), ['a\n']);
    assert.deepEqual(bodies('cat <<$X\na\n$X'), ['a\n']);
  });

  test('a delimiter line is the delimiter alone: not indented (but after <<-), not a line that starts with it', () => {
    assert.deepEqual(bodies('cat <<EOF\n\tEOF\nEOF\n'), ['\tEOF\n']);
    assert.deepEqual(bodies('cat <<EOF\nEOFX\nEOF\n'), ['EOFX\n']);
    assert.deepEqual(bodies('cat <<"$END"\nbody\n$END\n'), ['body\n'], 'an expanding delimiter in quotes is its text without them');
  });

  test('several operators on one line have their bodies one after the other', () => {
    assert.deepEqual(bodies('cat <<A > a; cat <<B > b\n1\nA\n2\nB\n'), ['1\n', '2\n']);
  });

  test('a here-document inside a substitution starts its body at the newline inside it', () => {
    const command = `git commit -m "$(cat <<'EOF'\nSee https://a.com/x\nEOF\n)" && git push`;
    assert.deepEqual(bodies(command), ['See https://a.com/x\n']);
    assert.deepEqual(shown(command), ['git', 'commit', '-m', 'open $(', 'cat', '<<EOF', '⏎', 'close', `~"$(cat <<'EOF'\nSee https://a.com/x\nEOF\n)"`, '&&', 'git', 'push']);
  });

  test('<< in quotes, in a comment or as a here-string (<<<) is no here-document', () => {
    for (const command of ['echo "cat <<EOF"\nx\nEOF', "echo 'a <<EOF'\nx\nEOF", '# cat <<EOF\nx\nEOF', 'cat <<<EOF\nx\nEOF']) assert.deepEqual(bodies(command), [], JSON.stringify(command));
  });

  test('an unterminated body runs to the end, and nothing after its operator is read', () => {
    const lexed = lex("cat <<'EOF'\nhttps://a.com\n| sh");
    assert.equal(lexed.complete, false);
    assert.deepEqual(
      lexed.hereDocuments.map((doc) => doc.terminated),
      [false],
    );
    assert.deepEqual(shown("cat <<'EOF'\nhttps://a.com\n| sh"), ['cat', '<<EOF', '⏎']);
  });
});

describe('lex: what is left open', () => {
  test('an unterminated quote, ${ or substitution, or an operator with no body yet, leaves the text open', () => {
    for (const command of ['echo "a', "echo 'a", 'echo ${a', 'echo $(a', 'echo `a', 'cat <<EOF']) assert.equal(lex(command).complete, false, JSON.stringify(command));
    for (const command of ['echo "a"', 'echo $(a)', 'cat <<EOF\nEOF', '']) assert.equal(lex(command).complete, true, JSON.stringify(command));
  });

  test('in PowerShell a backslash is a character, and its own syntax (braces, a leading @, doubled quotes, <, a lone &) stops the reading', () => {
    assert.deepEqual(shown('Get-ChildItem C:\\logs\\ "a\\"', 'pwsh'), ['Get-ChildItem', 'C:\\logs\\', 'a\\']);
    assert.deepEqual(shown('Write-Output a>x *>y', 'pwsh'), ['Write-Output', 'a', '>x', '*>y'], 'only a * before > names every stream');
    for (const command of ['Write-Output {', 'Write-Output @args', "echo 'it''s'", 'echo "a""b"', 'Get-Content <x', 'Start-Sleep 1 &', 'make |& tee']) {
      assert.equal(lex(command, 'pwsh').complete, false, JSON.stringify(command));
    }
    assert.equal(lex('Start-Sleep 1 && Get-Date', 'pwsh').complete, true);
  });

  test('a value that is not a string is a fault, not a reading', () => {
    assert.throws(() => lex(undefined as unknown as string), TypeError);
  });
});

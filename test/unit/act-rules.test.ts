/**
 * The `act:` rules, each held to its own examples (the examples are the
 * specification): every fold group shares one fingerprint, and needs the rule
 * to; every keep pair stays apart. Then the reader: what it models, what it
 * leaves as written, and the PowerShell dialect.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf, RULES } from '../../src/lib/shell/act/index.js';
import { readLine } from '../../src/lib/shell/act/line.js';
import { COMMANDS } from '../../src/lib/shell/act/commands.js';
import { canonicalPath } from '../../src/lib/shell/act/rules/paths.js';
import { CONTRASTS, GROUPS } from '../fixtures/act-corpus.js';
import { RESPELLED_PYTEST, RESPELLED_PYTEST_ACT } from '../support/respellings.js';

for (const rule of RULES) {
  describe(`act rule ${rule.name}: ${rule.reason}`, () => {
    const without = RULES.filter((r) => r !== rule);
    // A rule of one dialect is specified in it; the others' examples are sh.
    const dialect = rule.dialect ?? 'posix';
    for (const group of rule.folds) {
      test(`folds ${group.map((c) => JSON.stringify(c)).join(', ')}`, () => {
        const acts = group.map((command) => actOf(command, dialect));
        assert.equal(new Set(acts).size, 1, acts.join('\n'));
        const bare = group.map((command) => actOf(command, dialect, without));
        assert.ok(new Set(bare).size > 1, `the group folds without ${rule.name} too: ${bare.join(' | ')}`);
      });
    }
    for (const [a, b] of rule.keeps) {
      test(`never folds ${JSON.stringify(a)} with ${JSON.stringify(b)}`, () => {
        assert.notEqual(actOf(a, dialect), actOf(b, dialect));
      });
    }
    test('has examples both ways', () => {
      assert.ok(rule.folds.length > 0 && rule.keeps.length > 0, `${rule.name} has examples it folds and examples it keeps`);
    });
    // A blank or unreadable example would pass "never folds" while saying nothing.
    test('every example is a command line the reader reads', () => {
      for (const example of [...rule.folds.flat(), ...rule.keeps.flat()]) {
        const line = readLine(example, dialect);
        assert.ok(line !== null && line.pipelines.flat().some((command) => command.words.length > 0), JSON.stringify(example));
      }
    });
  });
}

describe('act: reading a command line', () => {
  test('whitespace, tabs, line continuations and a trailing newline are spelling', () => {
    assert.equal(actOf('  make   test\t'), 'make test');
    assert.equal(actOf('make \\\n  test\n'), 'make test');
    assert.equal(actOf('make test;'), 'make test');
  });

  test('operators are split from the words around them, as the shell splits them', () => {
    assert.equal(actOf('git log|grep fix'), actOf('git log | grep fix'));
    assert.equal(actOf('make&&make install'), 'make && make install');
    assert.equal(actOf('make ; make install'), 'make; make install');
    assert.equal(actOf('ls\npwd'), 'ls; pwd');
    assert.equal(actOf('make &&\n  make install'), 'make && make install');
  });

  test('a quoted operator is a word, not an operator', () => {
    assert.equal(actOf("echo 'a && b'"), "echo 'a && b'");
    assert.notEqual(actOf("echo '|' head"), actOf('echo | head'));
  });

  test('syntax the reader does not model is kept as written (trimmed), so it folds only with itself', () => {
    for (const command of [
      'echo $(date)',
      'echo `date`',
      'cat <<EOF\nhi\nEOF',
      'grep x <<< "$v"',
      'diff <(ls a) <(ls b)',
      '(cd a && make)',
      '{ make; make install; }',
      'for f in *.py; do python $f; done',
      'if true; then make; fi',
      'ls # list',
      "echo 'unterminated",
      'echo "unterminated',
      'case $x in a) ls;; esac',
      'make &&',
      '| make',
      'make | | test',
    ]) {
      assert.equal(readLine(command, 'posix'), null, command);
      assert.equal(actOf(`  ${command}  `), command, command);
    }
  });

  test('a blank command has no action', () => {
    assert.equal(actOf(''), '');
    assert.equal(actOf(' \n\t '), '');
  });

  test('a word the shell expands is kept as written and never rewritten', () => {
    assert.equal(actOf('ls -la $HOME/'), 'ls -al $HOME/');
    assert.equal(actOf('cat ./*.txt'), 'cat ./*.txt');
    assert.notEqual(actOf('cat ~/notes'), actOf("cat '~/notes'"));
  });

  test('inside double quotes a backslash escapes only $ ` " \\ and newline, as in the shell', () => {
    assert.equal(actOf('echo "a\\"b"'), actOf("echo 'a\"b'"));
    assert.equal(actOf('echo "a\\nb"'), actOf("echo 'a\\nb'"));
    assert.notEqual(actOf('echo "a\\nb"'), actOf('echo anb'));
  });

  test('the canonical text reads back as itself', () => {
    const commands = [...GROUPS.flatMap((g) => (g.shell === 'pwsh' ? [] : g.commands)), ...CONTRASTS.flatMap((c) => (c.shell === 'pwsh' ? [] : c.pair))];
    for (const command of commands) {
      const once = actOf(command);
      assert.equal(actOf(once), once, command);
    }
  });
});

describe('act: the canonical words docs/act.md names', () => {
  test('a context window is written as the sides it shows: --context=after, before or both', () => {
    assert.equal(actOf('grep -A 3 raise app.py'), 'grep --context=after raise app.py');
    assert.equal(actOf('grep -B 3 raise app.py'), 'grep --context=before raise app.py');
    assert.equal(actOf('grep -C 3 raise app.py'), 'grep --context=both raise app.py');
    assert.equal(actOf('Select-String -Pattern raise -Path app.py -Context 0,2', 'pwsh'), 'Select-String -Pattern raise -Path app.py --context=after');
  });
});

describe('act: PowerShell (pwsh) is read with its own quoting', () => {
  test('a backslash is part of a word, not an escape', () => {
    assert.notEqual(actOf('Get-Content C:\\logs\\a.txt', 'pwsh'), actOf('Get-Content C:logsa.txt', 'pwsh'));
    assert.equal(actOf('Get-Content C:\\logs\\a.txt', 'pwsh'), "Get-Content -Path 'C:\\logs\\a.txt'");
  });

  test('backticks, doubled quotes, the call operator and script blocks are kept as written', () => {
    for (const command of ['Write-Output "a`nb"', "Write-Output 'it''s'", 'Write-Output "say ""hi"""', "& 'C:\\x.exe'", 'Get-Item x | ForEach-Object { $_ }', 'Get-ChildItem < x']) {
      assert.equal(readLine(command, 'pwsh'), null, command);
    }
  });

  test('the rules still apply to what is read', () => {
    assert.equal(actOf('python3  build.py', 'pwsh'), actOf('python build.py', 'pwsh'));
  });

  test('a rule of one dialect is passed by in the other: in sh, cat, ls, type, gc and select read exactly as without it', () => {
    const shRules = RULES.filter((rule) => rule.dialect === undefined);
    assert.ok(shRules.length < RULES.length, 'some rule reads one dialect only');
    const examples = [...RULES.flatMap((rule) => [...rule.folds.flat(), ...rule.keeps.flat()]), ...GROUPS.flatMap((g) => g.commands), ...CONTRASTS.flatMap((c) => c.pair)];
    for (const command of examples) assert.equal(actOf(command, 'posix'), actOf(command, 'posix', shRules), command);
    assert.equal(actOf('cat ./app.log'), 'cat app.log');
    assert.equal(actOf('ls -la src/'), 'ls -al src');
    assert.equal(actOf('type gc'), 'type gc');
    assert.equal(actOf('pytest | select -last 5'), 'pytest | select -last 5');
    assert.equal(actOf('cat ./app.log', 'pwsh'), 'Get-Content -Path app.log');
    assert.equal(actOf('pytest | select -last 5', 'pwsh'), 'pytest');
  });
});

describe('act: the option table and path spelling', () => {
  test('every listed command names its switches and valued flags without overlap', () => {
    for (const [name, spec] of Object.entries(COMMANDS)) {
      for (const letter of spec.valued ?? '') assert.ok(!spec.switches.includes(letter), `${name}: -${letter} is both`);
      for (const letter of spec.terminal ?? '') assert.ok(!spec.switches.includes(letter), `${name}: -${letter} is both`);
    }
  });

  test('canonicalPath keeps .., a leading -, URLs and host:path as they are', () => {
    assert.equal(canonicalPath('./a//b/./c/'), 'a/b/c');
    assert.equal(canonicalPath('//etc//hosts'), '/etc/hosts');
    assert.equal(canonicalPath('./'), '.');
    assert.equal(canonicalPath('/'), '/');
    assert.equal(canonicalPath('a/../b'), 'a/../b');
    assert.equal(canonicalPath('./-rf'), './-rf');
    assert.equal(canonicalPath('-rf'), '-rf');
    assert.equal(canonicalPath('https://a.com//x'), 'https://a.com//x');
    assert.equal(canonicalPath('host:dir/'), 'host:dir/');
  });

  test('canonicalPath gives every path of /, ., .. and names as splitting and joining it would', () => {
    // Every path of up to 6 such pieces: the shortcut for a path already in its spelling agrees with the full reading.
    const pieces = ['/', '.', '..', 'a', '-b', '/.'];
    let paths = [''];
    for (let length = 1; length <= 6; length += 1) {
      paths = paths.flatMap((p) => pieces.map((piece) => p + piece));
      for (const path of paths) {
        if (path.startsWith('-')) continue;
        const absolute = path.startsWith('/');
        const joined = path.split('/').filter((segment) => segment !== '' && segment !== '.').join('/');
        const full = absolute ? `/${joined}` : joined === '' ? '.' : joined.startsWith('-') ? `./${joined}` : joined;
        assert.equal(canonicalPath(path), full, path);
      }
    }
  });
});

test('act: fourteen spellings of one pytest run share one fingerprint', () => {
  assert.equal(new Set(RESPELLED_PYTEST).size, RESPELLED_PYTEST.length);
  for (const command of RESPELLED_PYTEST) assert.equal(`act:${actOf(command)}`, RESPELLED_PYTEST_ACT, command);
});

/**
 * A shell line with its options aside (call/respelled.ts): what the stale
 * track's back-to-back run compares between two calls that returned the very
 * same result. It sets aside what only says how a run reports or fails, and
 * keeps every word that may say what runs.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { optionsAside } from '../../src/lib/call/respelled.js';
import { ACT_READ_LIMIT } from '../../src/lib/shell/act/index.js';

const aside = (line: string): string | null => optionsAside(line, 'posix');

describe('a shell line with its options aside', () => {
  test('flags alone, reporting options with a value attached and a reporting setting given to a short option are set aside', () => {
    const base = aside('python -m pytest tests/test_orders.py');
    for (const line of ['python -m pytest tests/test_orders.py --log-cli-level=DEBUG', 'python -m pytest -x tests/test_orders.py', 'pytest tests/test_orders.py -o log_cli=true', "pytest --log-format='%(message)s' tests/test_orders.py", 'python3 -m pytest --color=no tests/test_orders.py']) {
      assert.equal(aside(line), base, line);
    }
  });

  test('a leading `set` of shell options, `;` against `&&`, and a shell named by its path read as the same line', () => {
    const base = aside('cd /work && make check');
    for (const line of ['set -e; cd /work && make check', 'set -euo pipefail && cd /work && make check', 'set -o pipefail; cd /work; make check', "/bin/bash -c 'cd /work && make check'", "/usr/bin/sh -c 'cd /work; make check'"]) {
      assert.equal(aside(line), base, line);
    }
  });

  test('operands, option values given apart, attached values of other options and `set` with operands are kept', () => {
    assert.notEqual(aside('pytest -k login tests'), aside('pytest -k logout tests'), 'a -k value selects what runs');
    assert.notEqual(aside('go test -run=TestTotal ./orders'), aside('go test -run=TestTax ./orders'), 'an attached selector');
    assert.notEqual(aside('pytest tests/test_a.py'), aside('pytest tests/test_b.py'));
    assert.notEqual(aside('set -- a b; run'), aside('run'), '`set` with operands sets $1 and $2');
    assert.notEqual(aside('pytest -o addopts=-x tests'), aside('pytest tests'), 'a setting not about reporting');
    assert.notEqual(aside('a || b'), aside('a && b'));
  });

  test('a reporting option whose value is the next word is set aside with it, when the option is known and the word one it takes', () => {
    const dotnet = aside('dotnet test tests/Cart.Tests');
    for (const line of ['dotnet test tests/Cart.Tests -v q', 'dotnet test --verbosity minimal tests/Cart.Tests', 'dotnet test tests/Cart.Tests -v:n', 'dotnet test tests/Cart.Tests --logger "console;verbosity=detailed"', 'dotnet test -l console tests/Cart.Tests', 'dotnet test tests/Cart.Tests -nologo -v DIAG']) {
      assert.equal(aside(line), dotnet, line);
    }
    assert.equal(aside('dotnet build /v:m /nologo src/Cart'), aside('dotnet build src/Cart -v q'), "MSBuild's slash spelling");
    assert.equal(aside('msbuild Shop.sln /verbosity:minimal /clp:ErrorsOnly'), aside('msbuild Shop.sln'));
    assert.equal(aside('npm test --loglevel silent'), aside('npm test'));
    assert.equal(aside('npx vitest run --reporter verbose'), aside('npx vitest run --reporter=dot'));
    assert.equal(aside('./gradlew test --console plain'), aside('./gradlew test'));
    assert.equal(aside('pytest --tb short --color no tests'), aside('pytest tests'));
    const pwsh = (line: string): string | null => optionsAside(line, 'pwsh');
    assert.equal(pwsh('dotnet test tests\\Cart.Tests --verbosity quiet'), pwsh('dotnet test tests\\Cart.Tests -l "console;verbosity=detailed"'));
  });

  test('a value given apart stays when its option is unknown, the word is not one the option takes, the short option is another program\'s, or it follows --', () => {
    assert.notEqual(aside('dotnet test --filter Total'), aside('dotnet test --filter Tax'), 'a filter selects what runs');
    assert.notEqual(aside('dotnet test -c Release'), aside('dotnet test -c Debug'));
    assert.notEqual(aside('dotnet test --framework net6.0'), aside('dotnet test --framework net8.0'));
    assert.notEqual(aside('dotnet test --logger trx'), aside('dotnet test'), 'a file logger writes a file');
    assert.notEqual(aside('dotnet test -v tests/A'), aside('dotnet test -v tests/B'), 'not a verbosity: an operand');
    assert.notEqual(aside('grep -v n notes.txt'), aside('grep -v q notes.txt'), "dotnet's -v is dotnet's only");
    assert.notEqual(aside('grep --color Total cart.cs'), aside('grep --color Tax cart.cs'), 'a pattern, not a colour mode');
    assert.notEqual(aside('dotnet run -- -v q'), aside('dotnet run -- -v n'), "past --, the program's own words");
    assert.notEqual(aside('ls /v:m'), aside('ls'), 'a slash switch is read for dotnet and msbuild only: elsewhere a path');
    assert.notEqual(aside('dotnet build /p:Configuration=Release'), aside('dotnet build /p:Configuration=Debug'), 'a property is behaviour');
    assert.notEqual(aside('dotnet test /src/Cart.Tests'), aside('dotnet test /src/Orders.Tests'), 'a path');
    assert.notEqual(aside('npm test --loglevel silent -- -t total'), aside('npm test --loglevel silent -- -t tax'));
    assert.equal(aside('dotnet test --verbosity'), aside('dotnet test'), 'an option at the end of the line, its value missing');
  });

  test('a line whose syntax is not modelled has no reading', () => {
    assert.equal(aside('echo "unterminated'), null);
  });

  test('a line longer than act: reads has no reading, so a megabyte of words never stalls the guard', () => {
    const words = (n: number): string => `pytest ${'tests -v '.repeat(n)}`.trimEnd();
    const atLimit = words(Math.floor((ACT_READ_LIMIT - 7) / 9));
    assert.ok(atLimit.length <= ACT_READ_LIMIT, `the line at the limit is ${atLimit.length} characters`);
    assert.notEqual(aside(atLimit), null, 'a line within the limit is read');
    const past = `${atLimit} ${'x'.repeat(ACT_READ_LIMIT - atLimit.length)}`;
    assert.equal(past.length, ACT_READ_LIMIT + 1);
    assert.equal(aside(past), null);
    assert.equal(optionsAside(words(200_000), 'posix', false), null);
  });
});

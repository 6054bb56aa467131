/**
 * PowerShell's spellings of a run's plumbing (call/pwsh-plumbing.ts, read by
 * call/plumbing.ts): `Push-Location D` and `$env:NAME=value` in front as the
 * run's context, a printed `$LASTEXITCODE` after it as a suffix; read by the
 * stale track's back-to-back run (preset) for the `pwsh` tool.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { optionsAside } from '../../src/lib/call/respelled.js';
import { CONTEXT_MARK, endingAside, suffixOf } from '../../src/lib/call/plumbing.js';
import { deniedAt, noticedAt, runs } from '../support/session.js';
import { sameReading as sameReadingBy } from '../support/readings.js';

const aside = (line: string): string | null => optionsAside(line, 'pwsh');
const P = 'python -m pytest tests/test_api.py';
const D = 'dotnet test tests\\Api.Tests';

const sameReading = (lines: readonly string[]): void => sameReadingBy(lines, aside);

describe("PowerShell's plumbing around a run, aside", () => {
  test('Set-Location, sl, cd, Push-Location and pushd of one directory are one context', () => {
    sameReading([`cd C:\\src\\api; ${D}`, `Set-Location C:\\src\\api; ${D}`, `sl C:\\src\\api; ${D}`, `Push-Location C:\\src\\api; ${D}`, `pushd C:\\src\\api; ${D}`]);
    assert.equal(aside(`Push-Location api; ${P}`), `cd api${CONTEXT_MARK}pytest tests/test_api.py`);
  });

  test('$env:NAME=value is a context, written one way whatever its quotes or spaces; two values, or two names, are two contexts', () => {
    sameReading([`$env:PYTHONPATH="."; ${P}`, `$env:PYTHONPATH='.'; ${P}`, `$env:PYTHONPATH=.; ${P}`, `$env:PYTHONPATH = "."; ${P}`, `$Env:PYTHONPATH="."; ${P}`]);
    assert.equal(aside(`$env:PYTHONPATH="."; ${P}`), `$env:PYTHONPATH="."${CONTEXT_MARK}pytest tests/test_api.py`);
    assert.notEqual(aside(`$env:PYTHONPATH="src"; ${P}`), aside(`$env:PYTHONPATH="."; ${P}`));
    assert.notEqual(aside(`$env:DEBUG="1"; ${P}`), aside(`$env:PYTHONPATH="1"; ${P}`));
    assert.notEqual(aside(`Push-Location a; ${P}`), aside(`Push-Location b; ${P}`));
  });

  test('a value with an expansion, a Push-Location with options or none, an $env: read: no context, the line kept', () => {
    for (const line of [`$env:PYTHONPATH="$PWD\\src"; ${P}`, `$env:PYTHONPATH=$HOME; ${P}`, `Push-Location -StackName x; ${P}`, `Push-Location; ${P}`, `echo $env:PYTHONPATH; ${P}`]) {
      assert.equal(aside(line)?.includes(CONTEXT_MARK), false, line);
    }
  });

  test('2>&1, *>&1, | Out-Host and a printed $LASTEXITCODE around the run: the run itself', () => {
    sameReading([D, `${D} 2>&1`, `${D} *>&1`, `${D} | Out-Host`, `${D}; echo $LASTEXITCODE`, `${D}; $LASTEXITCODE`, `${D}; Write-Output $LASTEXITCODE`, `${D}; $lastexitcode`]);
  });

  test('the posix reading is unchanged: $LASTEXITCODE and $env: are no plumbing in bash', () => {
    assert.notEqual(optionsAside(`${P}; echo $LASTEXITCODE`, 'posix'), optionsAside(P, 'posix'));
    assert.equal(optionsAside(`$env:A=1; ${P}`, 'posix')?.includes(CONTEXT_MARK) ?? false, false);
  });
});

describe('a printed $LASTEXITCODE as a suffix', () => {
  test("its line is a number, and after ; it sets the line's status", () => {
    for (const line of [`${D}; echo $LASTEXITCODE`, `${D}; $LASTEXITCODE`, `${D}; Write-Host "$LASTEXITCODE"`]) {
      const suffix = suffixOf(line, 'pwsh');
      assert.equal(suffix?.setsStatus, true, line);
      assert.ok(suffix?.echo?.test('1') && suffix.echo.test('-532462766'), line);
      assert.ok(!suffix?.echo?.test('Failed!'), line);
    }
    assert.equal(endingAside('Failed!  - Failed: 1\n1', suffixOf(`${D}; $LASTEXITCODE`, 'pwsh')?.echo ?? null), 'Failed!  - Failed: 1\n');
  });

  test('none for other endings: $? (True/False in PowerShell), an echo of words, a status among words, no suffix at all', () => {
    for (const line of [D, `${D}; echo $?`, `${D}; echo done`, `${D}; echo "exit $LASTEXITCODE"`, `${D} | Select-Object -Last 5`, `echo $LASTEXITCODE`]) assert.equal(suffixOf(line, 'pwsh'), null, line);
    assert.equal(suffixOf(`${'x'.repeat(20_000)}; $LASTEXITCODE`, 'pwsh'), null, 'a line past the read limit');
  });
});

const FAIL = '  Failed Api.Tests.LoginTests.Login_ReturnsOk [31 ms]\n  Error Message:\n   Assert.Equal() Failure: Values differ\n   Expected: 200\n   Actual:   401\n\nFailed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12';


describe('the back-to-back run through PowerShell plumbing (preset)', () => {
  test('the same failing run with Push-Location in front or not, $env: in front, 2>&1 and $LASTEXITCODE after it: the 4th meets the gate', async () => {
    const outcomes = await runs('pwsh', [
      { command: `$env:DOTNET_NOLOGO="1"; ${D}`, code: 1, text: FAIL },
      { command: `${D} 2>&1`, code: 1, text: FAIL },
      { command: `${D}; echo $LASTEXITCODE`, code: 0, text: `${FAIL}\n1` },
      { command: `$env:DOTNET_NOLOGO = "1"; ${D}; $LASTEXITCODE`, code: 0, text: `${FAIL}\n1` },
      { command: D, code: 1, text: FAIL },
    ]);
    assert.deepEqual(deniedAt(outcomes), [4, 5]);
    assert.deepEqual(noticedAt(outcomes).slice(0, 1), [3]);
  });

  test('the same command in two directories, or under two values of one variable, is two runs whatever it prints; an answer that moves behind $LASTEXITCODE runs on', async () => {
    const dirs = await runs('pwsh', ['a', 'b', 'c', 'd', 'e'].map((dir) => ({ command: `Push-Location C:\\src\\${dir}; ${D}; $LASTEXITCODE`, code: 0, text: `${FAIL}\n1` })));
    assert.deepEqual(deniedAt(dirs), []);
    const values = await runs('pwsh', ['Development', 'Staging', 'Production', 'Test', 'Local'].map((env) => ({ command: `$env:ASPNETCORE_ENVIRONMENT="${env}"; ${D}`, code: 1, text: FAIL })));
    assert.deepEqual(deniedAt(values), []);
    const moving = await runs('pwsh', [12, 11, 10, 9, 8].map((left, at) => ({ command: at % 2 === 0 ? `${D}; echo $LASTEXITCODE` : D, code: at % 2 === 0 ? 0 : 1, text: `${FAIL.replace('Passed:    11', `Passed:    ${left}`)}${at % 2 === 0 ? '\n1' : ''}` })));
    assert.deepEqual(deniedAt(moving), []);
  });
});

describe('hostile PowerShell plumbing', () => {
  test('a line of a thousand $env: assignments and Push-Locations, a value of quotes, a status line of digits: read to their bounds, no throw', () => {
    const many = `${'$env:A="1"; Push-Location a; '.repeat(500)}pytest`;
    assert.ok(many.length < 16_384, 'within what act: reads');
    assert.equal(aside(many)?.endsWith(`${CONTEXT_MARK}pytest`), true);
    assert.equal(aside(`$env:A="${'"'.repeat(5000)}"; pytest`)?.includes(CONTEXT_MARK) ?? false, false, 'no context read (or no line)');
    assert.equal(aside(`$env:A='${"'".repeat(5000)}'; pytest`)?.includes(CONTEXT_MARK) ?? false, false, 'no context read (or no line)');
    const digits = `Failed!\n${'1'.repeat(60_000)}`;
    assert.equal(endingAside(digits, suffixOf(`${D}; $LASTEXITCODE`, 'pwsh')?.echo ?? null), digits, "a last line past the echo bound is the run's own");
  });
});

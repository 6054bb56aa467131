/**
 * A run with the shell's plumbing around it aside (call/plumbing.ts): a
 * subshell's inside, streams written where they go anyway, a suffix that says
 * how the run ended, a `cd` or an assignment in front read apart as its
 * context; read by the stale track's back-to-back run (preset).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { optionsAside } from '../../src/lib/call/respelled.js';
import { CONTEXT_MARK, endingAside, joinsOutOfContext, subshellInside, suffixOf } from '../../src/lib/call/plumbing.js';
import { deniedAt, noticedAt, runs } from '../support/session.js';
import { sameReading as sameReadingBy } from '../support/readings.js';

const aside = (line: string): string | null => optionsAside(line, 'posix');
const P = 'python -m pytest tests/test_api.py';

const sameReading = (lines: readonly string[]): void => sameReadingBy(lines, aside);

describe('the plumbing around a run, aside', () => {
  test('a subshell, streams written where they go anyway, and a suffix that says how the run ended: the run itself', () => {
    sameReading([P, `${P} > /dev/stdout 2>&1`, `${P} 1>/dev/stdout`, `${P} 2>/dev/stderr`, `${P} 2>&1 | cat`, `${P} || true`, `${P} || :`, `${P}; echo $?`, `${P}; echo "exit: $?"`, `${P} || echo failed`, `${P} && echo done`]);
    sameReading([`cd /repo && ${P}`, `cd /repo; ${P}`, `(cd /repo && ${P})`, `( cd /repo; ${P} )`, `cd /repo && ${P} || true`]);
  });

  test('plumbing that changes what runs or where it writes stays: a file written, another command after ||, an echo of an expansion, a background run', () => {
    for (const line of [`${P} > out.log 2>&1`, `${P} >/dev/stdout >report.txt`, `${P} || make clean`, `${P}; echo $HOME`, `${P} || echo "$(date)"`, `${P} & echo started`, `${P} | tee out.log`, `(${P}) && (git status)`]) {
      assert.notEqual(aside(line), aside(P), line);
    }
  });

  test('a cd or an assignment in front is the context, read apart; export, env and a prefix set one context', () => {
    assert.equal(aside(`cd /repo && ${P}`), `cd /repo${CONTEXT_MARK}pytest tests/test_api.py`);
    sameReading([`PYTHONPATH=. ${P}`, `env PYTHONPATH=. ${P}`, `export PYTHONPATH=.; ${P}`, `export PYTHONPATH=. && ${P}`]);
    assert.notEqual(aside(`PYTHONPATH=src ${P}`), aside(`PYTHONPATH=. ${P}`));
    assert.notEqual(aside(`cd /a && ${P}`), aside(`cd /b && ${P}`));
    // An assignment in front of one command of several is that command's, not the line's.
    assert.equal(aside(`A=1 ${P} && make`)?.includes(CONTEXT_MARK), false);
  });

  test('a run in no context joins one in a context, and back; two contexts, or a context other than the one the run named, never', () => {
    const bare = aside(P) as string;
    const inRepo = aside(`cd /repo && ${P}`) as string;
    const inOther = aside(`cd /other && ${P}`) as string;
    assert.ok(joinsOutOfContext(bare, [inRepo]), 'the bare run joins the one in /repo');
    assert.ok(joinsOutOfContext(inRepo, [bare]), 'the run in /repo joins the bare one');
    assert.ok(!joinsOutOfContext(inOther, [inRepo]), 'two directories are two runs');
    assert.ok(!joinsOutOfContext(inOther, [bare, inRepo]), 'a run that named /repo does not take /other through its bare call');
    assert.ok(!joinsOutOfContext(aside('pytest tests/test_db.py') as string, [inRepo]), 'another run in no context');
  });

  test('a subshell is read only when the whole line is one', () => {
    assert.equal(subshellInside(`(cd /repo && ${P})`), `cd /repo && ${P}`);
    assert.equal(subshellInside(`(cd a) && (cd b)`), 'cd a) && (cd b');
    assert.equal(aside('(cd a) && (cd b)'), null, 'whose inside reads as no line');
    assert.equal(subshellInside('((x = 1))'), null, 'arithmetic is no subshell');
    assert.equal(subshellInside(P), null);
  });
});

describe('a suffix that says how the run ended', () => {
  test("its echo's line and whether it sets the line's status", () => {
    const status = suffixOf(`${P}; echo $?`, 'posix');
    assert.equal(status?.setsStatus, true);
    assert.ok(status?.echo?.test('1'), 'echo $? prints the status');
    assert.ok(!status?.echo?.test('FAILED'), 'and nothing but a number');
    assert.ok(suffixOf(`${P}; echo "exit: $?"`, 'posix')?.echo?.test('exit: 137'), 'a status among quoted words');
    assert.deepEqual(suffixOf(`${P} || true`, 'posix'), { echo: null, setsStatus: true });
    assert.equal(suffixOf(`${P} && echo done`, 'posix')?.setsStatus, false);
    assert.ok(suffixOf(`${P} && echo done`, 'posix')?.echo?.test('done'), 'a literal echo prints its words');
  });

  test('none for a line without one, an echo of anything but literals and $?, PowerShell, a line past the read limit', () => {
    for (const line of [P, `${P} | tail -5`, `${P}; echo $HOME`, `${P}; echo "a; b"`, `${P} & true`, `echo $?`]) assert.equal(suffixOf(line, 'posix'), null, line);
    assert.equal(suffixOf(`${P}; echo $?`, 'pwsh'), null);
    assert.equal(suffixOf(`${'x'.repeat(20_000)}; echo $?`, 'posix'), null);
  });

  test("an answer with the echo's last line aside; a last line the echo did not print stays", () => {
    const echo = suffixOf(`${P}; echo "exit=$?"`, 'posix')?.echo ?? null;
    assert.equal(endingAside('FAILED t\nexit=1\n', echo), 'FAILED t\n');
    assert.equal(endingAside('FAILED t\n1 failed', echo), 'FAILED t\n1 failed');
    assert.equal(endingAside('FAILED t', null), 'FAILED t');
    assert.equal(endingAside('FAILED t\n[exit code: 1]', null), 'FAILED t', "the host's exit marker aside");
    assert.equal(endingAside('FAILED t\ndone\n[exit code: 2]', suffixOf(`${P} && echo done`, 'posix')?.echo ?? null), 'FAILED t\n');
    assert.equal(endingAside('[exit code: 1] printed by the run\nok', null), '[exit code: 1] printed by the run\nok');
  });
});

const FAIL = 'tests/test_api.py::test_login FAILED\nE       assert 401 == 200\nFAILED tests/test_api.py::test_login - assert 401 == 200\n==== 1 failed, 3 passed ====';


describe('the back-to-back run through the plumbing (preset)', () => {
  test('the same failing run with a cd in front or not, a subshell, || true and ; echo $?: after three same answers the 4th meets the gate, advised before', async () => {
    const outcomes = await runs('bash', [
      { command: `cd /repo && ${P} 2>&1`, code: 1, text: FAIL },
      { command: `${P} > /dev/stdout 2>&1`, code: 1, text: FAIL },
      { command: `${P}; echo $?`, code: 0, text: `${FAIL}\n1` },
      { command: `(cd /repo && ${P})`, code: 1, text: FAIL },
      { command: `${P} || true`, code: 0, text: FAIL },
    ]);
    assert.deepEqual(deniedAt(outcomes), [4, 5]);
    assert.deepEqual(noticedAt(outcomes).slice(0, 1), [3]);
  });

  test('the same failure in two directories, answers that move behind || true, and an echo that printed something else run on (the exit marker as DSH writes it)', async () => {
    const dirs = await runs('bash', ['a', 'b', 'c', 'd', 'e'].map((dir) => ({ command: `cd packages/${dir} && npm run lint || true`, code: 0, text: 'npm error Missing script: "lint"' })));
    assert.deepEqual(deniedAt(dirs), [], 'each directory is its own run, whatever it prints');
    const moving = await runs('bash', [1, 2, 3, 4, 5].map((left) => ({ command: `${P} || true`, code: 0, text: FAIL.replace('1 failed, 3 passed', `${left} failed, ${5 - left} passed`) })));
    assert.deepEqual(deniedAt(moving), []);
    const other = await runs('bash', [
      { command: P, code: 1, text: FAIL },
      { command: `${P}; echo $?`, code: 0, text: `${FAIL}\nTraceback: conftest.py` },
      { command: `${P}; echo $?`, code: 0, text: `${FAIL}\n2` },
      { command: P, code: 1, text: FAIL },
      { command: `${P}; echo $?`, code: 0, text: `${FAIL}\n3` },
    ]);
    assert.deepEqual(deniedAt(other), [], 'a last line the echo did not print is part of the answer');
  });

  test('at the gate, with no answer yet, a call in a context the run never answered in runs; once it answers alike, the run goes on', async () => {
    const outcomes = await runs('bash', [
      { command: P, code: 1, text: FAIL },
      { command: P, code: 1, text: FAIL },
      { command: P, code: 1, text: FAIL },
      { command: `cd packages/api && ${P}`, code: 1, text: FAIL },
      { command: `cd packages/api && ${P} 2>&1`, code: 1, text: FAIL },
      { command: `cd packages/web && ${P}`, code: 1, text: FAIL.replace('401', '500') },
    ]);
    assert.deepEqual(deniedAt(outcomes), [5], 'the 4th call, in a directory of its own, runs; the 5th asks in a context the run answered in');
  });

  test('a run in /repo, then bare, then in /other: the bare call joins, /other starts another run', async () => {
    const outcomes = await runs('bash', [
      { command: `cd /repo && ${P}`, code: 1, text: FAIL },
      { command: P, code: 1, text: FAIL },
      { command: `cd /other && ${P}`, code: 1, text: FAIL },
      { command: P, code: 1, text: FAIL },
      { command: `cd /other && ${P}`, code: 1, text: FAIL },
    ]);
    assert.deepEqual(deniedAt(outcomes), []);
  });
});

describe('hostile plumbing', () => {
  test('a line of two thousand cds, an echo of many statuses, a last line of digits: read to their bounds, no throw', () => {
    const cds = `${'cd a && '.repeat(2000)}pytest`;
    assert.ok(cds.length < 16_384, 'within what act: reads');
    assert.equal(aside(cds)?.endsWith(`${CONTEXT_MARK}pytest`), true);
    assert.equal(suffixOf(`${P}; echo "$?$?$?"`, 'posix'), null, 'three statuses in one echo: no suffix read');
    const two = suffixOf(`${P}; echo "$?:$?"`, 'posix')?.echo ?? null;
    assert.ok(two?.test('1:1'), 'two statuses in one echo are read');
    const digits = `FAILED\n${'1'.repeat(60_000)}`;
    assert.equal(endingAside(digits, suffixOf(`${P}; echo $?`, 'posix')?.echo ?? null), digits, 'a last line past the echo bound is the run\'s own');
  });
});

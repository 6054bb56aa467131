/**
 * A pytest run with its selection aside (call/pytest-select.ts) and its answer
 * with pytest's report of the selection aside (result/pytest-report.ts): a node
 * id and a `-k` of a part of its name join the stale track's back-to-back run
 * only when both fail with the very same answer so read.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { maySelectOneTest, pytestSelection, type Selection } from '../../src/lib/call/pytest-select.js';
import { selectionAsideDigest } from '../../src/lib/result/pytest-report.js';
import { ACT_READ_LIMIT } from '../../src/lib/shell/act/index.js';
import { ANSWER_READ_LIMIT } from '../../src/lib/result/answer.js';
import { bashResult, deniedAt, newHost, type CallOutcome } from '../support/session.js';

const RUN = 'python -m pytest tests/test_api.py';
const read = (line: string): Selection => {
  const selection = pytestSelection(line, 'posix', true);
  assert.ok(selection !== null, `${line} has a selection`);
  return selection;
};

/** What pytest prints for one failing test, selected as `collected` says, its summary as `summary`. */
const report = (collected: string, failed: readonly string[], summary: string): string =>
  `============================= test session starts ==============================\nrootdir: /repo\n${collected}\n\ntests/test_api.py ${'F'.repeat(failed.length)}    [100%]\n\n` +
  `=========================== short test summary info ============================\n${failed.map((name) => `FAILED tests/test_api.py::${name} - assert 401 == 200\n`).join('')}${summary}`;
const BY_ID = report('collected 1 item', ['test_login'], '============================== 1 failed in 0.42s ===============================');
const BY_KEYWORD = report('collected 4 items / 3 deselected / 1 selected', ['test_login'], '======================= 1 failed, 3 deselected in 0.44s ========================');

describe('a pytest run with its selection aside', () => {
  test('a node id and -k of its name, or of a part of it in any case, may select one test of the same run', () => {
    const id = read(`${RUN}::test_login`);
    assert.deepEqual([id.names, id.keywords], [['test_login'], []]);
    assert.ok(maySelectOneTest(id, read(`${RUN} -k test_login`)), 'the very name');
    assert.ok(maySelectOneTest(id, read(`${RUN} -k Login`)), 'a part of the name, any case');
    assert.ok(maySelectOneTest(read(`${RUN} -k login`), read(`pytest -k test_login tests/test_api.py`)), 'keywords alone: each a part of the longest');
    assert.ok(maySelectOneTest(read(`${RUN}'::TestApi::test_login[a-1]'`), read(`${RUN} -k test_login`)), 'a class and a parameter in the node id');
  });

  test('another test, a keyword not in the name, another file or other options: no', () => {
    const id = read(`${RUN}::test_login`);
    assert.equal(maySelectOneTest(id, read(`${RUN}::test_logout`)), false);
    assert.equal(maySelectOneTest(id, read(`${RUN} -k logout`)), false);
    assert.equal(maySelectOneTest(id, read('python -m pytest tests/test_auth.py -k test_login')), false);
    assert.equal(maySelectOneTest(id, read(`${RUN} -x --lf -k test_login`)), false, 'other options stay in the run');
    assert.equal(maySelectOneTest(read(`${RUN} -k login`), read(`${RUN} -k logout`)), false);
  });

  test('no selection read: no pytest, no selection, a -k expression, a line past act:\'s read limit', () => {
    assert.equal(pytestSelection('npm test -- -k login', 'posix', true), null);
    assert.equal(pytestSelection(RUN, 'posix', true), null);
    assert.equal(pytestSelection(`${RUN} -k "login and not admin"`, 'posix', true), null);
    assert.equal(pytestSelection(`${RUN}::test_login ${'x'.repeat(ACT_READ_LIMIT)}`, 'posix', true), null);
  });
});

describe('a pytest answer with its selection report aside', () => {
  test('collected counts, deselected tests and the summary\'s rule aside; failures and their counts stay', () => {
    assert.equal(selectionAsideDigest(BY_ID), selectionAsideDigest(BY_KEYWORD));
    const more = report('collected 4 items / 2 deselected / 2 selected', ['test_login', 'test_login_admin'], '======================= 2 failed, 2 deselected in 0.51s ========================');
    assert.notEqual(selectionAsideDigest(more), selectionAsideDigest(BY_ID), 'a keyword that selected more');
    assert.notEqual(selectionAsideDigest(BY_ID.replace('401 == 200', '500 == 200')), selectionAsideDigest(BY_KEYWORD), 'another failure');
  });

  test('no summary line, or a text past the read limit: no digest', () => {
    assert.equal(selectionAsideDigest('Traceback (most recent call last):\nImportError'), null);
    assert.equal(selectionAsideDigest(`${BY_ID}\n${'x'.repeat(ANSWER_READ_LIMIT)}`), null);
  });
});

describe('a node id and -k through the back-to-back run', () => {
  const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, limits: { act: 12 }, onLimit: 'deny' };
  test('the same failing test by node id and by -k in turn, each answered the same: the fourth call meets the gate', async () => {
    const host = newHost(config);
    const agent = {};
    const outcomes: CallOutcome[] = [];
    for (const [line, text] of [[`${RUN}::test_login`, BY_ID], [`${RUN} -k test_login`, BY_KEYWORD], [`${RUN}::test_login`, BY_ID], [`${RUN} -k test_login`, BY_KEYWORD]] as const) {
      outcomes.push(await host.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(1, text) }));
    }
    assert.deepEqual(deniedAt(outcomes), [4]);
  });

  test('tests run one by one, a keyword selecting more, or a passing test by node id and -k in turn: no gate', async () => {
    const host = newHost(config);
    const agent = {};
    const outcomes: CallOutcome[] = [];
    const more = report('collected 4 items / 2 deselected / 2 selected', ['test_login', 'test_login_admin'], '2 failed, 2 deselected in 0.51s');
    for (const [line, text] of [[`${RUN}::test_login`, BY_ID], [`${RUN} -k login`, more], [`${RUN}::test_login`, BY_ID], [`${RUN} -k login`, more], [`${RUN}::test_logout`, BY_ID.replaceAll('test_login', 'test_logout')]] as const) {
      outcomes.push(await host.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(1, text) }));
    }
    const passing = newHost(config);
    // A passing answer names no test (`.`): the same answer does not show the same test ran.
    for (const line of [`${RUN}::test_a`, `${RUN} -k test_a`, `${RUN}::test_a`, `${RUN} -k test_a`, `${RUN}::test_a`, `${RUN} -k test_a`]) {
      outcomes.push(await passing.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(0, '.\n1 passed in 0.10s') }));
    }
    assert.deepEqual(deniedAt(outcomes), []);
  });
});

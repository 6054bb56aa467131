/**
 * P14: DSH's minimal preset (persistent `bash`, `str_replace_editor`) read as
 * the one-shot tools are. The texts are the ones rc.8's
 * `@deepseek-ai/dsh-tool-bash-persistent` (and its pwsh twin) and
 * `@deepseek-ai/dsh-tool-str-replace-editor` write, rebuilt here from their
 * format strings; test/host/suites/minimal.ts checks them on the real host.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { classifyFailure } from '../../src/lib/result/failure.js';
import { describeFailure, describeFailureZh } from '../../src/lib/text/failure.js';
import { persistentFailure } from '../../src/lib/result/persistent.js';
import { loadOracleModule, loadReference } from '../parity/oracle.js';
import { FakeHost } from '../support/fake-host.js';
import { deniedAt, newHost, noticedAt, noticeTexts, on, summaries, type Call, type CallOutcome, type HostResult } from '../support/session.js';
import { persistentBash, persistentTimeout, refusedEdit, shellDeath, STDIN_WAIT } from '../support/minimal-tools.js';

const failWarnAt = on(DEFAULTS.failWarnAt);
const failLimit = on(DEFAULTS.failLimit);

async function run(host: FakeHost, agent: object, calls: readonly Call[]): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (const call of calls) out.push(await host.call({ agent, ...call }));
  return out;
}

const shell = (result: HostResult) => classifyFailure(result, { shell: true, command: 'python3 train.py' });

describe('P14: the persistent shell’s texts are failures as the one-shot’s are', () => {
  test('P14: the time-out text is a time-out, with its seconds', () => {
    assert.deepEqual(shell(persistentTimeout(300, 'epoch 1/50\nepoch 2/50')), { reason: 'timeout', detail: '300s' });
    assert.deepEqual(shell(persistentTimeout(5, '')), { reason: 'timeout', detail: '5s' });
    assert.equal(describeFailure(shell(persistentTimeout(300, 'x'))), 'the call hit its timeout (300s)');
  });

  test('P14: the time-out is read before a marker in its partial output', () => {
    assert.deepEqual(shell(persistentTimeout(30, 'Traceback (most recent call last):\nKeyError: x')), { reason: 'timeout', detail: '30s' });
  });

  test('P14: a non-zero status is the one-shot’s [exit code: N], read as before', () => {
    assert.deepEqual(shell(persistentBash('ls: cannot access x\n[exit code: 2]')), { reason: 'exit', detail: '2' });
  });

  test('P14: the shell killed, or exiting, under the command is a failure of the shell', () => {
    assert.deepEqual(shell(shellDeath('partial', '[shell killed by signal: SIGKILL]')), { reason: 'shell', detail: 'signal SIGKILL' });
    assert.deepEqual(shell(shellDeath('', '[shell exited: code 1]')), { reason: 'shell', detail: 'code 1' });
    assert.deepEqual(shell(shellDeath('bye', '[shell exited: code 0]')), { reason: 'shell', detail: 'code 0' });
    assert.deepEqual(shell(shellDeath('', '[shell exited]')), { reason: 'shell', detail: '' });
    assert.deepEqual(shell(shellDeath('', '[shell exited]', 'pwsh')), { reason: 'shell', detail: '' });
    assert.equal(describeFailure({ reason: 'shell', detail: 'code 1' }), 'the persistent shell died under the command (code 1)');
    assert.equal(describeFailureZh({ reason: 'shell', detail: '' }), '持久 shell 在命令执行中退出');
  });

  test('P14: a success, and an interactive child waiting on stdin, are no failure', () => {
    assert.equal(shell(persistentBash('ok')), null);
    assert.equal(shell(persistentBash(STDIN_WAIT)), null);
    assert.equal(shell(persistentBash('')), null);
  });

  test('P14: only the framing counts: the sentence elsewhere, or a marker not just before the reset notice, is output', () => {
    const timeout = persistentTimeout(300, 'x').content as Array<{ text: string }>;
    assert.equal(persistentFailure(`log:\n${timeout[0]?.text ?? ''}`), null, 'the time-out sentence must open the text');
    assert.equal(persistentFailure('[shell exited: code 1] is what the docs show'), null);
    const death = (shellDeath('', '[shell killed by signal: SIGKILL]').content as Array<{ text: string }>)[0]?.text ?? '';
    assert.equal(persistentFailure(death.replace('\n', '\nsomething else\n')), null, 'a line between the marker and the notice');
    assert.equal(persistentFailure(death.replace('[shell', 'note: [shell')), null, 'the marker is the whole line');
    assert.equal(persistentFailure(death.replace('SIGKILL]', ']')), null, 'a signal has a name');
    assert.equal(persistentFailure(death.replace('[shell killed by signal: SIGKILL]', '[shell exited: code x]')), null);
  });

  test('P14: the texts are read for shell tools only', () => {
    assert.equal(classifyFailure(persistentTimeout(300, 'x'), { shell: false }), null);
  });

  test('P14: the parity oracle reads every persistent text as the port does', async () => {
    const oracle = await loadOracleModule<{ classifyFailure: typeof classifyFailure }>('lib/failure.js');
    const reference = await loadOracleModule<{ classifyFailure: typeof classifyFailure }>('lib/failure.js', ['P1']);
    const texts = [
      persistentTimeout(300, 'epoch 1'),
      persistentTimeout(7, 'KeyError: y'),
      shellDeath('', '[shell killed by signal: SIGTERM]'),
      shellDeath('x', '[shell exited: code 3]'),
      shellDeath('', '[shell exited]', 'pwsh'),
      persistentBash('out\n[exit code: 1]'),
      persistentBash(STDIN_WAIT),
    ];
    for (const result of texts) {
      assert.deepEqual(oracle.classifyFailure(result, { shell: true }), classifyFailure(result, { shell: true }));
    }
    // Without P14 the reference reads no time-out and no death.
    assert.equal(reference.classifyFailure(persistentTimeout(300, 'epoch 1'), { shell: true }), null);
    assert.equal(reference.classifyFailure(shellDeath('', '[shell killed by signal: SIGKILL]'), { shell: true }), null);
  });
});

const train = (epochs: number): Call => ({ name: 'bash', arguments: { command: `python3 train.py --epochs ${epochs}` }, body: () => persistentTimeout(300, `epoch 1/${epochs}`) });
const trainAgain: Call = { name: 'bash', arguments: { command: 'python3 train.py' }, body: () => persistentTimeout(300, 'epoch 1/50') };

describe('P14: what the defaults decide on the persistent shell’s time-outs', () => {
  test('P14: eight time-outs of one command: advised at the failure warning, gated after the failure limit (0.5.2: nothing)', async () => {
    const calls = Array.from({ length: 8 }, () => trainAgain);
    const ours = await run(newHost({ onLimit: 'deny' }), {}, calls);
    assert.ok(noticedAt(ours).includes(failWarnAt), `a failure advisory at the ${failWarnAt}th`);
    assert.match(noticeTexts(ours[failWarnAt - 1]!).join('\n'), /the call hit its timeout \(300s\)/);
    assert.equal(deniedAt(ours)[0], failLimit + 1);
    const reference = await run(new FakeHost(await loadReference(), { onLimit: 'deny' }), {}, calls);
    assert.deepEqual(deniedAt(reference), [], '0.5.2 sees eight successes');
  });

  test('P14: a shell killed under the same command again and again builds the failure streak', async () => {
    const oom: Call = { name: 'bash', arguments: { command: 'python3 load.py' }, body: () => shellDeath('loading', '[shell killed by signal: SIGKILL]') };
    const outcomes = await run(newHost({ onLimit: 'deny' }), {}, Array.from({ length: failLimit + 1 }, () => oom));
    assert.deepEqual(deniedAt(outcomes), [failLimit + 1]);
  });
});

describe('P14: the recommended preset on the minimal tools', () => {
  test('P14: a respelled run that keeps timing out is advised at its 4th time-out and gated after its 5th by the timeouts track', async () => {
    const outcomes = await run(newHost({ preset: 'recommended', onLimit: 'deny' }), {}, [10, 20, 30, 40, 50, 60, 70].map(train));
    assert.ok(summaries(outcomes[3]!).includes('prog \u201cpython3 train.py\u201d timed out x4'), JSON.stringify(summaries(outcomes[3]!)));
    assert.equal(deniedAt(outcomes)[0], 6);
    assert.match(outcomes[5]!.denyReason ?? '', /timeout track/i);
  });

  const editor = (args: Record<string, unknown>, body?: () => HostResult): Call => ({ name: 'str_replace_editor', arguments: { path: '/repo/app.py', ...args }, ...(body === undefined ? {} : { body }) });
  const refused = (old: string): Call => editor({ command: 'str_replace', old_str: old, new_str: 'fixed' }, () => refusedEdit('/repo/app.py', old));
  const view = (range?: [number, number]): Call => editor(range === undefined ? { command: 'view' } : { command: 'view', view_range: range });

  test('P14: a refused str_replace re-sent respelled is advised at the 3rd and gated after the 4th by the edit-retry track', async () => {
    const outcomes = await run(newHost({ preset: 'recommended', onLimit: 'deny' }), {}, ['a', 'a ', ' a', 'a\n', 'a  '].map(refused));
    assert.deepEqual(summaries(outcomes[2]!), ['file \u201c/repo/app.py\u201d rejected x3']);
    assert.deepEqual(deniedAt(outcomes), [5]);
    assert.match(outcomes[4]!.denyReason ?? '', /edit-retry track/);
    assert.match(outcomes[4]!.denyReason ?? '', /FS_EDIT_NOT_FOUND/);
  });

  test('P14: a view is a read, never gated by the edit-retry track, and the edit made after it runs', async () => {
    const host = newHost({ preset: 'recommended', onLimit: 'deny' });
    const agent = {};
    await run(host, agent, ['a', 'b', 'c', 'd'].map(refused));
    assert.equal((await host.call({ agent, ...refused('e') })).denied, true, 'gated after four refusals');
    assert.equal((await host.call({ agent, ...view([10, 40]) })).denied, false, 'the view of a window runs');
    assert.equal((await host.call({ agent, ...editor({ command: 'str_replace', old_str: 'x', new_str: 'y' }) })).denied, false, 'and the edit after it');
  });

  test('P14: a failed view (FS_NOT_FOUND) is no rejected edit', async () => {
    const missing = editor({ command: 'view' }, () => refusedEdit('/repo/app.py', '', 'FS_NOT_FOUND'));
    const outcomes = await run(newHost({ preset: 'recommended', onLimit: 'deny' }), {}, [refused('a'), missing, refused('b'), missing, refused('c'), refused('d'), missing]);
    assert.deepEqual(summaries(outcomes[4]!), ['file \u201c/repo/app.py\u201d rejected x3'], 'the views neither count nor end the streak');
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('P14: a str_replace between two failing runs is a change: under failureProgress: restart the failure streak starts again', async () => {
    const check: Call = { name: 'bash', arguments: { command: 'python3 -m pytest tests/test_app.py' }, body: () => persistentBash('FAILED tests/test_app.py::test_x\n[exit code: 1]') };
    const fix = (n: number): Call => editor({ command: 'str_replace', old_str: `v${n}`, new_str: `v${n + 1}` });
    const create = (n: number): Call => ({ name: 'str_replace_editor', arguments: { command: 'create', path: `/repo/t${n}.py`, file_text: 'x' } });
    const insert = (n: number): Call => editor({ command: 'insert', insert_line: n, new_str: '# note' });
    const changes = [fix(1), create(2), insert(3), fix(4), create(5), insert(6), fix(7)];
    const calls = changes.flatMap((change) => [check, change]).concat([check]);
    // The preset reads progress as a new outcome: the same failure after a change extends the streak, so the change is shown under restart.
    const restart = { preset: 'recommended', failureProgress: 'restart', onLimit: 'deny' };
    assert.deepEqual(deniedAt(await run(newHost(restart), {}, calls)), []);
    const viewsOnly = Array.from({ length: 7 }, (_, n) => view([n + 1, n + 10])).flatMap((v) => [check, v]).concat([check]);
    assert.ok(deniedAt(await run(newHost(restart), {}, viewsOnly)).length > 0, 'a view changes nothing: the same failure is gated');
    assert.ok(deniedAt(await run(newHost({ preset: 'recommended', onLimit: 'deny' }), {}, calls)).length > 0, 'with the preset itself, a change after which the check fails the same way changed nothing');
  });
});

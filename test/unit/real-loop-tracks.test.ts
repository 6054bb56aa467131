/**
 * The other mechanisms for the loops real models make, each opt-in, through the
 * fake host: rejected edits of one file (`editRetry`), one program running out
 * of time (`timeouts`), progress in the failure track (`failureProgress:
 * restart`) and a rerun after a change counted from 1 (`progress: changes`).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bash, bashResult, deniedAt, failing, hostIn, newHost, noticedAt, noticeTexts, repeat, summaries, textResult, type Call, type CallOutcome, shown, refusalText } from '../support/session.js';
import type { FakeHost } from '../support/fake-host.js';

async function run(host: FakeHost, agent: object, calls: readonly Call[]): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (const call of calls) out.push(await host.call({ agent, ...call }));
  return out;
}

const rejectedEdit = (range: string, text = 'settings.configure(INSTALLED_APPS=[])'): Call => ({
  name: 'edit',
  arguments: { file_path: '/repo/reproduce.py', old_string: `<lines ${range}>`, new_string: text },
  body: () => textResult('Your proposed edit has introduced new syntax error(s).', {}, true),
});
const acceptedEdit: Call = { name: 'edit', arguments: { file_path: '/repo/reproduce.py', old_string: 'a', new_string: 'b' } };

describe('editRetry: rejected edits of one file, however respelled', () => {
  test('off by default: rejections at drifting ranges never add up', async () => {
    const outcomes = await run(newHost({ onLimit: 'deny' }), {}, ['9:12', '9:11', '9:18', '9:13', '9:9', '9:17'].map((r) => rejectedEdit(r)));
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('`editRetry: {}` advises at the 3rd rejection in a row and gates the next edit of the file after the 4th', async () => {
    const outcomes = await run(newHost({ editRetry: {}, onLimit: 'deny' }), {}, ['9:12', '9:11', '9:18', '9:13', '9:9', '9:17'].map((r) => rejectedEdit(r)));
    assert.deepEqual(noticedAt(outcomes), [3]);
    assert.deepEqual(deniedAt(outcomes), [5, 6]);
    assert.match(noticeTexts(outcomes[2]!)[0] ?? '', /^CONVERGENCE_CHECK: 3 edits of \/repo\/reproduce\.py in a row were rejected \(the tool threw an error/);
    assert.deepEqual(summaries(outcomes[2]!), [`${shown('file:/repo/reproduce.py')} rejected x3`]);
    assert.match(outcomes[4]!.denyReason ?? '', /by the edit-retry track of the loop breaker:\n- file:\/repo\/reproduce\.py — 4 rejected edits in a row/);
  });

  test('`limit: null` keeps the advisory and never gates: the file’s edits run however often they are rejected', async () => {
    const outcomes = await run(newHost({ editRetry: { limit: null }, onLimit: 'deny' }), {}, ['9:12', '9:11', '9:18', '9:13', '9:9', '9:17'].map((r, at) => rejectedEdit(r, `v${at}`)));
    assert.deepEqual(noticedAt(outcomes), [3]);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('a failing shell call is no edit: distinct failing commands bring no edit-retry advisory', async () => {
    const outcomes = await run(newHost({ editRetry: {}, onLimit: 'deny' }), {}, [1, 2, 3, 4].map((n) => ({ ...bash(`python check.py --case ${n}`), body: failing(1, `case ${n} failed`) })));
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('another replacement text is the same retry: the file is what counts', async () => {
    const outcomes = await run(newHost({ editRetry: {}, onLimit: 'deny' }), {}, [rejectedEdit('1:1', 'a'), rejectedEdit('1:2', 'b'), rejectedEdit('2:2', 'c'), rejectedEdit('3:3', 'd'), rejectedEdit('4:4', 'e')]);
    assert.deepEqual(deniedAt(outcomes), [5]);
  });

  test('an accepted edit of the file ends the streak; a rejection of another file does not touch it', async () => {
    const other: Call = { ...rejectedEdit('1:1'), arguments: { file_path: '/repo/other.py', old_string: 'x', new_string: 'y' } };
    const outcomes = await run(newHost({ editRetry: {}, onLimit: 'deny' }), {}, [
      rejectedEdit('1:1'), rejectedEdit('1:2'), rejectedEdit('1:3'), acceptedEdit,
      rejectedEdit('1:1'), other, other, rejectedEdit('1:2'), rejectedEdit('1:3'), rejectedEdit('1:4'), acceptedEdit,
    ]);
    assert.deepEqual(deniedAt(outcomes), [11], 'four rejections of reproduce.py after the accepted edit; the other file only reached 2');
  });

  test('the advisory and the refusal read whole, as the model reads them: the file, the count, what the tool said, the way out', async () => {
    const outcomes = await run(newHost({ editRetry: {}, onLimit: 'deny' }), {}, ['1:1', '1:2', '1:3', '1:4', '1:5'].map((r) => rejectedEdit(r)));
    assert.deepEqual(noticeTexts(outcomes[2]!), [
      'CONVERGENCE_CHECK: 3 edits of /repo/reproduce.py in a row were rejected (the tool threw an error). ' +
        'Re-sending it at another position or with other context will be rejected too. Read the part of the file you are changing as it is now, then send one edit whose old text is copied from what you read.',
    ]);
    // No line that a respelling is the same action: an edit of the file is counted whatever it says.
    assert.equal(
      outcomes[4]!.denyReason,
      'REPEAT_TOOL_BLOCKED: edit call not run: 4 edits of this file in a row were rejected (limit 4). It was stopped before it ran, by the edit-retry track of the loop breaker:\n' +
        '- file:/repo/reproduce.py — 4 rejected edits in a row (the tool threw an error)\n' +
        'Only edits of this file are blocked: reading it will run, and once you have read it, an edit made from what you read will run too.\n' +
        'Previous result:\nYour proposed edit has introduced new syntax error(s).\n' +
        'Instead: use the result you already have, take a genuinely different action, or answer with what you know now.',
    );
  });

  test('once the operator approves the file’s edits at the landed gate, its rejections this turn count for nothing toward the rejections’ stages', async () => {
    const host = newHost({ editRetry: { warnAt: 3, limit: 4, applied: 2 }, onLimit: 'ask' });
    const agent = {};
    const block: Call = { name: 'edit', arguments: { file_path: '/repo/reproduce.py', old_string: 'a = 1\nb = 2', new_string: 'a = 2\nb = 3\nc = 4' } };
    await run(host, agent, [block, block]);
    const approved = await host.call({ agent, ...block, answer: 'approve' });
    assert.equal(approved.asked, true, 'the same block landed twice: the third is put to the operator');
    // Uncounted while approved: three rejections bring no advisory at warnAt 3, four no ask at limit 4.
    const after = await run(host, agent, ['2:1', '2:2', '2:3', '2:4', '2:5'].map((r, at) => rejectedEdit(r, `x${at}`)));
    assert.deepEqual(after.map((outcome) => outcome.asked), [false, false, false, false, false]);
    assert.deepEqual(noticedAt(after), []);
  });

  test('once the operator approves the file’s edits at the rejections’ gate, the same edit sent again this turn is not counted either', async () => {
    const host = newHost({ editRetry: { warnAt: 3, limit: 3, resent: 3 }, onLimit: 'ask' });
    const agent = {};
    const before = await run(host, agent, ['a', 'b', 'c'].map((text, at) => rejectedEdit(`${at + 1}:1`, text)));
    assert.deepEqual(noticedAt(before), [3], 'the rejections’ advisory');
    const approved = await host.call({ agent, ...rejectedEdit('4:1', 'd'), answer: 'approve' });
    assert.equal(approved.asked, true, 'three rejections in a row: the next edit of the file is put to the operator');
    // One text three times: uncounted while approved, so the resend gate’s advisory never comes.
    const after = await run(host, agent, ['5:1', '6:1', '7:1'].map((r) => rejectedEdit(r, 'e')));
    assert.deepEqual(after.map((outcome) => outcome.asked), [false, false, false]);
    assert.deepEqual(noticedAt(after), []);
  });

  test('reading the file runs while its edits are gated, and is the way out: the edit after it runs', async () => {
    const host = newHost({ editRetry: {}, onLimit: 'deny' });
    const agent = {};
    await run(host, agent, ['1:1', '1:2', '1:3', '1:4'].map((r) => rejectedEdit(r)));
    assert.equal((await host.call({ agent, ...acceptedEdit })).denied, true, 'gated after four rejections');
    const read = await host.call({ agent, name: 'read', arguments: { file_path: '/repo/reproduce.py' } });
    assert.equal(read.denied, false);
    assert.equal((await host.call({ agent, ...acceptedEdit })).denied, false, 'an edit made after the read runs');
    assert.equal((await run(host, agent, [rejectedEdit('1:1')]))[0]?.denied, false, 'and the count starts again');
  });
});

const timedOut = (): ReturnType<typeof bashResult> => bashResult(124, 'The command timed out', { timedOut: true });
const train = (flags: string): Call => ({ ...bash(`fasttext supervised -input train.txt -output model ${flags}`), body: timedOut });
const quickTrain: Call = { ...bash('fasttext supervised -input small.txt -output model -epoch 1'), body: () => bashResult(0, 'done') };

describe('timeouts: one program running out of time again, whatever its flags', () => {
  test('off by default: four respelled time-outs with a quick success between bring no notice', async () => {
    const outcomes = await run(newHost({ onLimit: 'deny' }), {}, [train('-epoch 25'), train('-epoch 5'), quickTrain, train('-dim 50'), train('-lr 0.1')]);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('`timeouts: {}` advises at the program’s 3rd time-out this turn; a quick success between does not reset it; no gate', async () => {
    const outcomes = await run(newHost({ timeouts: {}, onLimit: 'deny' }), {}, [train('-epoch 25'), train('-epoch 5'), quickTrain, train('-dim 50'), train('-lr 0.1'), train('-lr 0.2')]);
    assert.deepEqual(noticedAt(outcomes), [4]);
    assert.match(noticeTexts(outcomes[3]!)[0] ?? '', /^CONVERGENCE_CHECK: fasttext supervised has run out of time 3 times this turn\./);
    assert.deepEqual(summaries(outcomes[3]!), [`${shown('prog:fasttext supervised')} timed out x3`]);
    assert.deepEqual(deniedAt(outcomes), [], 'the default has no gate');
  });

  test('with a limit, the next run of the program after that many time-outs meets the gate; another program runs', async () => {
    const host = newHost({ timeouts: { warnAt: 2, limit: 3 }, onLimit: 'deny' });
    const agent = {};
    const outcomes = await run(host, agent, [train('-a 1'), train('-a 2'), train('-a 3'), train('-a 4')]);
    assert.deepEqual(deniedAt(outcomes), [4]);
    assert.match(outcomes[3]!.denyReason ?? '', /prog:fasttext supervised — ran out of time 3 times this turn \(limit 3\)/);
    const other = await host.call({ agent, ...bash('python evaluate.py') });
    assert.equal(other.denied, false);
  });

  test('the advisory, the refusal and the ask read whole: the program, the count, the way out', async () => {
    const outcomes = await run(newHost({ timeouts: { warnAt: 2, limit: 3 }, onLimit: 'deny' }), {}, [train('-a 1'), train('-a 2'), train('-a 3'), train('-a 4')]);
    assert.deepEqual(noticeTexts(outcomes[1]!), [
      'CONVERGENCE_CHECK: fasttext supervised has run out of time 2 times this turn. Starting it again with other flags will run out of time again. ' +
        'Make the job fit the time it has (a smaller input, fewer iterations), run it in the background and check on it, or say what it needs.',
    ]);
    assert.equal(
      outcomes[3]!.denyReason,
      refusalText({
        reason: 'this program ran out of time 3 times (limit 3)',
        track: 'timeout',
        hits: ['prog:fasttext supervised \u2014 ran out of time 3 times this turn (limit 3)'],
        note: 'Only runs of the program that keeps running out of time are blocked: a smaller job under another command, or a check on a background run, will run.',
        previous: 'The command timed out\n[exit code: 124]',
      }),
    );
    const tail = { en: ' Allow once runs it and stops counting calls like it until your next message. Reject blocks it and calls like it until then.', zh: '允许一次：放行这次调用，并在你发送下一条消息之前不再对同类调用计数。拒绝：阻止这次调用和同类调用，直到你发送下一条消息。' };
    const english = await run(hostIn('en', { timeouts: { warnAt: 2, limit: 3 } }), {}, [train('-a 1'), train('-a 2'), train('-a 3'), train('-a 4')]);
    assert.equal(english[3]!.askReason, `Loop breaker: the program \u201cfasttext supervised\u201d has run out of time 3 times this turn.${tail.en}`);
    const chinese = await run(hostIn('zh', { timeouts: { warnAt: 2, limit: 3 } }), {}, [train('-a 1'), train('-a 2'), train('-a 3'), train('-a 4')]);
    assert.equal(chinese[3]!.askReason, `重复调用断路器：程序 \u201cfasttext supervised\u201d 本回合已超时 3 次。${tail.zh}`);
  });

  test('`respelled: 3`: the third new spelling to time out, one after a smaller run fit, arms the gate with an advisory; its texts whole', async () => {
    const calls = [train('-a 1'), quickTrain, train('-a 2'), train('-a 3'), train('-a 4')];
    const outcomes = await run(newHost({ timeouts: { respelled: 3 }, onLimit: 'deny' }), {}, calls);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[4], [5]], 'two respelled time-outs and a fit arm nothing; the third does');
    assert.deepEqual(noticeTexts(outcomes[3]!), [
      'CONVERGENCE_CHECK: fasttext supervised has run out of time 3 times this turn, each time with new flags or code, after a smaller run of it finished. ' +
        'Another setting of the same job will run out of time again, and its next run will be refused. Keep to the size that finished, run the big job in the background and check on it, or say what it needs.',
    ]);
    assert.equal(
      outcomes[4]!.denyReason,
      refusalText({
        reason: 'this program ran out of time 3 times, each respelled, though a smaller run fit (limit 3)',
        track: 'timeout',
        hits: ['prog:fasttext supervised \u2014 ran out of time 3 times this turn, each with new flags or code, though a smaller run of it fit (limit 3)'],
        note: 'Only runs of the program that keeps running out of time are blocked: a smaller job under another command, or a check on a background run, will run.',
        previous: 'The command timed out\n[exit code: 124]',
      }),
    );
    const english = await run(hostIn('en', { timeouts: { respelled: 3 } }), {}, calls);
    assert.equal(english[4]!.askReason, 'Loop breaker: the program \u201cfasttext supervised\u201d timed out 3 times respelled, though a smaller run fit. Allow once runs it and stops counting calls like it until your next message. Reject blocks it and calls like it until then.');
    const chinese = await run(hostIn('zh', { timeouts: { respelled: 3 } }), {}, calls);
    assert.equal(chinese[4]!.askReason, '重复调用断路器：程序 \u201cfasttext supervised\u201d 换了写法超时 3 次，而它较小的一次运行已按时完成。允许一次：放行这次调用，并在你发送下一条消息之前不再对同类调用计数。拒绝：阻止这次调用和同类调用，直到你发送下一条消息。');
  });

  test('once the operator allows the program, its time-outs this turn are not counted; a human message starts the count again', async () => {
    // The respelled gate arms at 3, before the count's advisory at 5: uncounted once allowed, the 5th brings none.
    const host = newHost({ timeouts: { warnAt: 5, respelled: 3 } });
    const agent = {};
    await run(host, agent, [train('-a 1'), quickTrain, train('-a 2'), train('-a 3')]);
    assert.equal((await host.call({ agent, ...train('-a 4'), answer: 'approve' })).asked, true);
    const after = await run(host, agent, [train('-a 5'), train('-a 6'), train('-a 7')]);
    assert.deepEqual([noticedAt(after), after.map((outcome) => outcome.asked)], [[], [false, false, false]]);
    const fresh = newHost({ timeouts: { warnAt: 2, limit: 3 }, onLimit: 'deny' });
    await run(fresh, agent, [train('-a 1'), train('-a 2'), train('-a 3')]);
    await fresh.human(agent);
    const next = await run(fresh, agent, [train('-a 4'), train('-a 5'), train('-a 6')]);
    assert.deepEqual([noticedAt(next), deniedAt(next)], [[2], []], 'counted from one again: advised at the 2nd, no gate before a 3rd');
  });

  test('a failure that is not a time-out does not count', async () => {
    const outcomes = await run(newHost({ timeouts: {}, onLimit: 'deny' }), {}, [1, 2, 3, 4].map((n) => ({ ...bash(`make build N=${n}`), body: failing(2) })));
    assert.deepEqual(summaries(outcomes[3]!).filter((s) => s.includes('timed out')), []);
  });
});

describe('failureProgress: restart', () => {
  const runIt = bash('python reproduce.py');
  const error = (text: string): Call => ({ ...runIt, body: failing(1, text) });
  const edit = (n: number): Call => ({ name: 'edit', arguments: { file_path: 'src/x.py', old_string: `v${n}`, new_string: `v${n + 1}` } });

  test('off by default (0.5.2): five failures of one command are gated, edits and new errors between or not', async () => {
    const outcomes = await run(newHost({ onLimit: 'deny' }), {}, [error('E1'), edit(1), error('E2'), edit(2), error('E3'), edit(3), error('E4'), edit(4), error('E5'), edit(5), error('E6')]);
    assert.deepEqual(deniedAt(outcomes), [11]);
  });

  test('edit → rerun with a new error is progress: no failure advisory, no gate', async () => {
    const outcomes = await run(newHost({ failureProgress: 'restart', onLimit: 'deny' }), {}, [error('E1'), edit(1), error('E2'), edit(2), error('E3'), edit(3), error('E4'), edit(4), error('E5'), edit(5), error('E6')]);
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('the same error again with nothing changed is the same failure: advised and gated as before', async () => {
    const outcomes = await repeat(newHost({ failureProgress: 'restart', onLimit: 'deny' }), {}, 6, error('KeyError: x'));
    assert.deepEqual(noticedAt(outcomes), [3]);
    assert.deepEqual(deniedAt(outcomes), [6]);
  });

  test('a new error with nothing changed holds the streak where it is; the same error again extends it', async () => {
    // X X Y Y Y Y: 1 2 2 (held) 3 4 5, so the call after the sixth is gated, one call later than 0.5.2.
    const outcomes = await run(newHost({ failureProgress: 'restart', onLimit: 'deny' }), {}, ['X', 'X', 'Y', 'Y', 'Y', 'Y', 'Y'].map(error));
    assert.deepEqual(deniedAt(outcomes), [7], 'the second Y extends the held 2');
  });

  test('new errors alone never add up; a change alone starts the streak again', async () => {
    const newErrors = await run(newHost({ failureProgress: 'restart', onLimit: 'deny' }), {}, ['a', 'b', 'c', 'd', 'e', 'f'].map(error));
    assert.deepEqual(deniedAt(newErrors), []);
    const sameError = await run(newHost({ failureProgress: 'restart', onLimit: 'deny' }), {}, [error('X'), edit(1), error('X'), edit(2), error('X'), edit(3), error('X'), edit(4), error('X'), edit(5), error('X')]);
    assert.deepEqual(deniedAt(sameError), []);
  });
});

describe('progress: changes', () => {
  const test_ = bash('python test_transform.py');
  const rewrite = (n: number): Call => ({ ...bash(`cat > grid.py <<'EOF'\ndef solve(): return ${n}\nEOF`) });

  test('off by default: the 7th run of one test between rewrites earns the repeat advisory', async () => {
    const calls: Call[] = [];
    for (let i = 0; i < 7; i += 1) calls.push(rewrite(i), test_);
    const outcomes = await run(newHost(), {}, calls);
    assert.ok(summaries(outcomes[13]!).includes(`${shown('cmd:python:python test_transform.py')} × 7`), summaries(outcomes[13]!).join(', '));
  });

  test('a run after a change counts from 1 again: no repeat advisory for edit → rerun', async () => {
    const calls: Call[] = [];
    for (let i = 0; i < 12; i += 1) calls.push(rewrite(i), test_);
    const outcomes = await run(newHost({ progress: 'changes', onLimit: 'deny' }), {}, calls);
    assert.deepEqual(outcomes.flatMap(summaries).filter((s) => s.includes('test_transform')), []);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('writes are not renewed by their own changes: twelve rewrites of one file still meet the sink: cap', async () => {
    const calls: Call[] = [];
    for (let i = 0; i < 12; i += 1) calls.push(rewrite(i));
    assert.deepEqual(deniedAt(await run(newHost({ progress: 'changes', onLimit: 'deny' }), {}, calls)), [12]);
  });

  test('runs with nothing changed in between still count and meet the cap', async () => {
    const outcomes = await repeat(newHost({ progress: 'changes', onLimit: 'deny' }), {}, 12, test_);
    assert.deepEqual(noticedAt(outcomes), [7, 11]);
    assert.deepEqual(deniedAt(outcomes), [12]);
  });

  test('a fetch is not renewed by a change to local files: it counts as without the setting', async () => {
    const fetch: Call = { name: 'web_fetch', arguments: { url: 'https://example.com/a' } };
    const calls: Call[] = [];
    // Each change writes another file, so only the fetch repeats.
    for (let i = 0; i < 12; i += 1) calls.push(bash(`echo ${i} > step${i}.txt`), fetch);
    const renewed = await run(newHost({ progress: 'changes', onLimit: 'deny', window: 24 }), {}, calls);
    const plain = await run(newHost({ onLimit: 'deny', window: 24 }), {}, calls);
    assert.deepEqual(deniedAt(renewed), [24]);
    assert.deepEqual(deniedAt(renewed), deniedAt(plain));
  });
});

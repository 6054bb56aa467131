/**
 * A look with its wait aside (call/waits.ts): `sleep N &&`, `sleep N;` and
 * `Start-Sleep -s N;` in front of a look are read as the look, so the same
 * look answered the very same way continues the stale track's back-to-back
 * run (preset); a wait alone, a look that waits again, or a look whose answer
 * moves stay polls that run on.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitAside } from '../../src/lib/call/waits.js';
import { ACT_READ_LIMIT } from '../../src/lib/shell/act/index.js';
import { deniedAt, noticedAt, runs } from '../support/session.js';

describe('waitAside: the look a leading wait is in front of', () => {
  test('sleep N && and sleep N; (a unit, a fraction) are set aside; PowerShell Start-Sleep N; with -s, -Seconds, -m', () => {
    assert.equal(waitAside('sleep 5 && cat out.log', false), 'cat out.log');
    assert.equal(waitAside('sleep 10; cat out.log', false), 'cat out.log');
    assert.equal(waitAside('  sleep 2.5s &&   tail -n 20 log', false), 'tail -n 20 log');
    assert.equal(waitAside('Start-Sleep -s 5; Get-Content out.log', true), 'Get-Content out.log');
    assert.equal(waitAside('Start-Sleep -Seconds 5; Get-Content out.log', true), 'Get-Content out.log');
    assert.equal(waitAside('start-sleep 3; gc out.log', true), 'gc out.log');
  });

  test('not read: no wait first, a wait alone, a wait not followed by && or ;, a look that waits again, a line past what act reads', () => {
    assert.equal(waitAside('cat out.log', false), null);
    assert.equal(waitAside('sleep 60', false), null);
    assert.equal(waitAside('sleep 60 && ', false), null);
    assert.equal(waitAside('sleep 5 || cat out.log', false), null, '|| runs the look only when the wait failed');
    assert.equal(waitAside('sleep 5 & cat out.log', false), null);
    assert.equal(waitAside('sleep $N && cat out.log', false), null, 'a wait of a value not written out');
    assert.equal(waitAside('sleep 5 && sleep 5 && cat out.log', false), null);
    assert.equal(waitAside('sleep 5 && wait', false), null);
    assert.equal(waitAside('sleep 1; watch -n 1 cat out.log', false), null);
    assert.equal(waitAside('cat out.log && sleep 5', false), null);
    assert.equal(waitAside('Start-Sleep -s 5 && Get-Content out.log', false), null, 'Start-Sleep is read only for PowerShell');
    assert.equal(waitAside(`sleep 5 && cat ${'a'.repeat(ACT_READ_LIMIT)}`, false), null);
  });
});

const STUCK = 'starting server...\nERROR: port 8000 in use';


describe('the back-to-back run through a poll respelled by its wait (preset)', () => {
  test('the same look behind a new wait each time (or none), the very same answer: after three the 4th meets the gate, advised before', async () => {
    const lines = ['sleep 5 && cat out.log', 'sleep 10 && cat out.log', 'sleep 5; cat out.log', 'cat out.log', 'sleep 30 && cat out.log', 'sleep 5 && cat out.log'];
    const outcomes = await runs('bash', lines.map((command) => ({ command, text: STUCK })));
    assert.deepEqual(deniedAt(outcomes), [4, 5, 6]);
    assert.deepEqual(noticedAt(outcomes).slice(0, 1), [3]);
  });

  test('the same poll written the same way each time is the same look too', async () => {
    const outcomes = await runs('bash', Array.from({ length: 6 }, () => ({ command: 'sleep 5 && cat out.log', text: STUCK })));
    assert.deepEqual(deniedAt(outcomes).slice(0, 1), [4]);
  });

  test('run on: a look whose answer grows, a wait between two different looks, a wait alone, a look answered nothing', async () => {
    const growing = await runs('bash', [5, 10, 5, 30, 5, 10].map((n, at) => ({ command: `sleep ${n} && cat out.log`, text: `starting server...\n${'epoch done\n'.repeat(at + 1)}` })));
    assert.deepEqual([noticedAt(growing), deniedAt(growing)], [[], []]);
    const looks = await runs('bash', [0, 1, 2, 3, 4, 5].map((at) => ({ command: at % 2 === 0 ? `sleep ${at + 1} && cat out.log` : `sleep ${at} && cat err.log`, text: STUCK })));
    assert.deepEqual(deniedAt(looks), [], 'two looks in turn are no back-to-back run (the round of two asks more)');
    const alone = await runs('bash', Array.from({ length: 6 }, () => ({ command: 'sleep 60', text: '' })));
    assert.deepEqual([noticedAt(alone), deniedAt(alone)], [[], []]);
    const empty = await runs('bash', [5, 10, 5, 30, 5, 10].map((n) => ({ command: `sleep ${n} && cat out.log`, text: '' })));
    assert.deepEqual(deniedAt(empty), [], 'an empty answer says nothing of the look');
  });

  test('the defaults do not read the wait aside: a respelled poll is never counted by the stale track', async () => {
    const lines = ['sleep 5 && cat out.log', 'sleep 10 && cat out.log', 'sleep 5; cat out.log', 'sleep 20 && cat out.log', 'sleep 30 && cat out.log', 'sleep 2 && cat out.log'];
    const outcomes = await runs('bash', lines.map((command) => ({ command, text: STUCK })), { onLimit: 'deny' });
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });
});

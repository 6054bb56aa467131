/**
 * Two readings of a call the opt-in tracks use: whether it is a poll (the stale
 * track leaves those alone) and which programs a shell line runs (the timeout
 * track counts per program).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isPoll } from '../../src/lib/call/poll.js';
import { programsOf } from '../../src/lib/shell/program.js';

describe('isPoll', () => {
  test("a background job's output, a job list or status is a poll", () => {
    for (const name of ['job_output', 'bash_output', 'task_output', 'job_list', 'job_status', 'get_logs']) assert.equal(isPoll(name, undefined), true, name);
  });

  test('other tools are not', () => {
    for (const name of ['read', 'edit', 'grep', 'web_fetch', 'outputter']) assert.equal(isPoll(name, undefined), false, name);
  });

  test('a shell line that sleeps, waits or watches before it looks is a poll; one that only looks is not', () => {
    assert.equal(isPoll('bash', 'sleep 30 && tail -n 5 train.log'), true);
    assert.equal(isPoll('bash', 'wait; cat out.txt'), true);
    assert.equal(isPoll('bash', 'watch -n 5 nvidia-smi'), true);
    assert.equal(isPoll('bash', 'tail -n 5 train.log'), false);
    assert.equal(isPoll('bash', 'timeout 30 make'), false, 'a time limit is no wait');
  });
});

describe('programsOf: a program is its name and first operand', () => {
  test('flags do not count: the same job with other hyperparameters is the same program', () => {
    assert.deepEqual(programsOf('fasttext supervised -input train.txt -output model -epoch 25 -lr 0.1'), ['fasttext supervised']);
    assert.deepEqual(programsOf('fasttext supervised -input small.txt -epoch 5'), ['fasttext supervised']);
  });

  test('wrappers, assignments and a time limit are looked through', () => {
    assert.deepEqual(programsOf('timeout 300 python quick_eval.py'), ['python quick_eval.py']);
    assert.deepEqual(programsOf('CUDA=0 nice -n 5 python train.py --lr 3'), ['python train.py']);
  });

  test('commands that finish at once are left out; every other command of the line is listed once', () => {
    assert.deepEqual(programsOf('head -50000 train.txt > t.txt && fasttext supervised -input t.txt'), ['fasttext supervised']);
    assert.deepEqual(programsOf('cd /app && make test && make test'), ['make test']);
    assert.deepEqual(programsOf('ls -la && echo hi'), []);
  });

  test("a here-document's body is data: only its first line is read", () => {
    assert.deepEqual(programsOf("python3 - <<'EOF'\nimport os\nos.system('make')\nEOF"), ['python3 -']);
  });

  test('a path is cut to its basename, so ./run.sh and /w/run.sh are one program', () => {
    assert.deepEqual(programsOf('./scripts/run.sh 1'), ['run.sh 1']);
    assert.deepEqual(programsOf('python /w/src/train.py'), ['python train.py']);
  });
});

/**
 * The stale track (opt-in, `stale`): the same call returning the same result,
 * nothing changed in between. Through the fake host: the advisory, the gate,
 * what starts the count again (a new result, a change, a human message), what
 * it leaves alone (polls, other agents), and that it is off by default.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bash, bashResult, deniedAt, hitLines, hostIn, newHost, noticedAt, noticeTexts, repeat, summaries, textResult, type Call, type CallOutcome, shown, refusalText } from '../support/session.js';
import type { FakeHost } from '../support/fake-host.js';
import { staleTrack } from '../../src/lib/tracks/stale.js';

const answering = (text: string) => () => bashResult(0, text);
const FIND: Call = { ...bash('find_file "JsonParser"'), body: answering('No matches found for "JsonParser"') };

async function run(host: FakeHost, agent: object, calls: readonly Call[]): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (const call of calls) out.push(await host.call({ agent, ...call }));
  return out;
}

describe('the stale track', () => {
  test('off by default: twelve identical answers bring nothing before the repeat track’s own stage', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, 6, FIND);
    assert.deepEqual(noticedAt(outcomes), []);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('`stale: {}` advises at the 3rd same result and gates the call after the 4th', async () => {
    const outcomes = await repeat(newHost({ stale: {}, onLimit: 'deny' }), {}, 6, FIND);
    assert.deepEqual(noticedAt(outcomes), [3]);
    assert.deepEqual(deniedAt(outcomes), [5, 6]);
    const advisory = noticeTexts(outcomes[2]!)[0] ?? '';
    assert.match(advisory, /^CONVERGENCE_CHECK: cmd:find_file:find_file JsonParser has returned the same result 3 times in a row, with nothing changed in between\./);
    assert.deepEqual(summaries(outcomes[2]!), [`${shown('cmd:find_file:find_file JsonParser')} same result x3`]);
    assert.match(outcomes[4]!.denyReason ?? '', /^REPEAT_TOOL_BLOCKED: bash call not run: calls like it returned the same result 4 times in a row \(limit 4\)\. It was stopped before it ran, by the stale track/);
    assert.match(outcomes[4]!.denyReason ?? '', /Only the call that keeps returning the same result is blocked/);
  });

  test('the stages are settings: warnAt 2 and limit 2 advise at the 2nd and gate the 3rd', async () => {
    const outcomes = await repeat(newHost({ stale: { warnAt: 2, limit: 2 }, onLimit: 'deny' }), {}, 3, FIND);
    assert.deepEqual(noticedAt(outcomes), [2]);
    assert.deepEqual(deniedAt(outcomes), [3]);
  });

  test('a result that moves is news: a poll counting up is never stale', async () => {
    const host = newHost({ stale: {}, onLimit: 'deny' });
    const agent = {};
    const outcomes: CallOutcome[] = [];
    // Six calls: the repeat track's first stage (7) stays out of it.
    for (let i = 0; i < 6; i += 1) outcomes.push(await host.call({ agent, ...bash('wc -l out.csv'), body: answering(`${i * 10} out.csv`) }));
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('A B A B is as stale as A A A A: a result already returned this turn is no news', async () => {
    const host = newHost({ stale: {}, onLimit: 'deny' });
    const agent = {};
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < 6; i += 1) outcomes.push(await host.call({ agent, ...bash('cat view.txt'), body: answering(i % 2 === 0 ? '127 lines' : '128 lines') }));
    assert.deepEqual(deniedAt(outcomes), [6], 'results 1 2 1 2 1: the 3rd to 5th were all known');
  });

  test('a change to the workspace in between starts the count again (edit → rerun is a new experiment)', async () => {
    const host = newHost({ stale: {}, onLimit: 'deny' });
    const agent = {};
    const run_ = { ...bash('python reproduce.py'), body: answering('Traceback: KeyError') };
    const edit: Call = { name: 'edit', arguments: { file_path: 'src/x.py', old_string: 'a', new_string: 'b' } };
    const outcomes = await run(host, agent, [run_, run_, run_, edit, run_, run_, run_, run_, run_]);
    assert.deepEqual(deniedAt(outcomes), [9], 'after the edit, four more same results are needed');
  });

  test('the same write again is no change: a rewrite of one file with one content leaves the count going, the write\'s own too', async () => {
    const host = newHost({ stale: {}, onLimit: 'deny' });
    const agent = {};
    const write: Call = { name: 'write', arguments: { file_path: 'x.py', content: 'print(1)' } };
    const check = { ...bash('python x.py'), body: answering('1') };
    const outcomes = await run(host, agent, [write, check, write, check, write, check, write, check, write, check]);
    // The first write's change came before its answer: each write after it answers the same, nothing changed in between.
    assert.deepEqual(deniedAt(outcomes), [9, 10], 'the first write is a change; its repeats are not');
  });

  test('a rejected edit changes nothing: the count goes on across it', async () => {
    const host = newHost({ stale: {}, onLimit: 'deny' });
    const agent = {};
    const rejected: Call = { name: 'edit', arguments: { file_path: 'x.py', old_string: 'a', new_string: 'b' }, body: () => textResult('old_string not found', {}, true) };
    const read: Call = { name: 'read', arguments: { file_path: 'x.py' }, body: () => textResult('1: a = 1') };
    const outcomes = await run(host, agent, [read, rejected, read, read, read, read]);
    assert.deepEqual(deniedAt(outcomes), [6]);
  });

  test('polls are left alone: a job still running answers the same while it waits', async () => {
    const host = newHost({ stale: {}, onLimit: 'deny' });
    const agent = {};
    const job: Call = { name: 'job_output', arguments: { id: 'j1' }, body: () => textResult('running') };
    const sleeper = { ...bash('sleep 30 && tail -n 1 train.log'), body: answering('epoch 3') };
    const outcomes = await run(host, agent, [job, job, job, job, job, job, sleeper, sleeper, sleeper, sleeper, sleeper, sleeper]);
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('a human message clears the count; each agent has its own', async () => {
    const host = newHost({ stale: {}, onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, 4, FIND);
    assert.deepEqual(deniedAt(await repeat(host, {}, 4, FIND)), [], 'another agent starts from nothing');
    await host.human(agent);
    assert.deepEqual(deniedAt(await repeat(host, agent, 4, FIND)), [], 'after the human message the agent starts again');
  });

  test('respellings the act: measure folds share one count (the no-op `:` with any arguments)', async () => {
    const host = newHost({ stale: {}, onLimit: 'deny', limits: { act: 12 } });
    const agent = {};
    const noop = (words: string) => ({ ...bash(`: ${words}`), body: answering('(Bash completed with no output)') });
    const outcomes = await run(host, agent, [noop('ls -la /app'), noop('pwd'), noop('"test"'), noop('ls'), noop('echo hi')]);
    assert.deepEqual(deniedAt(outcomes), [5]);
  });

  test('with onLimit ask, the operator is asked; an approval lets the stale call run for the turn', async () => {
    const host = newHost({ stale: {} });
    const agent = {};
    await repeat(host, agent, 4, FIND);
    const asked = await host.call({ agent, ...FIND, answer: 'approve' });
    assert.equal(asked.asked, true);
    assert.match(asked.askReason ?? '', /^Loop breaker: this command has returned the same result \d+ times, with nothing changed in between\. /);
    assert.equal(asked.denied, false);
    assert.deepEqual(deniedAt(await repeat(host, agent, 3, FIND)), []);
  });

  test('`backToBack: 3`: the very same call answered the same way three times with no call between is gated at the 4th', async () => {
    const outcomes = await repeat(newHost({ stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' }), {}, 5, FIND);
    assert.deepEqual(noticedAt(outcomes), [3], 'the advisory comes first');
    assert.deepEqual(deniedAt(outcomes), [4, 5]);
    assert.match(outcomes[3]!.denyReason ?? '', /the same result 3 times in a row \(limit 3\)/);
  });

  test('`cycle: 5`: once one call returned the same result 5 times, the next call answered before is gated, whichever it is', async () => {
    const OPEN: Call = { ...bash('cat src/Types.java'), body: () => bashResult(1, 'cat: src/Types.java: No such file or directory') };
    const SEARCH: Call = { ...bash('grep -rl TypeVariable src'), body: answering('src/internal/Types.java') };
    const config = { stale: { warnAt: 3, limit: 5, cycle: 5 }, onLimit: 'deny' };
    // OPEN settles 5 times the same (calls 1 3 5 7 9), SEARCH between them: the round is going.
    const outcomes = await run(newHost(config), {}, [OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN]);
    assert.deepEqual(deniedAt(outcomes), [10, 11], 'the search answered before is gated with the open, the 10th call; without cycle the 11th');
    assert.match(outcomes[9]!.denyReason ?? '', /this call was answered before, nothing changed since, and the turn is going round: .*cat src\/Types\.java"\} returned the same result 5 times in a row \(limit 5\)/);
    assert.deepEqual(deniedAt(await run(newHost({ stale: { warnAt: 3, limit: 5 }, onLimit: 'deny' }), {}, [OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN])), [11]);
  });

  test('the advisory and the refusal read whole, as the model reads them: the call, the count, nothing changed, what still runs', async () => {
    const outcomes = await repeat(newHost({ stale: {}, onLimit: 'deny' }), {}, 5, FIND);
    assert.deepEqual(noticeTexts(outcomes[2]!), [
      'CONVERGENCE_CHECK: cmd:find_file:find_file JsonParser has returned the same result 3 times in a row, with nothing changed in between. ' +
        'Running it again will return it again. Use what it returned, or change what you do: another command, another target, or a fix before the rerun.',
    ]);
    assert.equal(
      outcomes[4]!.denyReason,
      refusalText({
        reason: 'calls like it returned the same result 4 times in a row (limit 4)',
        track: 'stale',
        hits: [
          'exact:bash:{"command":"find_file \\"JsonParser\\""} \u2014 the same result 4 times in a row, nothing changed in between (limit 4)',
          'cmd:find_file:find_file JsonParser \u2014 the same result 4 times in a row, nothing changed in between (limit 4)',
        ],
        note: 'Only the call that keeps returning the same result is blocked: a different call, or this one after a change to the files it reads, will run.',
        previous: 'No matches found for "JsonParser"',
      }),
    );
  });

  test('the ask says the call returned the same result, nothing changed, in English and in Chinese', async () => {
    const tail = ' Allow once runs it and stops counting calls like it until your next message. Reject blocks it and calls like it until then.';
    const english = await repeat(hostIn('en', { stale: {} }), {}, 5, FIND);
    assert.equal(english[4]!.askReason, `Loop breaker: this command has returned the same result 4 times, with nothing changed in between.${tail}`);
    const chinese = await repeat(hostIn('zh', { stale: {} }), {}, 5, FIND);
    assert.equal(chinese[4]!.askReason, '重复调用断路器：这条命令已 4 次返回相同的结果，期间没有任何改动。允许一次：放行这次调用，并在你发送下一条消息之前不再对同类调用计数。拒绝：阻止这次调用和同类调用，直到你发送下一条消息。');
    // A subject that names many calls (requests for a host) takes the plural.
    const hit = { words: staleTrack.words, quote: '', count: 4, cap: 4, detail: '', subject: { one: 'request for x', it: 'requests for x', many: true }, shown: '', failed: '' };
    assert.equal(staleTrack.words.ask.what(hit), 'requests for x have returned the same result 4 times, with nothing changed in between.');
    assert.equal(staleTrack.words.ask.also(hit), 'the same result 4 times');
  });

  test('`cycle`: the round\'s refusal and ask read whole: the call answered before, the call that went stale, what still runs', async () => {
    const OPEN: Call = { ...bash('cat src/Types.java'), body: () => bashResult(1, 'cat: src/Types.java: No such file or directory') };
    const SEARCH: Call = { ...bash('grep -rl TypeVariable src'), body: answering('src/internal/Types.java') };
    const round = [OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN];
    const config = { stale: { warnAt: 3, limit: 5, cycle: 5 } };
    const denied = await run(newHost({ ...config, onLimit: 'deny' }), {}, [...round, SEARCH]);
    assert.equal(
      denied[9]!.denyReason,
      refusalText({
        reason: 'this call was answered before, nothing changed since, and the turn is going round: exact:bash:{"command":"cat src/Types.java"} returned the same result 5 times in a row (limit 5)',
        track: 'stale',
        hits: ['exact:bash:{"command":"grep -rl TypeVariable src"} \u2014 answered before, nothing changed since, in a round where exact:bash:{"command":"cat src/Types.java"} returned the same result 5 times (limit 5)'],
        note: 'A call whose answer is not known yet will run, and so will any call after a change to the files or after a call that returns something new.',
        previous: 'cat: src/Types.java: No such file or directory\n[exit code: 1]',
      }),
    );
    const english = await run(hostIn('en', config), {}, [...round, SEARCH]);
    assert.equal(english[9]!.askReason, 'Loop breaker: this command was answered before, nothing changed since: the turn is going round. Allow once runs it and stops counting calls like it until your next message. Reject blocks it and calls like it until then.');
    const chinese = await run(hostIn('zh', config), {}, [...round, SEARCH]);
    assert.equal(chinese[9]!.askReason, '重复调用断路器：这条命令此前已得到过回答，其后没有任何改动：这一轮在原地打转。允许一次：放行这次调用，并在你发送下一条消息之前不再对同类调用计数。拒绝：阻止这次调用和同类调用，直到你发送下一条消息。');
  });

  test('`limit: null`: the advisory, never a gate', async () => {
    const outcomes = await repeat(newHost({ stale: { limit: null }, onLimit: 'deny' }), {}, 8, FIND);
    assert.deepEqual(noticedAt(outcomes), [3, 7], 'advised at the 3rd same result, and again at its summary');
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('a call gated back to back and at the limit under one key is listed once', async () => {
    const outcomes = await repeat(newHost({ stale: { warnAt: 2, limit: 3, backToBack: 3 }, onLimit: 'deny' }), {}, 4, FIND);
    assert.deepEqual(deniedAt(outcomes), [4]);
    assert.deepEqual(hitLines(outcomes[3]!.denyReason), [
      '- exact:bash:{"command":"find_file \\"JsonParser\\""} \u2014 the same result 3 times in a row, nothing changed in between (limit 3)',
      '- cmd:find_file:find_file JsonParser \u2014 the same result 3 times in a row, nothing changed in between (limit 3)',
    ]);
  });

  test('`cycle`: the very call that went stale is gated under its own key, not listed again as the round', async () => {
    const OPEN: Call = { ...bash('cat src/Types.java'), body: () => bashResult(1, 'cat: src/Types.java: No such file or directory') };
    const SEARCH: Call = { ...bash('grep -rl TypeVariable src'), body: answering('src/internal/Types.java') };
    const outcomes = await run(newHost({ stale: { warnAt: 3, limit: 5, cycle: 5 }, onLimit: 'deny' }), {}, [OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN, SEARCH, OPEN, OPEN]);
    assert.deepEqual(deniedAt(outcomes), [10]);
    const lines = hitLines(outcomes[9]!.denyReason);
    assert.equal(lines.filter((line) => line.includes('in a round where')).length, 0, lines.join('\n'));
    assert.equal(lines.filter((line) => line.includes('the same result 5 times in a row')).length, 2, 'its exact: and cmd: readings, once each');
  });

  test('`backToBack`: empty answers say nothing of what an option changed: `git diff` in five spellings, all empty, is no run', async () => {
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' };
    const diffs = ['git diff', 'git diff --cached', 'git diff --stat', 'git diff -w', 'git diff --staged'];
    for (const empty of ['', '  \n']) {
      const outcomes = await run(newHost(config), {}, diffs.map((line) => ({ ...bash(line), body: answering(empty) })));
      assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []], JSON.stringify(empty));
    }
    const said = await run(newHost(config), {}, diffs.map((line) => ({ ...bash(line), body: answering('diff --git a/x b/x\n-a\n+b') })));
    assert.deepEqual([noticedAt(said), deniedAt(said)], [[3], [4, 5]], 'the same diff each time: the options changed nothing');
  });

  test('once the operator allowed the stale call, its results this turn are not counted: a new answer repeated brings no advisory', async () => {
    const host = newHost({ stale: {} });
    const agent = {};
    await repeat(host, agent, 4, FIND);
    assert.equal((await host.call({ agent, ...FIND, answer: 'approve' })).asked, true);
    const found: Call = { ...bash('find_file "JsonParser"'), body: answering('Found 1 matches for "JsonParser"') };
    const after = await repeat(host, agent, 5, found);
    assert.deepEqual([noticedAt(after), deniedAt(after)], [[], []]);
  });

  test('`cycle`: a call that brings something new, or a change, ends the round; a call not answered before runs', async () => {
    const OPEN: Call = { ...bash('cat src/Types.java'), body: () => bashResult(1, 'cat: src/Types.java: No such file or directory') };
    const SEARCH: Call = { ...bash('grep -rl TypeVariable src'), body: answering('src/internal/Types.java') };
    const config = { stale: { warnAt: 3, limit: 5, cycle: 5 }, onLimit: 'deny' };
    const five = [OPEN, OPEN, OPEN, OPEN, OPEN];
    const fresh: Call = { ...bash('ls src/internal'), body: answering('Types.java') };
    assert.deepEqual(deniedAt(await run(newHost(config), {}, [SEARCH, ...five, fresh, SEARCH])), [], 'a new answer in between: the search runs');
    assert.deepEqual(deniedAt(await run(newHost(config), {}, [...five, SEARCH])), [], 'a call not answered before runs');
    const write: Call = { ...bash('touch src/Types.java'), body: answering('') };
    assert.deepEqual(deniedAt(await run(newHost(config), {}, [SEARCH, ...five, write, SEARCH])), [], 'a change in between: the search may answer anew');
    assert.deepEqual(deniedAt(await run(newHost(config), {}, [SEARCH, ...five, SEARCH])), [7], 'nothing in between: the search is the round');
  });

  test('`backToBack`: a call between, or an answer that moves, leaves it to the limit', async () => {
    const host = newHost({ stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' });
    const agent = {};
    const between = await run(host, agent, [FIND, FIND, { ...bash('ls'), body: answering('a') }, FIND, FIND, FIND]);
    assert.deepEqual(deniedAt(between), [], 'five same results, but never three back to back');
    const moving: Call[] = [0, 1, 2, 3, 4].map((i) => ({ ...bash('kubectl get pods'), body: answering(`api 0/1 Init:${i}/5`) }));
    assert.deepEqual(deniedAt(await run(host, {}, moving)), []);
  });

  test('`backToBack`: the same failure back to back is the same answer, however its words vary', async () => {
    const failingAlike: Call[] = [1, 2, 3, 4].map((i) => ({ ...bash('make check'), body: () => bashResult(2, `make: *** [check] Error 2 (attempt ${i})`) }));
    assert.deepEqual(deniedAt(await run(newHost({ stale: { backToBack: 3 }, onLimit: 'deny' }), {}, failingAlike)), [4]);
  });

  test('`backToBack`: a respelled call (another value in front of the same run) continues the run only with the very same result: values tried, failing differently, are exploring', async () => {
    const host = newHost({ stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny', limits: { act: 12 } });
    const exploring: Call[] = ['dev', 'test', 'ci', 'stage', 'qa'].map((env, i) => ({ ...bash(`APP_ENV=${env} python -m pytest tests -x`), body: () => bashResult(1, `FAILED tests/test_api.py::test_${i} - assert ${i} == 0`) }));
    assert.deepEqual(deniedAt(await run(host, {}, exploring)), [], 'five values, five different failures: nothing gated');
    const same: Call[] = ['dev', 'test', 'ci', 'stage', 'qa'].map((env) => ({ ...bash(`APP_ENV=${env} python -m pytest tests -x`), body: () => bashResult(1, 'FAILED tests/test_api.py::test_login - assert 401 == 200') }));
    assert.deepEqual(deniedAt(await run(newHost({ stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny', limits: { act: 12 } }), {}, same)), [4, 5], 'the very same result each time: the 4th is gated');
  });

  test('`backToBack`: a run respelled in its options only (logging, shell options, a shell by its path) continues the run with the very same result', async () => {
    // Read from the line's action, as the preset measures it (`act:`); without it, from the line as written.
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, limits: { act: 12 }, onLimit: 'deny' };
    const failing = () => bashResult(1, 'FAILED tests/test_orders.py::test_total - assert 6 == 7\n1 failed, 9 passed in 0.31s');
    const lines = ['pytest tests/test_orders.py', 'pytest tests/test_orders.py --log-cli-level=DEBUG', 'set -o pipefail; pytest tests/test_orders.py', "/bin/bash -c 'pytest tests/test_orders.py --log-level=INFO'"];
    assert.deepEqual(deniedAt(await run(newHost(config), {}, lines.map((line) => ({ ...bash(line), body: failing })))), [4]);
    const moving = lines.map((line, i) => ({ ...bash(line), body: () => bashResult(1, `FAILED tests/test_orders.py::test_total - assert ${i} == 7`) }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, moving)), [], 'an option that changes the result ends the run');
    const selecting = ['TestTotal', 'TestTax', 'TestRefund', 'TestShipping'].map((name) => ({ ...bash(`go test -run=${name} ./orders`), body: () => bashResult(0, 'ok  \tacme/orders\t0.01s') }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, selecting)), [], 'an attached selector is no option set aside');
    assert.deepEqual(deniedAt(await run(newHost({ stale: { warnAt: 3, limit: 5 }, limits: { act: 12 }, onLimit: 'deny' }), {}, lines.map((line) => ({ ...bash(line), body: failing })))), [], 'without backToBack, nothing');
    const unwrapped = lines.slice(0, 3).concat('pytest tests/test_orders.py -x');
    assert.deepEqual(deniedAt(await run(newHost({ stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' }), {}, unwrapped.map((line) => ({ ...bash(line), body: failing })))), [4], 'without act:, read from the line as written');
  });

  test('`backToBack`: a file read again with its path respelled is the same read; a spelling that may name another file joins only by its answer', async () => {
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' };
    const WINDOW = '40\tclass Invoice:\n41\t    def total(self):';
    const read = (path: string, text = WINDOW): Call => ({ name: 'read', arguments: { path, offset: 40, limit: 2 }, body: () => textResult(text) });
    const four = ['src/invoice.py', './src/invoice.py', 'src//invoice.py', 'src/./invoice.py', 'src/invoice.py'].map((path) => read(path));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, four)), [4, 5]);
    const alternating = ['/work/shop/src/invoice.py', 'src/invoice.py', '/work/shop/src/invoice.py', 'src/invoice.py'].map((path) => read(path));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, alternating)), [4], 'the absolute path joined by its answer; at the gate, a spelling the run answered');
    const climbing = [read('src/invoice.py'), read('src/invoice.py'), read('src/invoice.py'), read('src/lib/../invoice.py'), read('src/invoice.py')];
    assert.deepEqual(deniedAt(await run(newHost(config), {}, climbing)), [5], 'a `..` spelling not answered yet runs at the gate (it may name another file); it answered the same, the next is gated');
    const other = [read('src/invoice.py'), read('src/invoice.py'), read('src/invoice.py'), read('/opt/vendor/lib/invoice.py')];
    assert.deepEqual(deniedAt(await run(newHost(config), {}, other)), [], 'another file');
    // Every spelling refused is one loop: the stop counts them together.
    const stopping = await run(newHost({ ...config, stopAfter: 3 }), {}, ['src/invoice.py', './src/invoice.py', '/work/shop/src/invoice.py', 'src//invoice.py', '/work/shop/src/invoice.py', 'src/./invoice.py'].map((path) => read(path)));
    assert.deepEqual(deniedAt(stopping), [4, 5, 6]);
    assert.match(stopping[5]!.denyReason ?? '', /this loop blocked 3 times/);
  });

  test('`backToBack`: a shell read of one file by its absolute and its relative path joins by its answer; a file tool and a shell line never join', async () => {
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, limits: { act: 12 }, onLimit: 'deny' };
    const TEXT = '1\tx = 1\n2\ty = 2';
    const lines = ['head -n 60 /work/shop/src/a.py', 'head -60 src/a.py', 'head -n 60 /work/shop/src/a.py', 'head -n60 ./src/a.py'];
    assert.deepEqual(deniedAt(await run(newHost(config), {}, lines.map((line) => ({ ...bash(line), body: answering(TEXT) })))), [4]);
    const mixed: Call[] = [bash('cat src/a.py'), { name: 'read', arguments: { path: 'src/a.py' } }, bash('cat ./src/a.py'), { name: 'read', arguments: { path: './src/a.py' } }].map((call) => ({ ...call, body: () => (call.name === 'bash' ? bashResult(0, TEXT) : textResult(TEXT)) }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, mixed)), [], 'a tool and a shell line each once in turn');
  });

  test('`backToBack`: a file read in new spellings whose answer moves, another window, or a change between, runs on', async () => {
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' };
    const spellings = ['build.log', './build.log', '/work/app/build.log', 'build.log'];
    const growing: Call[] = spellings.map((path, i) => ({ name: 'read', arguments: { path }, body: () => textResult(`step ${i + 1}`) }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, growing)), [], 'a log that grows');
    const windows: Call[] = spellings.map((path, i) => ({ name: 'read', arguments: { path, offset: i * 40 }, body: () => textResult('same text') }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, windows)), [], 'another window each time');
    const edit: Call = { name: 'edit', arguments: { path: 'src/a.py', old_string: 'a', new_string: 'b' }, body: () => textResult('Edited.') };
    const between: Call[] = ['src/a.py', './src/a.py', 'src/a.py'].flatMap((path) => [{ name: 'read', arguments: { path }, body: () => textResult('1\tx = 1') }, edit]);
    assert.deepEqual(deniedAt(await run(newHost(config), {}, between)), []);
    const without = ['src/a.py', './src/a.py', 'src//a.py', 'src/a.py'].map((path): Call => ({ name: 'read', arguments: { path }, body: () => textResult('1\tx = 1') }));
    assert.deepEqual(deniedAt(await run(newHost({ stale: { warnAt: 3, limit: 5 }, onLimit: 'deny' }), {}, without)), [], 'without backToBack, nothing');
  });

  test('`backToBack`: a run respelled in its options only joins the run only with a result that says something', async () => {
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' };
    const empty = ['git diff', 'git diff --stat', 'git diff --cached', 'git diff -w'].map((line) => ({ ...bash(line), body: () => bashResult(0, '') }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, empty)), [], 'four empty answers: what an option changed cannot be told');
  });

  test('`backToBack`: exit 124 is `timeout`\'s time-out: killed further on each time, the job is no repeat; killed at the same place, it is', async () => {
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' };
    const further: Call[] = [1, 2, 3, 4].map((n) => ({ ...bash('timeout 600 go test ./...'), body: () => bashResult(124, Array.from({ length: 3 * n }, (_, j) => `ok  \tacme/p${j}\t4${j}.1s`).join('\n')) }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, further)), []);
    const same: Call[] = [1, 2, 3, 4].map(() => ({ ...bash('timeout 600 go test ./...'), body: () => bashResult(124, 'ok  \tacme/p0\t40.1s') }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, same)), [4]);
  });

  test('`backToBack`: a time-out whose output moves is a job getting further, not the same answer', async () => {
    const host = newHost({ stale: { backToBack: 3 }, onLimit: 'deny' });
    const resumed: Call[] = [400, 200, 100, 50, 25].map((left) => ({ ...bash('ninja -C build'), body: () => ({ isError: false, content: [{ type: 'text', text: `[${401 - left}/400] Building` }], value: { exitCode: null, timedOut: true } }) }));
    assert.deepEqual(deniedAt(await run(host, {}, resumed)), []);
  });
  test('`backToBack`: the same action however spelled (the act: measure) answered the same way back to back is gated at the next', async () => {
    const quiet = () => bashResult(0, '');
    const noOps: Call[] = [': compile it', ': run the tests', ': check the output', ': list the files'].map((line) => ({ ...bash(line), body: quiet }));
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, limits: { act: 12 }, onLimit: 'deny' };
    assert.deepEqual(deniedAt(await run(newHost(config), {}, noOps)), [4]);
    const doing: Call[] = ['mkdir -p build', 'gcc -o build/main main.c', 'test -x build/main', './build/main'].map((line) => ({ ...bash(line), body: quiet }));
    assert.deepEqual(deniedAt(await run(newHost(config), {}, doing)), [], 'different actions printing nothing are not one action');
  });

  test('`backToBack`: a rejected edit re-indented is the same edit; one that differs in a word is another', async () => {
    const rejected = () => ({ isError: true, content: [{ type: 'text', text: 'Your proposed edit has introduced new syntax error(s). E999 IndentationError' }] });
    const edit = (text: string): Call => ({ name: 'edit', arguments: { path: '/repo/v.py', old_string: '<lines 40:40>', new_string: text }, body: rejected });
    const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' };
    const indented = 'if v is None:\n        a = parse(raw)';
    const reindented = edit('if v is None:\na = parse(raw)');
    assert.deepEqual(deniedAt(await run(newHost(config), {}, [edit(indented), edit(indented), edit(indented), reindented])), [4]);
    const reworded = edit('if v is None:\n        b = parse(raw)');
    assert.deepEqual(deniedAt(await run(newHost(config), {}, [edit(indented), edit(indented), edit(indented), reworded])), [], 'another word is another edit');
  });

  test('`backToBack`: a re-indented shell line is not folded (whitespace inside quotes is what it prints)', async () => {
    const same = () => bashResult(0, 'a b');
    const lines: Call[] = ['echo "a b"', 'echo "a b"', 'echo "a b"', 'echo "a  b"'].map((line) => ({ ...bash(line), body: same }));
    assert.deepEqual(deniedAt(await run(newHost({ stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' }), {}, lines)), []);
  });
});

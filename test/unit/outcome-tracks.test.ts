/**
 * Progress is a new outcome (issue 31), through the fake host: the noise an
 * outcome leaves out, the spin and guess tracks, the environment that stopped
 * answering, inline code keyed by its program, and `outcomes` as the reading
 * of progress for the failure and repeat tracks.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { quietLine } from '../../src/lib/result/noise.js';
import { outcomeDigest } from '../../src/lib/result/digest.js';
import { commandNamesOf, programsOf } from '../../src/lib/shell/program.js';
import { bash, bashResult, deniedAt, failing, hostIn, loggedCall, loggedHost, newHost, noticedAt, noticeTexts, repeat, succeeding, summaries, textResult, type Call, type CallOutcome, refusalText } from '../support/session.js';
import type { FakeHost } from '../support/fake-host.js';

async function run(host: FakeHost, agent: object, calls: readonly Call[]): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (const call of calls) out.push(await host.call({ agent, ...call }));
  return out;
}

const text = (body: string): unknown => textResult(body, {});

describe('the noise an outcome leaves out', () => {
  const meter = (speed: string, spent: string): string =>
    '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
    '                                 Dload  Upload   Total   Spent    Left  Speed\n' +
    `100 12.3M  100 12.3M    0     0  ${speed}      0  ${spent}  ${spent} --:--:-- ${speed}\n` +
    'saved data.tar.gz';

  test("curl's progress meter is noise: the same download with another speed is the same outcome", () => {
    assert.equal(outcomeDigest(text(meter('4213k', '0:00:02'))), outcomeDigest(text(meter('2876k', '0:00:05'))));
    assert.equal(quietLine('100 12.3M  100 12.3M    0     0  4213k      0  0:00:02  0:00:02 --:--:-- 4213k'), null);
  });

  test('a carriage return shows the last state of a line: a spinner or a bar redrawn is its final frame', () => {
    assert.equal(quietLine('\u280b working\r\u2819 working\rdone'), 'done');
    assert.equal(outcomeDigest(text('10%\r50%\r100% done')), outcomeDigest(text('20%\r100% done')));
  });

  test('rates, durations, clocks and timestamps are masked; a progress line loses every digit', () => {
    assert.equal(quietLine('5 passed in 0.53s'), quietLine('5 passed in 1.20s'));
    assert.equal(quietLine('2024-05-01 12:03:44 started'), quietLine('2024-05-02 09:00:01 started'));
    assert.equal(quietLine(' 45%|████▌     | 450/1000 [00:05<00:06, 88.1it/s]'), quietLine(' 61%|██████    | 610/1000 [00:07<00:04, 90.3it/s]'));
    assert.equal(quietLine('Downloading torch (2.1 GB) 1.2 MB/s eta 0:10:00'), quietLine('Downloading torch (2.1 GB) 3.4 MB/s eta 0:04:00'));
  });

  test('every other number is news: a count that moves, a size, a position in a file', () => {
    assert.notEqual(quietLine('5 passed in 0.53s'), quietLine('6 passed in 0.53s'));
    assert.notEqual(outcomeDigest(text('saved 1024 bytes')), outcomeDigest(text('saved 2048 bytes')));
    assert.equal(quietLine('src/app.ts:12:34: error TS2322'), 'src/app.ts:12:34: error TS2322', 'a file:line:column is not a clock');
  });

  test('a huge line is read as it is, in time linear in its length', () => {
    const line = `${'1'.repeat(200_000)}s`;
    assert.equal(quietLine(line), line);
  });
});

describe('inline code is keyed by its program', () => {
  test('python -c, node -e and bash -c are one program whatever the code; a script file keeps its operand', () => {
    assert.deepEqual(programsOf('python3 -c "import torch; train(64)"'), ['python3 -c']);
    assert.deepEqual(programsOf('node -e "require(\'./a\')"'), ['node -e']);
    assert.deepEqual(programsOf("bash -c 'make -j2'"), ['bash -c']);
    assert.deepEqual(programsOf('python3 train.py --epochs 5'), ['python3 train.py']);
  });

  test('the command names of a line include the quick ones', () => {
    assert.deepEqual(commandNamesOf('cd /app && ls -la | head -5'), ['cd', 'ls', 'head']);
  });
});

const timedOut = (): ReturnType<typeof bashResult> => bashResult(124, '', { timedOut: true });
const hanging = (command: string): Call => ({ ...bash(command), body: timedOut });

describe('timeouts: an environment that stopped answering', () => {
  test('different commands timing out in a row are advised at warnAt and gated past limit; a call that answers ends it', async () => {
    const host = newHost({ timeouts: { warnAt: 3, limit: 4 }, onLimit: 'deny' });
    const agent = {};
    const outcomes = await run(host, agent, ['ls', 'pwd', 'cat /etc/hostname', 'whoami', 'date'].map(hanging));
    assert.deepEqual(noticedAt(outcomes), [3]);
    assert.match(noticeTexts(outcomes[2]!)[0] ?? '', /^CONVERGENCE_CHECK: your last calls ran 3 different commands, and every one ran out of time\. The environment is not answering/);
    assert.deepEqual(summaries(outcomes[2]!), ['environment: 3 different commands in a row timed out']);
    assert.deepEqual(deniedAt(outcomes), [5]);
    assert.match(outcomes[4]!.denyReason ?? '', /by the environment track/);
  });

  test('what the model and the operator read: the advisory, the refusal, its line and the log', async () => {
    const logged = loggedHost({ timeouts: { warnAt: 3, limit: 4 }, onLimit: 'deny' });
    const agent = {};
    const outcomes: (CallOutcome & { logged: string[] })[] = [];
    for (const command of ['ls', 'pwd', 'cat /etc/hostname', 'whoami', 'date']) outcomes.push(await loggedCall(logged, { agent, ...hanging(command) }));
    assert.deepEqual(noticeTexts(outcomes[2]!), [
      'CONVERGENCE_CHECK: your last calls ran 3 different commands, and every one ran out of time. ' +
        'The environment is not answering: something holds the terminal (a prompt, a pager, an editor) or a service it waits on never came up. ' +
        'Another command will hang too. Find what holds it (a process waiting for input), or stop and say what you see.',
    ]);
    const reason = outcomes[4]!.denyReason ?? '';
    assert.match(reason, /^REPEAT_TOOL_BLOCKED: bash call not run: 4 different commands in a row ran out of time \(limit 4\)\. It was stopped before it ran, by the environment track/);
    assert.match(reason, /\n- 4 different commands in a row ran out of time \(limit 4\)\n/);
    assert.deepEqual(outcomes[4]!.logged, ['gate, denied: bash, environment: prog \u201c*\u201d 4/4']);
  });

  test('a call that is no shell command runs past the gate, and one that timed out counts by its tool name', async () => {
    const fetching: Call = { name: 'web_fetch', arguments: { url: 'https://example.org/a' }, body: () => bashResult(124, '', { timedOut: true }) };
    const host = newHost({ timeouts: { warnAt: 3, limit: 4 }, onLimit: 'deny' });
    const agent = {};
    const outcomes = await run(host, agent, [hanging('ls'), hanging('pwd'), fetching, hanging('whoami'), hanging('date')]);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[3], [5]], 'the fetch is the third command of the stretch');
    assert.equal((await host.call({ agent, name: 'read', arguments: { file_path: 'notes.md' } })).denied, false, 'no shell command: it runs');
  });

  test('a stretch counts past the names it keeps: a limit of 70 different commands gates the 71st, a repeat of a kept one not counted', async () => {
    const commands = [...Array.from({ length: 64 }, (_, n) => `cmd${n}`), 'cmd0', ...Array.from({ length: 8 }, (_, n) => `cmd${64 + n}`)];
    const outcomes = await run(newHost({ timeouts: { warnAt: 60, limit: 70 }, onLimit: 'deny' }), {}, commands.map(hanging));
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[60], [72, 73]]);
  });

  test('a human message ends the stretch', async () => {
    const host = newHost({ timeouts: { warnAt: 3, limit: 4 }, onLimit: 'deny' });
    const agent = {};
    await run(host, agent, ['ls', 'pwd', 'cat /etc/hostname', 'whoami'].map(hanging));
    await host.human(agent);
    assert.equal((await host.call({ agent, ...hanging('date') })).denied, false);
  });

  test('one long job timing out again and again, however respelled, is one command, not an environment', async () => {
    const outcomes = await run(newHost({ timeouts: { warnAt: 3, limit: 9 }, onLimit: 'deny' }), {}, ['-e 1', '-e 2', '-e 3'].map((flags) => hanging(`fasttext supervised ${flags}`)));
    assert.deepEqual(summaries(outcomes[2]!), ['prog \u201cfasttext supervised\u201d timed out x3'], 'the program, not the environment');
  });

  test('a call that returns in time ends the stretch', async () => {
    const outcomes = await run(newHost({ timeouts: { warnAt: 3, limit: 4 }, onLimit: 'deny' }), {}, [hanging('ls'), hanging('pwd'), { ...bash('echo hi'), body: succeeding('hi') }, hanging('whoami'), hanging('date')]);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('inline code timing out again is one program: python3 -c with a new script each time meets the gate', async () => {
    const script = (n: number): Call => hanging(`python3 -c "import torch; model = train(${n})"`);
    const outcomes = await run(newHost({ timeouts: { warnAt: 2, limit: 3 }, onLimit: 'deny' }), {}, [script(1), { ...bash('ls'), body: succeeding('') }, script(2), script(3), script(4)]);
    assert.deepEqual(deniedAt(outcomes), [5]);
    assert.match(outcomes[4]!.denyReason ?? '', /prog:python3 -c — ran out of time 3 times this turn/);
  });
});

describe('timeouts.respelled: a job made to fit, then respelled past its time again', () => {
  const CONFIG = { timeouts: { warnAt: 4, limit: 5, respelled: 3 }, onLimit: 'deny', limits: { act: 12 } } as const;
  const train = (flags: string): Call => hanging(`fasttext supervised -input train.txt -output model ${flags}`);
  const fits: Call = { ...bash('head -1000 train.txt > small.txt && fasttext supervised -input small.txt -output model -epoch 2'), body: succeeding('Read 0M words') };

  test('three new spellings timing out, one after a run that fit, are advised as the gate arms and the next run is refused', async () => {
    const outcomes = await run(newHost(CONFIG), {}, [train('-epoch 25'), train('-epoch 5'), fits, train('-epoch 10 -dim 50'), train('-epoch 3')]);
    assert.deepEqual(noticedAt(outcomes), [4]);
    assert.match(noticeTexts(outcomes[3]!)[0] ?? '', /^CONVERGENCE_CHECK: fasttext supervised has run out of time 3 times this turn, each time with new flags or code, after a smaller run of it finished\./);
    assert.deepEqual(deniedAt(outcomes), [5]);
    assert.match(outcomes[4]!.denyReason ?? '', /prog:fasttext supervised — ran out of time 3 times this turn, each with new flags or code, though a smaller run of it fit \(limit 3\)/);
  });

  test('the very same run retried is no new spelling: a suite timing out three times around a run that fit runs on', async () => {
    const suite = hanging('go test ./...');
    const small: Call = { ...bash('go test ./internal/cart'), body: succeeding('ok') };
    const outcomes = await run(newHost(CONFIG), {}, [suite, small, suite, suite, { ...bash('go test ./...'), body: succeeding('ok') }]);
    // The failure track of the defaults notices the third failure alike; the timeout track says nothing.
    assert.deepEqual(outcomes.flatMap((outcome) => summaries(outcome)).filter((summary) => summary.startsWith('prog')), []);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('respelled time-outs before anything fit are left to the limit: a job made smaller until it fits runs', async () => {
    const outcomes = await run(newHost(CONFIG), {}, [train('-epoch 25'), train('-epoch 10'), train('-epoch 5'), { ...train('-epoch 2'), body: succeeding('Read 12M words') }]);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('off unless given: the same calls under the limit alone run to the fifth time-out', async () => {
    const outcomes = await run(newHost({ ...CONFIG, timeouts: { warnAt: 4, limit: 5 } }), {}, [train('-epoch 25'), train('-epoch 5'), fits, train('-epoch 10 -dim 50'), train('-epoch 3')]);
    assert.deepEqual(deniedAt(outcomes), []);
  });
});

const search = (word: string, found = false): Call => ({ ...bash(`search_dir "${word}" src`), body: succeeding(found ? `Found 2 matches for "${word}"` : `No matches found for "${word}"`) });
const WORDS = ['Parser', 'Reader', 'parse', 'Decoder', 'readTree', 'Mapper', 'Factory'];

describe('spin: a stretch of calls that return nothing new', () => {
  test('off by default: seven searches in a cycle, each answered the same, are not gated in three rounds', async () => {
    const outcomes = await run(newHost({ onLimit: 'deny' }), {}, [...WORDS, ...WORDS, ...WORDS].map((word) => search(word)));
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('`spin: {}` advises at the 5th call in a row that returned what it returned before, and gates the next repeat after the 7th', async () => {
    const outcomes = await run(newHost({ spin: {}, onLimit: 'deny' }), {}, [...WORDS, ...WORDS, ...WORDS].map((word) => search(word)));
    assert.deepEqual(noticedAt(outcomes), [12]);
    assert.match(noticeTexts(outcomes[11]!)[0] ?? '', /^CONVERGENCE_CHECK: your last 5 calls each returned what it had returned before/);
    assert.deepEqual(summaries(outcomes[11]!), ['spin: 5 calls in a row returned nothing new']);
    assert.equal(deniedAt(outcomes)[0], 15);
    assert.match(outcomes[14]!.denyReason ?? '', /by the spin track/);
  });

  test('a new call always runs, and news ends the stretch', async () => {
    const host = newHost({ spin: { warnAt: 2, limit: 3 }, onLimit: 'deny' });
    const agent = {};
    await run(host, agent, [...WORDS.slice(0, 4), ...WORDS.slice(0, 4)].map((word) => search(word)));
    assert.equal((await host.call({ agent, ...search('Parser') })).denied, true, 'a repeat past the limit');
    assert.equal((await host.call({ agent, ...search('Visitor') })).denied, false, 'a new call runs');
    assert.equal((await host.call({ agent, ...search('Parser') })).denied, false, 'and its news ended the stretch');
    assert.equal((await host.call({ agent, ...search('Reader') })).denied, false, 'the stretch counts from 1 again: 2 repeats are under the limit');
  });

  test('what the model and the operator read: the advisory, the refusal and its line', async () => {
    const host = newHost({ spin: { warnAt: 2, limit: 3 }, onLimit: 'deny' });
    const outcomes = await run(host, {}, [...WORDS.slice(0, 4), ...WORDS.slice(0, 4)].map((word) => search(word)));
    assert.deepEqual(noticeTexts(outcomes[5]!), [
      'CONVERGENCE_CHECK: your last 2 calls each returned what it had returned before: nothing in them was new. ' +
        'Running them again will return the same. Stop and use what you have: say what is established, what you assumed, and try a different approach, or ask for what you need.',
    ]);
    const reason = outcomes[7]!.denyReason ?? '';
    assert.match(reason, /^REPEAT_TOOL_BLOCKED: bash call not run: the last 3 calls returned nothing new \(limit 3\)\. It was stopped before it ran, by the spin track/);
    assert.match(reason, /\n- exact:bash:\{"command":"search_dir \\"Decoder\\" src"\} \u2014 repeats a call while the last 3 calls returned nothing new \(limit 3\)\n/);
  });

  test('`limit: null` advises only: the stretch is never gated', async () => {
    const outcomes = await run(newHost({ spin: { warnAt: 2, limit: null }, onLimit: 'deny' }), {}, [...WORDS, ...WORDS, ...WORDS].map((word) => search(word)));
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[9], []]);
  });

  test('a human message ends the stretch', async () => {
    const host = newHost({ spin: { warnAt: 2, limit: 3 }, onLimit: 'deny' });
    const agent = {};
    await run(host, agent, [...WORDS.slice(0, 4), ...WORDS.slice(0, 4)].map((word) => search(word)));
    await host.human(agent);
    assert.equal((await host.call({ agent, ...search('Parser') })).denied, false, 'a new turn: the stretch and the outcomes are gone');
  });

  test('a result that cannot be read is no evidence: the stretch neither grows nor ends', async () => {
    const unreadable: Call = {
      ...search('Parser'),
      body: () =>
        ({
          get isError(): boolean {
            throw new Error('a getter that throws');
          },
        }) as never,
    };
    const host = newHost({ spin: { warnAt: 3, limit: 5 }, onLimit: 'deny' });
    const agent = {};
    const outcomes = await run(host, agent, [...WORDS.slice(0, 4).map((word) => search(word)), search('Parser'), search('Reader'), unreadable, search('parse')]);
    assert.deepEqual(noticedAt(outcomes), [8], 'Parser and Reader again (2), the unreadable run (no count), parse again (3)');
  });

  test('a new write that failed brings no news: the repeat after it is still gated', async () => {
    const rewrite: Call = { ...bash(`cat > solve.py <<'EOF'\nprint(1)\nEOF`), body: failing(1, 'solve.py: Permission denied') };
    const host = newHost({ spin: { warnAt: 2, limit: 3 }, onLimit: 'deny' });
    const agent = {};
    await run(host, agent, [...WORDS.slice(0, 4), ...WORDS.slice(0, 4)].map((word) => search(word)));
    assert.equal((await host.call({ agent, ...rewrite })).denied, false, 'a new write runs');
    assert.equal((await host.call({ agent, ...search('Parser') })).denied, true, 'it changed nothing: the repeat meets the gate');
  });

  test('seven searches that each find something are news: nothing to advise', async () => {
    const outcomes = await run(newHost({ spin: { warnAt: 2, limit: 3 }, onLimit: 'deny' }), {}, WORDS.map((word) => search(word, true)));
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('a new write is neither: the check after a rewrite runs, and counts on when it answers the same', async () => {
    const rewrite = (n: number): Call => ({ ...bash(`cat > solve.py <<'EOF'\nprint(${n})\nEOF`), body: succeeding('') });
    const check = { ...bash('python check.py'), body: succeeding('expected 42, got 41') };
    const listing = { ...bash('cat out.txt'), body: succeeding('41') };
    const host = newHost({ spin: { warnAt: 3, limit: 4 }, onLimit: 'deny' });
    const agent = {};
    const rounds: CallOutcome[] = [];
    for (let n = 0; n < 4; n += 1) rounds.push(...(await run(host, agent, [rewrite(n), check, listing])));
    // Round 1 is news; rounds 2 and 3 add 2 each (4 in a row); round 4: the rewrite and the check after it run, the next repeat is gated.
    assert.deepEqual(deniedAt(rounds), [12]);
  });
});

const unzip = (password: string): Call => ({ ...bash(`unzip -o -P ${password} secret.zip`), body: failing(1, 'skipping: flag.txt  incorrect password') });

describe('guess: one word enumerated by hand, failing the same way', () => {
  test('off by default: eighteen passwords tried by hand are never gated', async () => {
    const outcomes = await run(newHost({ onLimit: 'deny' }), {}, Array.from({ length: 18 }, (_, n) => unzip(`pw${n}`)));
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('`guess: {}` advises at the 4th value and gates the next guess after the 6th; another command runs', async () => {
    const host = newHost({ guess: {}, onLimit: 'deny' });
    const agent = {};
    const outcomes = await run(host, agent, Array.from({ length: 8 }, (_, n) => unzip(`pw${n}`)));
    assert.deepEqual(noticedAt(outcomes), [4]);
    assert.match(noticeTexts(outcomes[3]!)[0] ?? '', /^CONVERGENCE_CHECK: you have tried 4 values in the same place of guess:unzip -o -P … secret\.zip, and each failed the same way/);
    assert.deepEqual(deniedAt(outcomes), [7, 8]);
    assert.match(outcomes[6]!.denyReason ?? '', /by the guess track/);
    assert.equal((await host.call({ agent, ...bash('zip2john secret.zip'), body: succeeding('hash') })).denied, false);
  });

  test('the advisory, the refusal and the ask read whole: how many values, in which place, how to find the value instead', async () => {
    const outcomes = await run(newHost({ guess: {}, onLimit: 'deny' }), {}, Array.from({ length: 7 }, (_, n) => unzip(`pw${n}`)));
    assert.deepEqual(noticeTexts(outcomes[3]!), [
      'CONVERGENCE_CHECK: you have tried 4 values in the same place of guess:unzip -o -P \u2026 secret.zip, and each failed the same way. Guessing another will fail too. ' +
        'Find the value instead: read the documentation, the configuration or the source that sets it, list what exists, or ask for it.',
    ]);
    assert.equal(
      outcomes[6]!.denyReason,
      refusalText({
        reason: '6 values tried in one place failed the same way (limit 6)',
        track: 'guess',
        hits: ['guess:unzip -o -P \u2026 secret.zip \u2014 6 values tried, each failing the same way (limit 6)'],
        note: 'Only further guesses in that place are blocked: a command that looks the value up, or any other call, will run.',
        previous: 'skipping: flag.txt  incorrect password\n[exit code: 1]',
      }),
    );
    const english = await run(hostIn('en', { guess: {} }), {}, Array.from({ length: 7 }, (_, n) => unzip(`pw${n}`)));
    assert.equal(english[6]!.askReason, 'Loop breaker: the agent has tried 6 values by hand in \u201cunzip -o -P \u2026 secret.zip\u201d, and all failed the same way. Allow once runs it and stops counting calls like it until your next message. Reject blocks it and calls like it until then.');
    const chinese = await run(hostIn('zh', { guess: {} }), {}, Array.from({ length: 7 }, (_, n) => unzip(`pw${n}`)));
    assert.equal(chinese[6]!.askReason, '重复调用断路器：agent 已在 \u201cunzip -o -P \u2026 secret.zip\u201d 中手工尝试了 6 个取值，都以同样方式失败。允许一次：放行这次调用，并在你发送下一条消息之前不再对同类调用计数。拒绝：阻止这次调用和同类调用，直到你发送下一条消息。');
  });

  test('a success elsewhere does not end the guessing; a human message does', async () => {
    const listing: Call = { ...bash('ls -la'), body: succeeding('secret.zip') };
    const between = await run(newHost({ guess: {}, onLimit: 'deny' }), {}, [unzip('a'), unzip('b'), unzip('c'), listing, unzip('d')]);
    assert.deepEqual(noticedAt(between), [5], 'the 4th value, after an ls that found something else');
    const host = newHost({ guess: {}, onLimit: 'deny' });
    const agent = {};
    await run(host, agent, [unzip('a'), unzip('b'), unzip('c')]);
    await host.human(agent);
    assert.deepEqual(noticedAt(await run(host, agent, [unzip('d'), unzip('e'), unzip('f')])), [], 'counted from nothing again: three values');
  });

  test('two values that fail differently set no place of guessing: it starts at the first two that fail alike', async () => {
    const failingWith = (password: string, error: string): Call => ({ ...bash(`unzip -o -P ${password} secret.zip`), body: failing(1, error) });
    const calls = [failingWith('a', 'error reading flag.txt'), ...['b', 'c', 'd', 'e'].map((password) => failingWith(password, 'skipping: flag.txt  incorrect password'))];
    const outcomes = await run(newHost({ guess: { warnAt: 3, limit: 4 }, onLimit: 'deny' }), {}, calls);
    assert.deepEqual(noticedAt(outcomes), [4], 'b and c set the place; d is its 3rd value (a failed otherwise, and is not one)');
  });

  test('a line of several lines is no guess, however alike', async () => {
    const script = (password: string): Call => ({ ...bash(`unzip -o -P ${password} secret.zip\necho done`), body: failing(1, 'skipping: flag.txt  incorrect password') });
    const outcomes = await run(newHost({ guess: { warnAt: 3, limit: 4 }, failWarnAt: null, failLimit: null, onLimit: 'deny' }), {}, ['a', 'b', 'c', 'd', 'e', 'f'].map(script));
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('the error is compared with the guessed word masked: a path echoed back still fails the same way', async () => {
    const cat = (path: string): Call => ({ ...bash(`cat /etc/${path}/config.yaml`), body: failing(1, `cat: /etc/${path}/config.yaml: No such file or directory`) });
    const outcomes = await run(newHost({ guess: { warnAt: 3, limit: 4 }, onLimit: 'deny' }), {}, ['a1', 'b22', 'c333', 'd4444', 'e55555'].map(cat));
    assert.deepEqual(deniedAt(outcomes), [5]);
  });

  test('a different error, or a success in that place, ends the guessing; two words changed is no guess', async () => {
    const ends = await run(newHost({ guess: { warnAt: 3, limit: 3 }, onLimit: 'deny' }), {}, [unzip('a'), unzip('b'), { ...unzip('c'), body: succeeding('inflating: flag.txt') }, unzip('d'), unzip('e')]);
    assert.deepEqual([noticedAt(ends), deniedAt(ends)], [[], []]);
    const two = (n: number): Call => ({ ...bash(`unzip -o -P pw${n} secret${n}.zip`), body: failing(1, 'incorrect password') });
    const outcomes = await run(newHost({ guess: { warnAt: 2, limit: 2 }, onLimit: 'deny' }), {}, [1, 2, 3, 4].map(two));
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('a path guessed by hand in a file read is a guess; rejected edits of different files are not', async () => {
    const read = (path: string): Call => ({ name: 'read', arguments: { file_path: path }, body: () => textResult(`FS_NOT_FOUND: ${path}`, {}, true) });
    const reads = await run(newHost({ guess: { warnAt: 3, limit: 3 }, onLimit: 'deny' }), {}, ['/a/config.yaml', '/b/config.yaml', '/c/config.yaml', '/d/config.yaml'].map(read));
    assert.deepEqual(deniedAt(reads), [4]);
    const edit = (path: string): Call => ({ name: 'edit', arguments: { file_path: path, old_string: 'x', new_string: 'y' }, body: () => textResult('String to replace not found in file.', {}, true) });
    const edits = await run(newHost({ guess: { warnAt: 2, limit: 2 }, onLimit: 'deny' }), {}, ['/a.py', '/b.py', '/c.py', '/d.py'].map(edit));
    assert.deepEqual([noticedAt(edits), deniedAt(edits)], [[], []]);
  });

  test('an environment variable guessed by name in front of the same failing run is a guess, gated after the 6th', async () => {
    const names = ['DEBUG', 'APP_DEBUG', 'DJANGO_DEBUG', 'PYTEST_DEBUG', 'LOG_LEVEL_DEBUG', 'VERBOSE_DEBUG', 'TRACE_DEBUG', 'DEBUG_ALL'];
    const env = (name: string): Call => ({ ...bash(`${name}=1 python -m pytest tests/test_api.py -x`), body: failing(1, 'FAILED tests/test_api.py::test_login - AssertionError: 401 != 200') });
    // The failure track (which reads the run past its assignments) is off here: the guess track alone advises at the 4th name and gates after the 6th.
    const outcomes = await run(newHost({ guess: {}, failWarnAt: null, failLimit: null, onLimit: 'deny' }), {}, names.map(env));
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[4], [7, 8]]);
    assert.match(outcomes[6]!.denyReason ?? '', /by the guess track/);
    assert.match(noticeTexts(outcomes[3]!)[0] ?? '', /guess:… python -m pytest tests\/test_api\.py -x/);
  });

  test('the variable a failure echoes back by name is masked as the guessed word is: the same failure each time', async () => {
    const names = ['APP_DEBUG', 'FLASK_DEBUG', 'AUTH_DEBUG', 'TESTING', 'SKIP_AUTH', 'LOGIN_OFF'];
    const env = (name: string): Call => ({ ...bash(`${name}=1 pytest tests/test_api.py`), body: failing(1, `warning: setting '${name}' is not known, ignored\nFAILED tests/test_api.py::test_login - assert 401 == 200`) });
    const outcomes = await run(newHost({ guess: { warnAt: 3, limit: 4 }, failWarnAt: null, failLimit: null, onLimit: 'deny' }), {}, names.map(env));
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[3], [5, 6]]);
  });

  test('assignments in front do not make another program a guess, nor a second assignment changed with the first', async () => {
    const programs = ['pytest', 'nosetests', 'tox', 'trial'].map((program, n): Call => ({ ...bash(`DEBUG=1 ${program} tests/t${n}.py`), body: failing(1, 'error') }));
    assert.deepEqual(deniedAt(await run(newHost({ guess: { warnAt: 2, limit: 2 }, onLimit: 'deny' }), {}, programs)), []);
    const two = [1, 2, 3, 4].map((n): Call => ({ ...bash(`A${n}=1 B${n}=1 pytest tests`), body: failing(1, 'error') }));
    assert.deepEqual(deniedAt(await run(newHost({ guess: { warnAt: 2, limit: 2 }, onLimit: 'deny' }), {}, two)), []);
    const program = ['pytest', 'pytest', 'pytest', 'pytest'].map((p, n): Call => ({ ...bash(n % 2 === 0 ? `DEBUG=1 ${p} tests` : `${p} tests -x`), body: failing(1, 'error') }));
    assert.deepEqual(deniedAt(await run(newHost({ guess: { warnAt: 2, limit: 2 }, onLimit: 'deny' }), {}, program)), []);
  });

  test('one program run on one case after another, each passing, is no guess', async () => {
    const cases = Array.from({ length: 10 }, (_, n): Call => ({ ...bash(`./solve cases/case${n}.txt`), body: succeeding(`case ${n}: ok`) }));
    assert.deepEqual(noticedAt(await run(newHost({ guess: { warnAt: 2, limit: 2 }, onLimit: 'deny' }), {}, cases)), []);
  });
});

describe('failureProgress: outcomes — progress is a new error, not a change', () => {
  const runIt = bash('python reproduce.py');
  const error = (message: string): Call => ({ ...runIt, body: failing(1, message) });
  const edit = (n: number): Call => ({ name: 'edit', arguments: { file_path: 'src/x.py', old_string: `v${n}`, new_string: `v${n + 1}` } });

  test('an edit after which the check fails the same way changed nothing: the streak goes on, and meets the gate', async () => {
    const calls = [error('E'), edit(1), error('E'), edit(2), error('E'), edit(3), error('E'), edit(4), error('E'), edit(5), error('E')];
    assert.deepEqual(deniedAt(await run(newHost({ failureProgress: 'outcomes', onLimit: 'deny' }), {}, calls)), [11]);
    assert.deepEqual(deniedAt(await run(newHost({ failureProgress: 'restart', onLimit: 'deny' }), {}, calls)), [], 'restart reads any change as progress');
  });

  test('a new error after an edit starts the streak again: edit → rerun debugging is never gated', async () => {
    const calls = [error('E1'), edit(1), error('E2'), edit(2), error('E3'), edit(3), error('E4'), edit(4), error('E5'), edit(5), error('E6')];
    const outcomes = await run(newHost({ failureProgress: 'outcomes', onLimit: 'deny' }), {}, calls);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('two errors in turn after edits are the same two errors: the streak goes on', async () => {
    const calls = [error('A'), edit(1), error('B'), edit(2), error('A'), edit(3), error('B'), edit(4), error('A'), edit(5), error('B'), edit(6), error('A')];
    assert.deepEqual(deniedAt(await run(newHost({ failureProgress: 'outcomes', onLimit: 'deny' }), {}, calls)), [13]);
  });
});

describe('progress: outcomes — a poll whose answer moves is progress, one that does not is not', () => {
  const poll = (answer: string): Call => ({ ...bash('tail -n 3 train.log'), body: succeeding(answer) });

  test('identical polls whose answer moves are never gated by the repeat cap', async () => {
    const outcomes = await run(newHost({ progress: 'outcomes', onLimit: 'deny' }), {}, Array.from({ length: 20 }, (_, n) => poll(`step ${n * 10}`)));
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('identical polls answered the same meet the cap of 12, changed files or not', async () => {
    const edit = (n: number): Call => ({ name: 'edit', arguments: { file_path: 'train.py', old_string: `v${n}`, new_string: `v${n + 1}` } });
    const calls: Call[] = [];
    for (let n = 0; n < 12; n += 1) calls.push(poll('waiting for the first batch'), ...(n % 4 === 3 ? [edit(n)] : []));
    const outcomes = await run(newHost({ progress: 'outcomes', onLimit: 'deny', window: 32 }), {}, calls);
    assert.deepEqual(deniedAt(outcomes), [14], 'the 12th poll (the 14th call) is gated');
  });

  test('an answer that alternates between two is no news: A B A B … meets the cap', async () => {
    const outcomes = await repeat(newHost({ progress: 'outcomes', onLimit: 'deny' }), {}, 12, poll('x'));
    assert.deepEqual(deniedAt(outcomes), [12]);
    // B is news once, the second call; from the third on, each answer is one already seen.
    const alternating = await run(newHost({ progress: 'outcomes', onLimit: 'deny' }), {}, Array.from({ length: 13 }, (_, n) => poll(n % 2 === 0 ? 'A' : 'B')));
    assert.deepEqual(deniedAt(alternating), [13]);
  });
});

describe('a few recent digests kept as one string (memory/book.ts)', () => {
  test('remember keeps the newest last, each once, at most `kept`; recalls finds any of them and nothing else', async () => {
    const { recalls, remember } = await import('../../src/lib/memory/book.js');
    let recent: string | undefined;
    for (const digest of ['a', 'b', 'a', 'c', 'd', 'e']) recent = remember(recent, digest, 4);
    assert.equal(recent, 'a\nc\nd\ne');
    assert.equal(remember(recent, 'e', 4), recent, 'the newest again changes nothing');
    assert.equal(remember(recent, 'c', 4), 'a\nd\ne\nc', 'a known one moves to the end');
    for (const known of ['a', 'c', 'd', 'e']) assert.equal(recalls(recent, known), true, known);
    for (const unknown of ['b', '', 'x', 'ee', 'dd']) assert.equal(recalls(recent, unknown), false, JSON.stringify(unknown));
    assert.equal(recalls(undefined, 'a'), false);
    assert.equal(remember('', 'z', 4), 'z');
    assert.equal(remember(undefined, 'z', 4), 'z', 'nothing recent: the digest alone');
  });

  test('a digest is recalled, or the newest, only as a whole line: not inside another, whatever their lengths', async () => {
    const { isNewest, recalls } = await import('../../src/lib/memory/book.js');
    // Its first occurrence inside a longer digest, then a whole line of its own.
    assert.equal(recalls('xab\nab', 'ab'), true, 'found on its own line after a match inside another');
    assert.equal(recalls('xab\nabc', 'ab'), false, 'only ever inside others');
    assert.equal(isNewest(undefined, 'a'), false, 'nothing recent');
    assert.equal(isNewest('a', 'a'), true, 'the only one');
    assert.equal(isNewest('a\nb', 'b'), true, 'the last line');
    assert.equal(isNewest('ab', 'b'), false, 'the end of another digest');
    assert.equal(isNewest('a\nbc', 'c'), false, 'the end of the last digest');
    assert.equal(isNewest('b\na', 'b'), false, 'recalled, not the newest');
  });
});

describe('the outcome memory keeps the ACTIONS_KEPT actions touched last (memory/outcomes.ts)', () => {
  test('the least recently touched action goes first, however the touches repeat the newest ones in their order', async () => {
    const { ACTIONS_KEPT, AgentOutcomes } = await import('../../src/lib/memory/outcomes.js');
    // A plain model of the order: touched last, last.
    let order: string[] = [];
    const touch = (action: string): void => {
      order = [...order.filter((known) => known !== action), action];
      if (order.length > ACTIONS_KEPT) order.shift();
    };
    const book = new AgentOutcomes();
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let last = ['a0'];
    for (let call = 0; call < 3000; call += 1) {
      // A loop's call again, a part of it, its actions the other way round, or new actions.
      const kind = random(10);
      const fresh = (): string[] => Array.from({ length: 1 + random(4) }, () => `a${random(ACTIONS_KEPT + 80)}`);
      const actions =
        kind < 4 ? last : kind < 5 ? last.slice(1) : kind < 6 ? [...last.slice(0, -1), ...fresh()] : kind < 7 ? [...last].reverse() : fresh();
      // A call's actions are distinct.
      actions.splice(0, actions.length, ...new Set(actions));
      last = actions.length > 0 ? actions : ['a0'];
      // The stale track, then the spin track, settle the call's actions in turn.
      for (const action of actions) {
        book.settleSame(action, 'same', 0);
        touch(action);
      }
      if (kind % 2 === 0) {
        for (const action of actions) {
          book.returned(action, 'same');
          touch(action);
        }
      }
      // Which actions are kept, after every call.
      if (order.length === ACTIONS_KEPT) {
        const kept = new Set(order);
        for (let n = 0; n < ACTIONS_KEPT + 80; n += 1) assert.equal(book.sameInRow(`a${n}`, 0) > 0, kept.has(`a${n}`), `a${n} after call ${call}`);
      }
    }
  });

  test('a call that starts as the last one did and then goes elsewhere moves what it touched to the newest end', async () => {
    const { ACTIONS_KEPT, AgentOutcomes } = await import('../../src/lib/memory/outcomes.js');
    const book = new AgentOutcomes();
    const settle = (...actions: string[]): void => {
      for (const action of actions) book.settleSame(action, 'same', 0);
    };
    settle('a', 'b', 'c');
    // `a` again, then `x`: the order is b, c, a, x.
    settle('a', 'x');
    for (let n = 0; n < ACTIONS_KEPT - 4; n += 1) settle(`f${n}`);
    const kept = (action: string): boolean => book.sameInRow(action, 0) > 0;
    assert.deepEqual(['a', 'b', 'c', 'x'].map(kept), [true, true, true, true], 'all of them, the shelf full');
    settle('g1');
    assert.deepEqual(['a', 'b', 'c', 'x'].map(kept), [true, false, true, true], 'b, the least recently touched, goes first');
    settle('g2');
    assert.deepEqual(['a', 'b', 'c', 'x'].map(kept), [true, false, false, true], 'then c');
    settle('g3');
    assert.deepEqual(['a', 'b', 'c', 'x'].map(kept), [false, false, false, true], 'then a');
  });
});

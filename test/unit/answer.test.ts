/**
 * A run's answer with the asking set aside (result/answer.ts): the package
 * manager's banner, the call's own path spellings quoted back; and the stale
 * track's back-to-back run joining by it only calls that ask the same question.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ANSWER_READ_LIMIT, answerDigest, runnerBanner } from '../../src/lib/result/answer.js';
import { bashResult, deniedAt, newHost, textResult, type CallOutcome } from '../support/session.js';

const JEST = 'FAIL tests/cart.test.js\n  \u2715 applies discount (5 ms)\n\nTests:       1 failed, 1 passed, 2 total\nTime:        0.512 s';
const npm = (out: string, args = 'tests/cart.test.js'): string => `\n> shop@1.0.0 test\n> jest ${args}\n\n${out}\n`;
const pnpm = (out: string): string => `\n> shop@1.0.0 test /work/shop\n> jest "tests/cart.test.js"\n\n${out}\n`;
const yarn = (out: string, seconds: string): string => `yarn run v1.22.19\n$ jest tests/cart.test.js\n${out}\nerror Command failed with exit code 1.\ninfo Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.\nDone in ${seconds}s.`;

describe("a runner's banner", () => {
  test("npm's, pnpm's (with the directory) and yarn's banner name the command the script ran", () => {
    assert.deepEqual(runnerBanner(npm(JEST)), { command: 'jest tests/cart.test.js', lines: 4 });
    assert.equal(runnerBanner(pnpm(JEST))?.command, 'jest "tests/cart.test.js"');
    assert.equal(runnerBanner(yarn(JEST, '2.31'))?.command, 'jest tests/cart.test.js');
    assert.equal(runnerBanner('\n> @acme/shop@2.1.0-rc.1 test:unit\n> vitest run\n\nok')?.command, 'vitest run');
  });

  test("no banner where a text does not open with one: pytest's `>` lines, a quoted prompt, a banner later in the text, a text past the limit", () => {
    assert.equal(runnerBanner('>       assert inv.due == date(2024, 3, 1)\nE       AssertionError'), null);
    assert.equal(runnerBanner('$ jest x\nyarn run v1.22.19'), null);
    assert.equal(runnerBanner(`ok\n${npm(JEST)}`), null);
    assert.equal(runnerBanner(npm(JEST) + 'x'.repeat(ANSWER_READ_LIMIT)), null);
    assert.equal(runnerBanner('\n> shop@1.0.0 test\n> jest\n> --ci\n\nok')?.command, null, 'a command on several lines is not read');
  });
});

describe('an answer with the asking aside', () => {
  test('the same output under npm, pnpm and yarn banners, and bare, is one answer; another count is another', () => {
    const bare = answerDigest(JEST, []);
    assert.notEqual(bare, null);
    for (const text of [npm(JEST), pnpm(JEST), yarn(JEST, '2.31'), yarn(JEST, '1.90')]) assert.equal(answerDigest(text, []), bare, text);
    assert.notEqual(answerDigest(npm(JEST.replace('1 failed, 1 passed', '1 failed, 2 passed')), []), bare);
    assert.notEqual(answerDigest(`${JEST}\nDone in 2.31s.`, []), bare, "the manager's own lines go only under its banner");
  });

  test('a banner with nothing after it, or an empty text, is no answer', () => {
    assert.equal(answerDigest('\n> shop@1.0.0 build\n> tsc\n\n', []), null);
    assert.equal(answerDigest('  \n', []), null);
  });

  test("each path asked is masked where it stands whole: not inside a longer path, nor another file's name", () => {
    const missing = (path: string): string => `cat: ${path}: No such file or directory`;
    assert.equal(answerDigest(missing('./src/a.py'), ['./src/a.py']), answerDigest(missing('src/a.py'), ['src/a.py']));
    assert.equal(answerDigest('File not found: src/a.py.', ['src/a.py']), answerDigest('File not found: ./src/a.py.', ['./src/a.py']), 'a full stop ends it');
    assert.notEqual(answerDigest(missing('src/a.py.bak'), ['src/a.py']), answerDigest(missing('src/a.py'), ['src/a.py']));
    assert.notEqual(answerDigest(missing('lib/src/a.py'), ['src/a.py']), answerDigest(missing('src/a.py'), ['src/a.py']));
    assert.notEqual(answerDigest(missing('src/a.py'), []), answerDigest(missing('./src/a.py'), []), 'unmasked, the spellings differ');
  });

  test('a text past the read limit has no answer; a path list is read to its bound', () => {
    assert.equal(answerDigest('x'.repeat(ANSWER_READ_LIMIT + 1), []), null);
    const paths = Array.from({ length: 10_000 }, (_, at) => `f${at}.py`);
    assert.notEqual(answerDigest('cat: f1.py: No such file or directory', paths), null);
  });
});

const PRESET = { preset: 'recommended', onLimit: 'deny' };

async function session(calls: readonly { command?: string; path?: string; body: () => unknown }[]): Promise<CallOutcome[]> {
  const host = newHost(PRESET);
  const agent = {};
  const outcomes: CallOutcome[] = [];
  for (const { command, path, body } of calls) {
    const call = command === undefined ? { agent, name: 'read', arguments: { path }, body } : { agent, name: 'bash', arguments: { command }, body };
    outcomes.push(await host.call(call as Parameters<typeof host.call>[0]));
  }
  return outcomes;
}

describe('the back-to-back run, answers compared with the asking aside (preset)', () => {
  test('the same failing run through npm, npx, yarn and pnpm is one run: after three same answers, the 4th meets the gate (pnpm test in the spelling npm test was answered in)', async () => {
    const fail = (text: string) => () => bashResult(1, text);
    const outcomes = await session([
      { command: 'npm test -- tests/cart.test.js', body: fail(npm(JEST)) },
      { command: 'npx jest tests/cart.test.js', body: fail(JEST) },
      { command: 'yarn jest tests/cart.test.js', body: fail(yarn(JEST, '2.31')) },
      { command: 'pnpm test tests/cart.test.js', body: fail(pnpm(JEST)) },
      { command: 'npm test -- tests/cart.test.js', body: fail(npm(JEST)) },
    ]);
    assert.deepEqual(deniedAt(outcomes), [4, 5]);
  });

  test('runs whose output differs beyond the banner, and npm test against npx jest --coverage, run on', async () => {
    const outcomes = await session([
      { command: 'npm test -- tests/cart.test.js', body: () => bashResult(1, npm(JEST)) },
      { command: 'npx jest tests/cart.test.js', body: () => bashResult(1, JEST.replace('1 passed', '2 passed')) },
      { command: 'yarn jest tests/cart.test.js', body: () => bashResult(1, yarn(JEST, '2.31')) },
      { command: 'pnpm test tests/cart.test.js', body: () => bashResult(1, pnpm(JEST.replace('1 passed', '3 passed'))) },
      { command: 'npm test', body: () => bashResult(0, npm('Tests: 4 passed', '')) },
      { command: 'npx jest --coverage', body: () => bashResult(0, 'Tests: 4 passed\nAll files | 96.1 |') },
      { command: 'npm test', body: () => bashResult(0, npm('Tests: 4 passed', '')) },
    ]);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('a missing file asked for in new spellings is one run; other missing files, or guessed roots, are not', async () => {
    const missing = (path: string) => () => textResult(`File not found: ${path}`, {}, true);
    const spelled = await session(['src/a.py', './src/a.py', 'src//a.py', 'src/./a.py'].map((path) => ({ path, body: missing(path) })));
    assert.deepEqual(deniedAt(spelled), [4]);
    const others = await session(['a.py', 'b.py', 'src/c.py', 'd.py'].map((path) => ({ path, body: missing(path) })));
    assert.deepEqual(deniedAt(others), [], 'each error masks alike, but each names another file');
    const roots = await session(['/app/src/a.py', 'src/a.py', '/work/src/a.py', '/srv/src/a.py'].map((path) => ({ path, body: missing(path) })));
    assert.deepEqual(deniedAt(roots), [], 'a path that only may name the file, its spelling masked, is another guess');
  });

  test('cat of a missing file in new spellings is one run; then the file found runs', async () => {
    const missing = (path: string) => () => bashResult(1, `cat: ${path}: No such file or directory`);
    const outcomes = await session([
      { command: 'cat ./src/a.py', body: missing('./src/a.py') },
      { command: 'cat src/a.py', body: missing('src/a.py') },
      { command: 'cat src//a.py', body: missing('src//a.py') },
      { command: 'cat ./src/a.py', body: missing('./src/a.py') },
    ]);
    assert.deepEqual(deniedAt(outcomes), [4]);
    const found = await session([
      { command: 'cat ./src/a.py', body: missing('./src/a.py') },
      { command: 'cat src/a.py', body: missing('src/a.py') },
      { command: 'cat src/app/a.py', body: () => bashResult(0, 'x = 1') },
      { command: 'cat ./src/app/a.py', body: () => bashResult(0, 'x = 1') },
    ]);
    assert.deepEqual(deniedAt(found), []);
  });
});

describe('hostile answers through the back-to-back run', () => {
  test('a result whose text throws, and a megabyte under a banner, are judged and learned without a throw; neither joins a run by its answer', async () => {
    const throwing = { isError: false, value: { kind: 'foreground', exitCode: 1 }, get content(): unknown { throw new Error('boom'); } };
    const huge = npm(`${JEST}\n${'x'.repeat(1_000_000)}`);
    const outcomes = await session([
      { command: 'npm test -- tests/cart.test.js', body: () => throwing },
      { command: 'npx jest tests/cart.test.js', body: () => throwing },
      { command: 'npm test -- tests/cart.test.js', body: () => bashResult(1, huge) },
      { command: 'npx jest tests/cart.test.js', body: () => bashResult(1, huge.slice(huge.indexOf('FAIL'))) },
      { command: 'yarn jest tests/cart.test.js', body: () => bashResult(1, huge) },
    ]);
    assert.equal(outcomes.length, 5);
    assert.deepEqual(deniedAt(outcomes), []);
  });
});

describe('masking a hostile answer takes bounded work', () => {
  test('a line of one letter and eight paths of that letter cost about what an answer without them costs, not a compare at every position', () => {
    const text = 'a'.repeat(64_000);
    const paths = Array.from({ length: 8 }, (_, i) => 'a'.repeat(4_000 - i));
    const least = (run: () => void): number => {
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 3; i += 1) {
        const started = performance.now();
        run();
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    // A ratio within one run, with slack for a busy machine: unbounded, the hostile answer took 600 ms against about 1.
    const seen: string[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const plain = least(() => answerDigest(text, ['b'.repeat(4_000)]));
      const hostile = least(() => answerDigest(text, paths));
      seen.push(`plain ${plain.toFixed(1)} ms, hostile ${hostile.toFixed(1)} ms`);
      if (hostile <= 20 * plain + 40) return;
    }
    assert.fail(`masking is not bounded: ${seen.join('; ')}`);
  });

  test('a spelling quoted a few times in a line is masked at each place', () => {
    const one = answerDigest('cat: ./a.py: No such file (./a.py, ./a.py)', ['./a.py']);
    const other = answerDigest('cat: a.py: No such file (a.py, a.py)', ['a.py']);
    assert.equal(one, other);
  });
});

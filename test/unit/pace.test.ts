/**
 * A build or test tool's pace options (call/pace.ts): how many jobs, threads
 * or workers it runs at once, and go test's cache turned off, set aside with
 * their value by the options-aside reading (call/respelled.ts), which the
 * stale track's back-to-back run compares between calls that returned the
 * very same result. Every word that may say what runs stays.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { optionsAside } from '../../src/lib/call/respelled.js';
import { answerDigest } from '../../src/lib/result/answer.js';
import { bash, bashResult, deniedAt, newHost, type Call, type CallOutcome } from '../support/session.js';
import type { FakeHost } from '../support/fake-host.js';
import { sameReading as sameReadingBy } from '../support/readings.js';

const aside = (line: string): string | null => optionsAside(line, 'posix');

const sameReading = (lines: readonly string[]): void => sameReadingBy(lines, aside);

async function run(host: FakeHost, calls: readonly Call[]): Promise<CallOutcome[]> {
  const agent = {};
  const out: CallOutcome[] = [];
  for (const call of calls) out.push(await host.call({ agent, ...call }));
  return out;
}

describe("a build or test tool's pace options set aside", () => {
  test('jobs, threads and workers given as the next word or after = read as the run without them, per tool', () => {
    sameReading(['make check', 'make -j 4 check', 'make check -j8', 'make --jobs=4 check', 'make --jobs 2 check', 'make -l 2 -j 4 check', 'make --load-average=1.5 check']);
    sameReading(['cargo test', 'cargo test -j 4', 'cargo test --jobs 2', 'cargo test --jobs=default', 'cargo test --message-format short']);
    sameReading(['ctest --test-dir build', 'ctest --test-dir build -j 4', 'ctest --test-dir build --parallel 8', 'ctest -j4 --test-dir build']);
    sameReading(['cmake --build build', 'cmake --build build -j 4', 'cmake --build build --parallel 2']);
    sameReading(['mvn test', 'mvn -T 4 test', 'mvn -T 1C test', 'mvn --threads 0.5C test', 'mvn -B -T 4 test']);
    sameReading(['./gradlew test', './gradlew test --max-workers=4', './gradlew --max-workers=2 test']);
    sameReading(['ninja -C build', 'ninja -C build -j 8', 'ninja -j 2 -l 4 -C build']);
    sameReading(['npx jest tests/api.test.js', 'npx jest --maxWorkers=2 tests/api.test.js', 'npx jest -w 50% tests/api.test.js', './node_modules/.bin/jest --maxWorkers 4 tests/api.test.js']);
    sameReading(['npx vitest run', 'npx vitest run --maxWorkers 2', 'npx vitest run --minWorkers=1 --maxWorkers=4']);
  });

  test("go test's -count=1 (the cache off), -p and -parallel are set aside; -count of more runs the tests more times and stays", () => {
    sameReading(['go test ./...', 'go test -count=1 ./...', 'go test ./... -count=1', 'go test -count 1 ./...', 'go test -p 4 ./...', 'go test -parallel=2 -count=1 ./...']);
    assert.notEqual(aside('go test -count=3 ./...'), aside('go test ./...'), '-count=3 runs each test three times');
    assert.notEqual(aside('go test -count 2 ./...'), aside('go test ./...'));
    assert.notEqual(aside('go test -p 4 ./api/...'), aside('go test -p 4 ./db/...'), 'the packages stay');
    assert.notEqual(aside('go test -count=1 -run TestLogin ./api'), aside('go test -count=1 -run TestLogout ./api'), 'a -run value selects');
    assert.notEqual(aside('go run main.go -count 1'), aside('go run main.go'), "go run's words are the program's");
    assert.notEqual(aside('go build -p 4 ./cmd/a'), aside('go build -p 4 ./cmd/b'));
  });

  test('targets, directories and values a pace option does not take stay; another program\'s -j is not read', () => {
    assert.notEqual(aside('make -j 4 check'), aside('make -j 4 lint'), 'the target stays');
    assert.notEqual(aside('make -j test'), aside('make -j check'), '-j alone: the next word is the target');
    assert.equal(aside('make -j test'), aside('make test'));
    assert.notEqual(aside('make -j 4 -C docs html'), aside('make -j 4 html'), 'a directory stays');
    assert.notEqual(aside('cargo test -j 4 login'), aside('cargo test -j 4 logout'), 'a test filter stays');
    assert.notEqual(aside('cargo test --message-format json'), aside('cargo test'), 'JSON is another answer for a program');
    assert.notEqual(aside('mvn -T 4 test'), aside('mvn -T 4 verify'));
    assert.notEqual(aside('mvn -T four test'), aside('mvn test'), 'a word -T does not take');
    assert.notEqual(aside('./gradlew test --max-workers=all'), aside('./gradlew test'));
    assert.notEqual(aside('grep -j 4 notes.txt'), aside('grep -j 5 notes.txt'), "grep's words are grep's");
    assert.notEqual(aside('xargs -P 4 make'), aside('xargs -P 8 make'));
    assert.notEqual(aside('npx tsc -w 4'), aside('npx tsc -w 5'), "a node tool's own -w only");
    assert.notEqual(aside('npx make -j 4'), aside('npx make -j 5'), 'through npx, the node runners only');
    assert.notEqual(aside('cargo run -- -j 4'), aside('cargo run -- -j 8'), 'past --, the program\'s');
    assert.notEqual(aside('cargo run -- --jobs=4'), aside('cargo run -- --jobs=8'), 'past --, attached too');
    assert.notEqual(aside('ctest -j 4 -R auth'), aside('ctest -j 4 -R db'), 'a -R selection stays');
  });
});

describe('the back-to-back run over pace respellings', () => {
  const config = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, limits: { act: 12 }, onLimit: 'deny' };
  const lines = ['make -j 4 check', 'make check -j8', 'make --jobs=4 check', 'make -j 2 check', 'make --jobs 4 check'];

  test('a failing run respelled only in its jobs, the very same failure each time: the 4th call meets the gate', async () => {
    const failing = () => bashResult(2, './build/test_ring\n[ FAIL ] ring_len_after_wrap\n11 passed, 1 failed\nmake: *** [Makefile:14: check] Error 1');
    assert.deepEqual(deniedAt(await run(newHost(config), lines.map((line) => ({ ...bash(line), body: failing })))), [4, 5]);
    assert.deepEqual(deniedAt(await run(newHost({ stale: { warnAt: 3, limit: 5 }, limits: { act: 12 }, onLimit: 'deny' }), lines.map((line) => ({ ...bash(line), body: failing })))), [], 'without backToBack, nothing');
  });

  test('runs at another pace whose output moves, or of other targets answering alike, are not joined', async () => {
    const moving = lines.map((line, i) => ({ ...bash(line), body: () => bashResult(2, `./build/test_ring\n[ FAIL ] ring_case_${i}\nmake: *** [Makefile:14: check] Error 1`) }));
    assert.deepEqual(deniedAt(await run(newHost(config), moving)), [], 'each pace prints another answer');
    const targets = ['check', 'lint', 'docs', 'dist', 'install'].map((target) => ({ ...bash(`make -j 4 ${target}`), body: () => bashResult(2, 'make: *** No rule to make target. Stop.') }));
    assert.deepEqual(deniedAt(await run(newHost(config), targets)), [], 'five targets, one answer: five runs');
    const counts = [1, 2, 3, 4, 5].map((n) => ({ ...bash(`go test -count=${n} ./api`), body: () => bashResult(1, '--- FAIL: TestLogin (0.00s)\nFAIL\tacme/api\t0.01s') }));
    assert.deepEqual(deniedAt(await run(newHost(config), counts)), [], 'each -count runs the tests that many times');
  });

  test("go test's run with its cache on and off (-count=1), the same failure, the passing packages' times read as (cached): one run", async () => {
    const fresh = '--- FAIL: TestLogin (0.00s)\n    api_test.go:12: got 401 want 200\nFAIL\nFAIL\tacme/api\t0.012s\nok  \tacme/db\t0.020s\nFAIL';
    const cached = fresh.replace('0.020s', '(cached)');
    const calls = ['go test ./...', 'go test -count=1 ./...', 'go test ./...', 'go test ./... -count=1', 'go test ./...'].map((line, i) => ({ ...bash(line), body: () => bashResult(1, i % 2 === 0 ? cached : fresh) }));
    assert.deepEqual(deniedAt(await run(newHost(config), calls)), [4, 5]);
    const flaky = ['go test ./...', 'go test -count=1 ./...', 'go test ./...', 'go test -count=1 ./...'].map((line, i) => ({ ...bash(line), body: () => bashResult(1, i % 2 === 0 ? cached : fresh.replace('ok  \tacme/db\t0.020s', '--- FAIL: TestQuery (0.01s)\nFAIL\tacme/db\t0.020s')) }));
    assert.deepEqual(deniedAt(await run(newHost(config), flaky)), [], 'a cached pass that fails when run again is another answer');
  });
});

describe("go test's (cached) in an answer", () => {
  test('reads as the time of the package it replayed, on an ok line only', () => {
    const fresh = 'FAIL\tacme/api\t0.012s\nok  \tacme/db\t0.020s\nFAIL';
    assert.equal(answerDigest(fresh.replace('0.020s', '(cached)'), []), answerDigest(fresh, []));
    assert.notEqual(answerDigest('FAIL\tacme/api\t0.012s\nok  \tacme/web\t(cached)\nFAIL', []), answerDigest(fresh, []), 'another package');
    assert.notEqual(answerDigest('FAIL\tacme/api\t(cached)\nok  \tacme/db\t0.020s\nFAIL', []), answerDigest(fresh, []), 'a failure is never replayed: no ok line');
    assert.notEqual(answerDigest('see (cached) results\nok', []), answerDigest('see 0s results\nok', []), 'not an ok line');
  });
});

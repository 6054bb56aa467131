/**
 * The campaign's bookkeeping (tools/mutate/campaign.ts): chunks follow the folders
 * of src/lib, a chunk's results replace only its own files in the store, and
 * the score counts timeouts as killed and uncovered mutants as survivors.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chunks, merge, mutateCli, scoreOf, scores, standingRanges } from '../../tools/mutate/campaign.js';

const mutant = (status: string, line = 1) => ({ id: status, mutatorName: 'StringLiteral', status, location: { start: { line, column: 3 }, end: { line, column: 9 } } });
const report = (files: Record<string, string[]>, tests: Record<string, unknown> = {}) => ({
  schemaVersion: '2',
  files: Object.fromEntries(Object.entries(files).map(([file, statuses]) => [file, { language: 'typescript', source: '', mutants: statuses.map(mutant) }])),
  testFiles: tests,
});

test('chunks are the files of src/lib in path order, cut at about a given number of lines', () => {
  const root = mkdtempSync(join(tmpdir(), 'mutate-'));
  for (const dir of ['gate', 'read']) mkdirSync(join(root, dir));
  const lines = (n: number): string => 'x\n'.repeat(n - 1);
  writeFileSync(join(root, 'index.ts'), lines(10));
  writeFileSync(join(root, 'gate', 'a.ts'), lines(50));
  writeFileSync(join(root, 'gate', 'b.ts'), lines(50));
  writeFileSync(join(root, 'read', 'c.ts'), lines(200));
  writeFileSync(join(root, 'read', 'notes.md'), lines(5));
  assert.deepEqual(chunks(root, 120), [`${root}/gate/a.ts,${root}/gate/b.ts,${root}/index.ts`, `${root}/read/c.ts`]);
});

test("a chunk's results replace its own files in the store and leave the others", () => {
  const store = report({ 'src/lib/a.ts': ['Killed'], 'src/lib/x/b.ts': ['Survived'], 'src/lib/x/y/c.ts': ['Survived'] }, { t1: 1 });
  const merged = merge(store, 'src/lib/x/**/*.ts', report({ 'src/lib/x/b.ts': ['Killed'] }, { t2: 2 }));
  assert.deepEqual(Object.keys(merged.files), ['src/lib/a.ts', 'src/lib/x/b.ts']);
  assert.equal(merged.files['src/lib/x/b.ts']?.mutants[0]?.status, 'Killed');
  assert.deepEqual(Object.keys(merged.testFiles ?? {}), ['t1', 't2']);
  const loose = merge(store, 'src/lib/*.ts', report({ 'src/lib/a.ts': ['Timeout'] }));
  assert.deepEqual(Object.keys(loose.files), ['src/lib/a.ts', 'src/lib/x/b.ts', 'src/lib/x/y/c.ts']);
  const listed = merge(store, 'src/lib/a.ts,src/lib/x/y/c.ts', report({ 'src/lib/a.ts': ['Timeout'] }));
  assert.deepEqual(Object.keys(listed.files), ['src/lib/a.ts', 'src/lib/x/b.ts']);
});

test('the score: timeouts count as killed, uncovered mutants as survivors, the rest is not counted', () => {
  const [s] = scores(report({ 'a.ts': ['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'RuntimeError'] }));
  assert.ok(s !== undefined, 'the report gives a score for its file');
  assert.deepEqual({ ...s }, { file: 'a.ts', killed: 2, timeout: 1, survived: 1, noCoverage: 1, other: 2 });
  assert.equal(scoreOf(s), 60);
});

test('the standing mutants of a file are run again by their ranges, in Stryker\'s 0-based columns', () => {
  const store = report({ 'src/lib/a.ts': ['Killed', 'Survived', 'NoCoverage', 'Timeout'] });
  const file = store.files['src/lib/a.ts'];
  file?.mutants.forEach((m, i) => Object.assign(m, mutant(m.status, i + 1)));
  assert.deepEqual(standingRanges(store, 'src/lib/a.ts'), ['src/lib/a.ts:2:2-2:8', 'src/lib/a.ts:3:2-3:8']);
  assert.deepEqual(standingRanges(store, 'src/lib/b.ts'), []);
  // A timeout on a loaded machine may hide a survivor: --timeouts runs those again too.
  assert.deepEqual(standingRanges(store, 'src/lib/a.ts', true), ['src/lib/a.ts:2:2-2:8', 'src/lib/a.ts:3:2-3:8', 'src/lib/a.ts:4:2-4:8']);
});

test('--concurrency takes a positive whole number, and anything else is a usage error before Stryker starts', async (t) => {
  const errors: string[] = [];
  t.mock.method(console, 'error', (line: string) => void errors.push(line));
  for (const bad of [['--concurrency'], ['--concurrency', '0'], ['--concurrency', 'two'], ['--concurrency', '--force']]) {
    assert.equal(await mutateCli(bad), 2, bad.join(' '));
  }
  assert.equal(errors.length, 4);
  assert.match(errors[1] ?? '', /--concurrency needs a positive whole number, not "0"/);
});

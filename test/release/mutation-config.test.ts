/**
 * The mutation campaign's test set (stryker.config.mjs) stays complete: every
 * test file is either run against mutants or listed as not run with its reason,
 * and every listed file exists. A new test file cannot drop out of the campaign
 * unnoticed.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { MUTATION_TEST_FILES, NOT_RUN } from '../../stryker.config.mjs';

const root = new URL('../../', import.meta.url);

function testFiles(): string[] {
  const files: string[] = [];
  for (const dir of readdirSync(new URL('test/', root), { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(new URL(`test/${dir.name}/`, root))) if (file.endsWith('.test.ts')) files.push(`test/${dir.name}/${file}`);
  }
  return files.sort();
}

test('every test file is run against mutants or listed as not run, with a reason', () => {
  const run = new Set<string>(MUTATION_TEST_FILES);
  const notRun = NOT_RUN as Record<string, string>;
  for (const file of testFiles()) {
    assert.ok(run.has(file) !== Object.hasOwn(notRun, file), `${file}: ${run.has(file) ? 'both run and not run' : 'neither run against mutants nor listed in NOT_RUN'}`);
  }
  for (const file of [...run, ...Object.keys(notRun)]) assert.ok(existsSync(new URL(file, root)), `${file} is listed but does not exist`);
  for (const [file, reason] of Object.entries(notRun)) assert.ok(reason.length > 10, `${file} has no reason`);
});

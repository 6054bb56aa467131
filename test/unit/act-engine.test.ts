/**
 * The act: engine passes a rule by on a line that holds none of what the rule
 * says it reads (its names, a redirection, enough assignments, its
 * `concerns`), and runs it on a line that holds some. act-outline.test.ts
 * proves that passing by changes no reading; this file pins that the engine
 * does pass by, which is what the reading costs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf, type Rule } from '../../src/lib/shell/act/index.js';
import type { Line } from '../../src/lib/shell/act/syntax.js';

/** A rule that rewrites nothing and counts the lines it was given. */
function counting(name: string, reads: Partial<Pick<Rule, 'names' | 'redirects' | 'assigns' | 'concerns' | 'dialect'>>): { rule: Rule; applied: () => number } {
  let applied = 0;
  const rule: Rule = {
    name,
    reason: 'counts the lines the engine gives it',
    apply: (line: Line) => {
      applied += 1;
      return line;
    },
    folds: [],
    keeps: [],
    ...reads,
  };
  return { rule, applied: () => applied };
}

/** How many times each rule was applied to `command`, the rules made afresh. */
function appliedOn(command: string, make: () => ReturnType<typeof counting>[]): number[] {
  const counted = make();
  actOf(command, 'posix', counted.map((c) => c.rule));
  return counted.map((c) => c.applied());
}

const kinds = (): ReturnType<typeof counting>[] => [
  counting('named', { names: new Set(['make']) }),
  counting('redirecting', { redirects: true }),
  counting('assigning', { assigns: 2 }),
  counting('concerned', { concerns: (outline) => outline.names.includes('ls') }),
  counting('every line', {}),
  counting('pwsh only', { dialect: 'pwsh' }),
];

describe('act: the engine passes rules by', () => {
  test('a rule that reads names runs only on a line with one of them', () => {
    assert.deepEqual(appliedOn('git status', kinds), [0, 0, 0, 0, 1, 0]);
    assert.deepEqual(appliedOn('git status && make -j2', kinds), [1, 0, 0, 0, 1, 0]);
  });

  test('a rule that reads redirections runs only on a line with one', () => {
    assert.deepEqual(appliedOn('git status > out.txt', kinds), [0, 1, 0, 0, 1, 0]);
  });

  test('a rule that reads assignments runs only on a command with as many', () => {
    assert.deepEqual(appliedOn('A=1 git status', kinds), [0, 0, 0, 0, 1, 0]);
    assert.deepEqual(appliedOn('A=1 B=2 git status', kinds), [0, 0, 1, 0, 1, 0]);
  });

  test('a rule with `concerns` runs only on a line its outline concerns, and a rule of another dialect never', () => {
    assert.deepEqual(appliedOn('ls -la', kinds), [0, 0, 0, 1, 1, 0]);
  });

  test('a named rule past the table’s bits is asked by its names', () => {
    // 31 rules take a bit of the table each; the 32nd is asked by its names.
    const many = (): ReturnType<typeof counting>[] => Array.from({ length: 32 }, (_, at) => counting(`r${at}`, { names: new Set([`tool${at}`]) }));
    const last = appliedOn('tool31 --help', many);
    assert.equal(last[31], 1, 'the 32nd rule runs on its name');
    assert.equal(last.slice(0, 31).reduce((a, b) => a + b, 0), 0, 'no other rule runs');
    const first = appliedOn('tool0 --help', many);
    assert.equal(first[0], 1, 'the 1st rule runs on its name');
    assert.equal(first.slice(1).reduce((a, b) => a + b, 0), 0, 'no other rule runs');
  });
});

/**
 * The failure streaks (memory/streaks.ts) at the level of their book: how one
 * more failure moves a measure's streak under each `failureProgress`, what a
 * success does, and the book the replay tool keeps per agent.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createStreakBook, settleKeys, type Evidence, type Stored } from '../../src/lib/memory/streaks.js';
import type { Failure } from '../../src/lib/result/failure.js';

const failed: Failure = { reason: 'exit', detail: '1' };

/** Evidence under `restart` (sameAcrossChanges false) or `outcomes` (true). */
const restart = (outcome: string | null, changes: number): Evidence => ({ outcome, changes, sameAcrossChanges: false });
const outcomes = (outcome: string | null, changes: number): Evidence => ({ outcome, changes, sameAcrossChanges: true });

/** The streak of one measure after each settled failure, in order. */
function streakOf(steps: readonly Evidence[]): number[] {
  const book = new Map<string, Stored>();
  return steps.map((evidence) => settleKeys(book, ['m'], failed, evidence)[0] as number);
}

describe('failure streaks: one more failure, by what it shares with the last ones', () => {
  test('restart: the same failure again extends; another error with nothing changed holds; any failure after a change starts at 1', () => {
    assert.deepEqual(streakOf([restart('E1', 0), restart('E1', 0), restart('E2', 0), restart('E2', 0)]), [1, 2, 2, 3]);
    assert.deepEqual(streakOf([restart('E1', 0), restart('E1', 0), restart('E1', 1)]), [1, 2, 1], 'the same error after a change');
    assert.deepEqual(streakOf([restart('E1', 0), restart('E2', 0), restart('E1', 0)]), [1, 1, 1], 'an earlier error, not the last, holds under restart');
  });

  test('outcomes: a failure already seen extends across a change and with nothing changed; a new error after a change starts at 1', () => {
    assert.deepEqual(streakOf([outcomes('E1', 0), outcomes('E1', 1), outcomes('E1', 2)]), [1, 2, 3]);
    assert.deepEqual(streakOf([outcomes('E1', 0), outcomes('E2', 1)]), [1, 1], 'a new error after a change');
    assert.deepEqual(streakOf([outcomes('E1', 0), outcomes('E2', 0), outcomes('E1', 0)]), [1, 1, 2], 'an earlier error with nothing changed');
    assert.deepEqual(streakOf([outcomes('E1', 0), outcomes('E2', 0), outcomes('E1', 1)]), [1, 1, 2], 'an earlier error after a change');
  });

  test('an unreadable outcome never extends a streak with evidence, and 0.5.2 (no evidence) extends on every failure', () => {
    assert.deepEqual(streakOf([outcomes(null, 0), outcomes(null, 0), outcomes(null, 1)]), [1, 1, 1]);
    assert.deepEqual(streakOf([outcomes(null, 0), outcomes('E1', 0), outcomes('E1', 0)]), [1, 1, 2], 'an unreadable one keeps no history');
    assert.deepEqual(streakOf([outcomes('E1', 0), outcomes(null, 0), outcomes(null, 1)]), [1, 1, 1], 'after a readable one, with nothing changed and after a change');
    const book = new Map<string, Stored>();
    const counts = [0, 1, 2].map(() => settleKeys(book, ['m'], failed, undefined)[0]);
    assert.deepEqual(counts, [1, 2, 3]);
  });

  test("every key of a call gets its own streak, one count a key, and a success clears each to 0", () => {
    const book = new Map<string, Stored>();
    assert.deepEqual(settleKeys(book, ['a', 'b'], failed, outcomes('E1', 0)), [1, 1]);
    assert.deepEqual(settleKeys(book, ['b', 'c'], failed, outcomes('E1', 0)), [2, 1]);
    assert.deepEqual([...book.keys()].sort(), ['a', 'b', 'c']);
    assert.deepEqual(settleKeys(book, ['a', 'b'], null, undefined), [0, 0]);
    assert.deepEqual([...book.keys()], ['c']);
    assert.equal(book.get('c')?.count, 1);
    assert.deepEqual(book.get('c')?.failure, book.get('c'), 'the stored streak is its last failure');
    assert.equal(book.get('c')?.failure.detail, '1');
  });
});

describe('the streak book of the replay tool', () => {
  test('keeps each agent apart, answers a streak by key, and forgets an agent on reset', () => {
    const streaks = createStreakBook();
    const one = {};
    const two = {};
    assert.equal(streaks.streak(one, 'm'), undefined, 'an agent it never saw');
    assert.deepEqual(streaks.settle(one, ['m'], failed), [1]);
    assert.deepEqual(streaks.settle(one, ['m'], failed), [2]);
    assert.deepEqual(streaks.settle(two, ['m'], failed), [1]);
    assert.equal(streaks.streak(one, 'm')?.count, 2);
    assert.equal(streaks.streak(one, 'other'), undefined);
    streaks.reset(one);
    assert.equal(streaks.streak(one, 'm'), undefined);
    assert.equal(streaks.streak(two, 'm')?.count, 1);
  });
});

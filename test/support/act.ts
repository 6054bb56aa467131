/**
 * The two assertions every `act:` rule test makes: two spellings share one
 * `act:` fingerprint, or they stay apart. The message shows both spellings.
 */
import assert from 'node:assert/strict';
import { actOf } from '../../src/lib/shell/act/index.js';

export function same(a: string, b: string): void {
  assert.equal(actOf(a), actOf(b), `${a}  vs  ${b}`);
}

export function apart(a: string, b: string): void {
  assert.notEqual(actOf(a), actOf(b), `${a}  vs  ${b}`);
}

/**
 * A call's marks (call/mark.ts): the caps a configuration gives each of its
 * fingerprints, and the target marks kept on a reading that the calls of one
 * text share.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../src/lib/config/config.js';
import { exactOf, targetOf } from '../../src/lib/call/fingerprint.js';
import { callMarks, markTarget } from '../../src/lib/call/mark.js';

const capsOf = (marks: readonly { measure: string; cap: number }[]): Record<string, number> => Object.fromEntries(marks.map((mark) => [mark.measure, mark.cap]));

describe('markTarget: a reading’s marks, made once per configuration', () => {
  test('the calls of one text under one configuration share the marks made for the first', () => {
    const cfg = resolveConfig({});
    const target = targetOf('bash', { command: 'curl -s https://example.com/a' }, cfg, true);
    const first = markTarget(target, cfg);
    assert.ok(first.length > 0, 'a fetch has target marks');
    assert.equal(markTarget(target, cfg), first);
  });

  test('the same reading asked under another configuration gets that configuration’s caps', () => {
    const loose = resolveConfig({ limits: { host: 30 } });
    const tight = resolveConfig({ limits: { host: 4 } });
    const target = targetOf('bash', { command: 'curl -s https://example.com/a' }, loose, true);
    assert.equal(capsOf(markTarget(target, loose)).host, 30);
    assert.equal(capsOf(markTarget(target, tight)).host, 4);
    assert.equal(capsOf(markTarget(target, loose)).host, 30);
  });

  test('a call without a target reading (a file tool) has no target marks', () => {
    const cfg = resolveConfig({});
    const target = targetOf('read', { path: 'a.txt' }, cfg, true);
    assert.deepEqual(markTarget(target, cfg), []);
  });
});

describe('callMarks: exact: first, then the target’s marks in their order', () => {
  test('a fetch’s marks are its identity and then every target mark', () => {
    const cfg = resolveConfig({});
    const args = { command: 'curl -s https://example.com/a' };
    const target = targetOf('bash', args, cfg, true);
    const marks = callMarks(exactOf('bash', args, cfg), target, cfg);
    assert.equal(marks[0]?.measure, 'exact');
    assert.deepEqual(marks.slice(1), [...markTarget(target, cfg)]);
  });
});

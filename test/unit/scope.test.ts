/**
 * Which calls take part: include / exclude with `*` (contract §3.1), and the
 * full transparency of untracked and agentless calls (§2.1).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../src/lib/config/config.js';
import { compileScope } from '../../src/lib/policy/scope.js';
import { bash, defaultCap, deniedAt, failing, newHost, noticedAt, repeat, succeeding } from '../support/session.js';

const scope = (config: unknown = {}) => compileScope(resolveConfig(config));
const X = bash('cat /etc/hosts');
const cap = defaultCap('exact');

describe('include and exclude', () => {
  test('by default everything is tracked except todo_write', () => {
    const tracked = scope();
    assert.equal(tracked('bash'), true);
    assert.equal(tracked('web_fetch'), true);
    assert.equal(tracked('todo_write'), false);
  });

  test('a name that is empty or not a string is never tracked', () => {
    const tracked = scope();
    for (const name of ['', undefined, null, 42, {}, ['bash']]) assert.equal(tracked(name), false, String(name));
  });

  test('* in an exclude pattern matches any run of characters', () => {
    const tracked = scope({ exclude: ['mcp__*'] });
    assert.equal(tracked('mcp__github__search'), false);
    assert.equal(tracked('mcp__'), false);
    assert.equal(tracked('bash'), true);
    assert.equal(tracked('todo_write'), true, 'the exclude list replaced the default');
  });

  test('a non-empty include tracks only matching names', () => {
    const tracked = scope({ include: ['web_*', 'bash'] });
    assert.equal(tracked('web_fetch'), true);
    assert.equal(tracked('bash'), true);
    assert.equal(tracked('read'), false);
  });

  test('exclude beats include', () => {
    const tracked = scope({ include: ['web_*'], exclude: ['web_search'] });
    assert.equal(tracked('web_fetch'), true);
    assert.equal(tracked('web_search'), false);
  });

  test('matching is case-sensitive', () => {
    assert.equal(scope({ exclude: ['Bash'] })('bash'), true);
    assert.equal(scope({ include: ['bash'] })('Bash'), false);
  });

  test('patterns are anchored at both ends', () => {
    const tracked = scope({ exclude: ['read'] });
    assert.equal(tracked('read'), false);
    assert.equal(tracked('read_file'), true);
    assert.equal(tracked('xread'), true);
  });

  test('regex metacharacters in a pattern are literal; only * is a wildcard', () => {
    const tracked = scope({ exclude: ['a.b', 'f(x)+', 'q?', '[z]', 'p|r', 'c$', '^d'] });
    for (const literal of ['a.b', 'f(x)+', 'q?', '[z]', 'p|r', 'c$', '^d']) assert.equal(tracked(literal), false, literal);
    for (const other of ['axb', 'fx', 'fxx', 'q', 'z', 'p', 'r', 'c', 'd']) assert.equal(tracked(other), true, other);
  });

  test('exclude: [*] tracks nothing', () => {
    const tracked = scope({ exclude: ['*'] });
    assert.equal(tracked('bash'), false);
    assert.equal(tracked('read'), false);
  });
});

describe('untracked calls are fully transparent', () => {
  test('an excluded tool is never gated and never advised, however often it repeats', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, cap * 3, { name: 'todo_write', arguments: { todos: [] } });
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('an untracked failing tool never builds a streak', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', exclude: ['bash'] }), {}, 10, { ...bash('cat /nope'), body: failing(1) });
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('untracked calls take no window slot, so they do not slide tracked calls out', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, cap - 1, X);
    await repeat(host, agent, 10, { name: 'todo_write', arguments: { todos: ['a'] } });
    assert.equal((await host.call({ agent, ...X })).denied, true);
  });

  test('an untracked result never becomes the quoted previous result', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, cap - 1, { ...X, body: succeeding('TRACKED-OUTPUT') });
    await host.call({ agent, name: 'todo_write', arguments: {}, body: succeeding('UNTRACKED-OUTPUT') });
    const denied = await host.call({ agent, ...X });
    assert.ok(denied.denyReason?.includes('TRACKED-OUTPUT'), denied.denyReason ?? 'no denial');
    assert.ok(!denied.denyReason?.includes('UNTRACKED-OUTPUT'), 'the untracked result is not quoted');
  });

  test('with include: [bash], a repeated read is never gated', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', include: ['bash'] }), {}, cap + 5, { name: 'read', arguments: { path: '/a' } });
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('with exclude: [*], even bash is never gated', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', exclude: ['*'] }), {}, cap + 5, X);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('with exclude: [], todo_write is tracked and gated like any tool', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', exclude: [] }), {}, cap, { name: 'todo_write', arguments: { todos: [] } });
    assert.deepEqual(deniedAt(outcomes), [cap]);
  });
});

describe('calls without an agent are fully transparent', () => {
  test('an agentless call is never gated, advised or asked about', async () => {
    const outcomes = await repeat(newHost(), undefined as unknown as object, cap * 2, X);
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
    assert.ok(outcomes.every((o) => !o.asked), 'an agentless call is never asked about');
  });

  test('agentless failures build no streak', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), undefined as unknown as object, 10, { ...bash('cat /nope'), body: failing(1) });
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
  });
});

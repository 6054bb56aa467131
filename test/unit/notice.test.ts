/**
 * The notice object every advisory rides on (contract §3.8, §5).
 * The summary cut (P7) is pinned in deviations.test.ts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { createNotice, countedSummary, repeatSummary, summaryLabel } from '../../src/lib/text/notice.js';
import { bash, failing, newHost, noticesOf, on, repeat, shown } from '../support/session.js';

const PREFIX = 'repeat-tool-breaker-';

function assertNoticeShape(notice: unknown, text: string, summary: string): void {
  const n = notice as Record<string, unknown>;
  assert.deepEqual(Object.keys(n).sort(), ['content', 'id', 'role', 'source']);
  assert.equal(typeof n.id, 'string');
  assert.ok((n.id as string).startsWith(PREFIX), n.id as string);
  assert.ok((n.id as string).length > PREFIX.length, 'the id has its own part after the prefix');
  assert.equal(n.role, 'user');
  assert.deepEqual(n.content, [{ type: 'text', text }]);
  assert.deepEqual(n.source, { kind: 'plugin', plugin: 'repeat-tool-breaker', form: 'notice', summary });
}

function assertDeepFrozen(notice: unknown): void {
  const n = notice as { content: Array<Record<string, unknown>>; source: object };
  assert.ok(Object.isFrozen(n), 'the notice');
  assert.ok(Object.isFrozen(n.content), 'its content array');
  assert.ok(Object.isFrozen(n.content[0]), 'its text block');
  assert.ok(Object.isFrozen(n.source), 'its source');
}

describe('createNotice', () => {
  test('a notice is a user-role text message stamped with the plugin source', () => {
    assertNoticeShape(createNotice('hello', 'host:a.com × 7'), 'hello', 'host:a.com × 7');
  });

  test('a notice is frozen at every level', () => {
    const notice = createNotice('hello', 's') as unknown as { role: string; content: Array<{ text: string }>; source: { summary: string } };
    assertDeepFrozen(notice);
    assert.throws(() => {
      notice.role = 'assistant';
    }, TypeError);
    assert.throws(() => {
      notice.content[0]!.text = 'changed';
    }, TypeError);
    assert.throws(() => {
      notice.source.summary = 'changed';
    }, TypeError);
  });

  test('every notice gets its own id', () => {
    const ids = new Set(Array.from({ length: 50 }, () => createNotice('x', 'y').id));
    assert.equal(ids.size, 50);
  });
});

describe('summaries', () => {
  test('the occurrence summary is <label> × <n> with U+00D7, the label the measure and its quoted rest (P15)', () => {
    assert.equal(repeatSummary(summaryLabel('host:api.example.com'), 7), 'host \u201capi.example.com\u201d \u00d7 7');
  });

  test('the failure summary is <label> failed x<n>', () => {
    assert.equal(countedSummary(summaryLabel('cmd:cat:cat /nope'), 'failed', 3), 'cmd \u201ccat:cat /nope\u201d failed x3');
  });
});

describe('notices delivered by the hooks', () => {
  test('an occurrence advisory arrives as a frozen plugin notice with the occurrence summary', async () => {
    const warnAt = on(DEFAULTS.warnAt);
    const outcomes = await repeat(newHost(), {}, warnAt, bash('cat /etc/hosts'));
    const [notice] = noticesOf(outcomes[warnAt - 1]!);
    assert.ok(notice, 'the warnAt-th call carries a notice');
    assertNoticeShape(notice, notice.content[0]!.text, `${shown('cmd:cat:cat /etc/hosts')} × ${warnAt}`);
    assertDeepFrozen(notice);
  });

  test('a failure advisory arrives as a frozen plugin notice with the failure summary', async () => {
    const failWarnAt = on(DEFAULTS.failWarnAt);
    const outcomes = await repeat(newHost(), {}, failWarnAt, { ...bash('cat /nope'), body: failing(1) });
    const [notice] = noticesOf(outcomes[failWarnAt - 1]!);
    assert.ok(notice, 'the failWarnAt-th failure carries a notice');
    assertNoticeShape(notice, notice.content[0]!.text, `${shown('cmd:cat:cat /nope')} failed x${failWarnAt}`);
    assertDeepFrozen(notice);
  });

  test("the plugin's notices go before a downstream plugin's contexts, and a downstream decision is kept", async () => {
    const warnAt = on(DEFAULTS.warnAt);
    const host = newHost();
    const foreign = { id: 'other-1', role: 'user', content: [], source: { kind: 'plugin', plugin: 'other' } };
    host.ctx.on('tools/post-execute', async () => ({ kind: 'accept', additionalContexts: [foreign] }));
    const outcomes = await repeat(host, {}, warnAt, bash('cat /etc/hosts'));
    assert.deepEqual(outcomes[0]?.notices, [foreign], 'nothing owed: downstream unchanged');
    const at = noticesOf(outcomes[warnAt - 1]!);
    assert.equal(at.length, 2);
    assert.ok(at[0]?.id.startsWith(PREFIX), "the plugin's own notice comes first");
    assert.equal(at[1], foreign as unknown);
  });
});

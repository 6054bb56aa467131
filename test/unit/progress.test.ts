/**
 * Progress-aware gating (opt-in, `progress: results`): the result digest, the
 * bounded book of digests, and the hold-back through the fake host.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { createProgressBook, isActionKey } from '../../src/lib/memory/progress.js';
import { resultDigest } from '../../src/lib/result/digest.js';
import {
  bash,
  bashResult,
  defaultCap,
  deniedAt,
  failing,
  newHost,
  noticedAt,
  on,
  textResult,
  type CallOutcome,
} from '../support/session.js';
import type { FakeHost, HostResult } from '../support/fake-host.js';

const IGNORE = DEFAULTS.ignoreArgs;
const digest = (result: unknown, name = 'bash'): string => resultDigest(result, name, IGNORE);
const cap = defaultCap('exact');
const hostCap = defaultCap('host');

describe('resultDigest', () => {
  test('the same text and value give the same digest; a different text or value a different one', () => {
    assert.equal(digest(textResult('a', { n: 1 })), digest(textResult('a', { n: 1 })));
    assert.notEqual(digest(textResult('a', { n: 1 })), digest(textResult('b', { n: 1 })));
    assert.notEqual(digest(textResult('a', { n: 1 })), digest(textResult('a', { n: 2 })));
  });

  test('key order in the structured value does not matter', () => {
    assert.equal(digest(textResult('a', { x: 1, y: 2 })), digest(textResult('a', { y: 2, x: 1 })));
  });

  test('a decoy echoed back in the value (bash returns timeoutMs) is not progress', () => {
    assert.equal(digest(bashResult(0, 'same', { timeoutMs: 1000 })), digest(bashResult(0, 'same', { timeoutMs: 2000 })));
  });

  test('the error flag and the split between text blocks are part of the digest', () => {
    assert.notEqual(digest(textResult('a', {}, false)), digest(textResult('a', {}, true)));
    const blocks = (...texts: string[]) => ({ content: texts.map((text) => ({ type: 'text', text })) });
    assert.notEqual(digest(blocks('ab', 'c')), digest(blocks('a', 'bc')));
  });

  test('an unreadable result does not throw, and all unreadable results look alike', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('no');
        },
      },
    );
    assert.equal(typeof digest(hostile), 'string');
    assert.equal(digest(null), digest(undefined));
  });

  test('the digest is short whatever the result weighs', () => {
    assert.ok(digest(textResult('x'.repeat(5_000_000))).length <= 22, 'a 5 MB result digests to at most 22 characters');
  });

  test('exact, cmd, net and sink are action measures; host, site, verb and family are not', () => {
    for (const key of ['exact:bash:{}', 'cmd:ls:ls', 'net:h.com/x', 'sink:/tmp/o']) assert.equal(isActionKey(key), true, key);
    for (const key of ['host:h.com', 'site:h.com', 'verb:curl', 'family:http-fetch']) assert.equal(isActionKey(key), false, key);
  });
});

describe('the book of digests', () => {
  test('one result is no evidence; two different results are; identical ones are not', () => {
    const book = createProgressBook(4);
    const agent = {};
    book.record(agent, ['k'], 'd1');
    assert.equal(book.varied(agent, 'k'), false);
    book.record(agent, ['k'], 'd1');
    assert.equal(book.varied(agent, 'k'), false);
    book.record(agent, ['k'], 'd2');
    assert.equal(book.varied(agent, 'k'), true);
    assert.equal(book.varied({}, 'k'), false, 'per agent');
  });

  test('only the last `window` calls count: a differing result that slid out no longer holds the gate back', () => {
    const book = createProgressBook(3);
    const agent = {};
    book.record(agent, ['k'], 'old');
    for (let i = 0; i < 2; i += 1) book.record(agent, ['k'], 'same');
    assert.equal(book.varied(agent, 'k'), true);
    book.record(agent, ['k'], 'same');
    assert.equal(book.varied(agent, 'k'), false);
  });

  test('a reset forgets every digest', () => {
    const book = createProgressBook(4);
    const agent = {};
    book.record(agent, ['k'], 'a');
    book.record(agent, ['k'], 'b');
    book.reset(agent);
    assert.equal(book.varied(agent, 'k'), false);
  });
});

/** A body returning a new line of output on every run: a poll that makes progress. */
function advancing(): (args: unknown) => HostResult {
  let n = 0;
  return () => bashResult(0, `progress ${(n += 1)}`);
}

async function poll(
  host: FakeHost,
  agent: object,
  n: number,
  command: string,
  body: (args: unknown) => HostResult,
): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (let i = 0; i < n; i += 1) out.push(await host.call({ agent, ...bash(command), body }));
  return out;
}

describe('progress-aware gating through the hooks', () => {
  test('by default (`ignore`), a poll returning new data is gated at the cap like any repeat', async () => {
    const outcomes = await poll(newHost({ onLimit: 'deny' }), {}, cap + 2, 'cat /var/log/build.log', advancing());
    assert.deepEqual(deniedAt(outcomes), [cap, cap + 1, cap + 2]);
  });

  test('with `results`, a poll returning new data runs past the cap, and the advisories still fire', async () => {
    const outcomes = await poll(newHost({ onLimit: 'deny', progress: 'results' }), {}, cap + 8, 'cat /var/log/build.log', advancing());
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), [on(DEFAULTS.warnAt), on(DEFAULTS.summarizeAt)]);
  });

  test('with `results`, identical results are gated at the cap as before', async () => {
    const outcomes = await poll(newHost({ onLimit: 'deny', progress: 'results' }), {}, cap + 1, 'cat /etc/hostname', () =>
      bashResult(0, 'same'),
    );
    assert.deepEqual(deniedAt(outcomes), [cap, cap + 1]);
  });

  test('with `results`, a poll that settles is gated once its changing results have left the window', async () => {
    let n = 0;
    const settling = (): HostResult => bashResult(0, (n += 1) <= 2 ? `pending ${n}` : 'done');
    const outcomes = await poll(newHost({ onLimit: 'deny', progress: 'results' }), {}, 30, 'cat /run/status', settling);
    // The window holds the last 16 results: the two pending ones are in it until the 19th call has run.
    const first = deniedAt(outcomes)[0];
    assert.equal(first, DEFAULTS.window + 3);
  });

  test('with `results`, the host: measure still gates a poll that makes progress', async () => {
    const host = newHost({ onLimit: 'deny', progress: 'results' });
    let n = 0;
    const body = (): HostResult => bashResult(0, `status ${(n += 1)}`);
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < hostCap + 1; i += 1)
      outcomes.push(await host.call({ agent: host, ...bash(`curl -s https://api.example.com/jobs/${i % 2}`), body }));
    assert.deepEqual(deniedAt(outcomes), [hostCap, hostCap + 1]);
    assert.match(outcomes[hostCap - 1]!.denyReason ?? '', /host:api\.example\.com/);
  });

  test('with `results`, the failure track still gates a failing call whose output changes', async () => {
    const host = newHost({ onLimit: 'deny', progress: 'results' });
    let n = 0;
    const outcomes: CallOutcome[] = [];
    for (let i = 0; i < on(DEFAULTS.failLimit) + 1; i += 1)
      outcomes.push(await host.call({ agent: host, ...bash('make test'), body: failing(2, `error ${(n += 1)}`) }));
    assert.deepEqual(deniedAt(outcomes), [on(DEFAULTS.failLimit) + 1]);
  });

  test('with `results`, fewer than two known results is no evidence of progress: the gate fires', async () => {
    const outcomes = await poll(
      newHost({ onLimit: 'deny', progress: 'results', limits: { exact: 2, cmd: 2 } }),
      {},
      3,
      'cat /run/once',
      advancing(),
    );
    assert.deepEqual(deniedAt(outcomes), [2, 3]);
  });

  test('with `results`, a human message forgets the results too', async () => {
    const host = newHost({ onLimit: 'deny', progress: 'results', limits: { exact: 3, cmd: 3 } });
    const agent = {};
    await poll(host, agent, 2, 'cat /run/x', advancing());
    await host.human(agent);
    const after = await poll(host, agent, 3, 'cat /run/x', () => bashResult(0, 'same'));
    assert.deepEqual(deniedAt(after), [3], 'the two earlier, differing results were forgotten');
  });
});

/**
 * The repeat track: warn, summarize, gate (contract §3.4, §3.7 Q1).
 * Every threshold is read from DEFAULTS, never written down here.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { bash, deniedAt, defaultCap, newHost, noticedAt, noticeTexts, on, repeat, summaries, shown } from '../support/session.js';

const X = bash('cat /etc/hosts');
const CMD = 'cmd:cat:cat /etc/hosts';
const warnAt = on(DEFAULTS.warnAt);
const summarizeAt = on(DEFAULTS.summarizeAt);
const window = on(DEFAULTS.window);
const cap = Math.min(defaultCap('exact'), defaultCap('cmd'));

describe('the shipped defaults escalate in order', () => {
  test('the defaults put warn below summarize below the action cap, inside the window', () => {
    assert.ok(warnAt < summarizeAt, 'warnAt < summarizeAt');
    assert.ok(summarizeAt < cap, 'summarizeAt < cap');
    assert.ok(cap <= window, 'cap <= window');
  });

  test('one repeated call warns at warnAt, demands a summary at summarizeAt and is gated at the cap', async () => {
    const host = newHost({ onLimit: 'deny' });
    const outcomes = await repeat(host, {}, cap, X);
    assert.deepEqual(noticedAt(outcomes), [warnAt, summarizeAt]);
    assert.deepEqual(deniedAt(outcomes), [cap]);
    assert.deepEqual(summaries(outcomes[warnAt - 1]!), [`${shown(CMD)} × ${warnAt}`]);
    assert.deepEqual(summaries(outcomes[summarizeAt - 1]!), [`${shown(CMD)} × ${summarizeAt}`]);
  });

  test('each stage fires once per crossing, not on every later call', async () => {
    const host = newHost();
    const outcomes = await repeat(host, {}, cap - 1, X);
    const all = outcomes.flatMap(summaries);
    assert.equal(all.filter((s) => s.endsWith(` × ${warnAt}`)).length, 1);
    assert.equal(all.filter((s) => s.endsWith(` × ${summarizeAt}`)).length, 1);
    assert.equal(all.length, 2);
  });

  test('the count a stage reports includes the current call', async () => {
    const host = newHost();
    const outcomes = await repeat(host, {}, warnAt, X);
    assert.deepEqual(noticedAt(outcomes), [warnAt]);
    const text = noticeTexts(outcomes[warnAt - 1]!)[0] ?? '';
    assert.ok(text.includes(CMD), text);
    assert.ok(text.includes(String(warnAt)), text);
  });

  test('a denied call carries no advisory, and calls past the cap stay denied', async () => {
    const host = newHost({ onLimit: 'deny' });
    const outcomes = await repeat(host, {}, cap + 3, X);
    for (const outcome of outcomes.slice(cap - 1)) {
      assert.equal(outcome.denied, true);
      assert.equal(outcome.notices.length, 0);
    }
  });
});

describe('stage settings are independent', () => {
  test('when summarizeAt equals warnAt the summary demand wins', async () => {
    const textAt = async (config: unknown) => {
      const outcomes = await repeat(newHost(config), {}, 3, X);
      return noticeTexts(outcomes[2]!);
    };
    const summarizeOnly = await textAt({ warnAt: null, summarizeAt: 3 });
    const warnOnly = await textAt({ warnAt: 3, summarizeAt: null });
    const both = await textAt({ warnAt: 3, summarizeAt: 3 });
    assert.equal(summarizeOnly.length, 1);
    assert.notDeepEqual(summarizeOnly, warnOnly);
    assert.deepEqual(both, summarizeOnly);
  });

  test('inverted stages are legal: the stronger message simply comes first', async () => {
    const outcomes = await repeat(newHost({ warnAt: 5, summarizeAt: 3 }), {}, 6, X);
    assert.deepEqual(noticedAt(outcomes), [3, 5]);
    const summarizeText = noticeTexts(outcomes[2]!)[0];
    const warnText = noticeTexts(outcomes[4]!)[0];
    const reference = await repeat(newHost({ warnAt: null, summarizeAt: 3 }), {}, 3, X);
    assert.equal(summarizeText, noticeTexts(reference[2]!)[0]);
    assert.notEqual(warnText?.replace(/\d+/g, 'N'), summarizeText?.replace(/\d+/g, 'N'));
  });

  for (const off of [0, -1, null, undefined]) {
    test(`warnAt: ${String(off)} silently disables stage 1 and leaves stage 2`, async () => {
      const outcomes = await repeat(newHost({ warnAt: off }), {}, cap - 1, X);
      assert.deepEqual(noticedAt(outcomes), [summarizeAt]);
    });
  }

  test('summarizeAt: null disables stage 2 and leaves stage 1', async () => {
    const outcomes = await repeat(newHost({ summarizeAt: null }), {}, cap - 1, X);
    assert.deepEqual(noticedAt(outcomes), [warnAt]);
  });

  test('a cap at or below a stage gates without ever advising', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', limits: { exact: 5, cmd: 5 } }), {}, 8, X);
    assert.ok(warnAt >= 5, 'the default warnAt is not below the cap of 5');
    assert.deepEqual(deniedAt(outcomes), [5, 6, 7, 8]);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('a threshold above the window can never fire', async () => {
    const outcomes = await repeat(newHost({ window: 4 }), {}, 30, X);
    assert.deepEqual(noticedAt(outcomes), []);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('uncapped measures (verb:, family:, site:) never earn an advisory', async () => {
    const host = newHost();
    const agent = {};
    const outcomes = [];
    for (let i = 1; i <= cap + 2; i += 1) outcomes.push(await host.call({ agent, ...bash(`curl -s https://h${i}.example${i}.org/`) }));
    assert.deepEqual(noticedAt(outcomes), []);
    assert.deepEqual(deniedAt(outcomes), []);
  });
});

describe('which measure a stage names', () => {
  test('the observed stage choice of §3.4: host × 3, none, host × 5, none, net × 5', async () => {
    const host = newHost({ warnAt: 3, summarizeAt: 5 });
    const agent = {};
    await host.call({ agent, ...bash('curl -s https://h.com/p1') });
    await host.call({ agent, ...bash('curl -s https://h.com/p2') });
    const outcomes = await repeat(host, agent, 5, bash('curl -s https://h.com/z'));
    assert.deepEqual(outcomes.map(summaries), [[`${shown('host:h.com')} × 3`], [], [`${shown('host:h.com')} × 5`], [], [`${shown('net:h.com/z')} × 5`]]);
  });

  test('among equal fingerprints at the same stage and count, cmd: is named before exact:', async () => {
    const outcomes = await repeat(newHost(), {}, warnAt, X);
    assert.deepEqual(summaries(outcomes[warnAt - 1]!), [`${shown(CMD)} × ${warnAt}`]);
  });

  test('a complete tie keeps the first fingerprint in emission order', async () => {
    const outcomes = await repeat(newHost(), {}, warnAt, bash('curl -s http://localhost:3000/1 http://localhost:3000/2'));
    assert.deepEqual(summaries(outcomes[warnAt - 1]!), [`${shown('net:localhost/1')} × ${warnAt}`]);
  });

  test('the summary uses U+00D7 between spaces', async () => {
    const outcomes = await repeat(newHost(), {}, warnAt, X);
    assert.match(summaries(outcomes[warnAt - 1]!)[0] ?? '', / \u00d7 \d+$/);
  });
});

describe('Q1: a stage re-fires when a sliding count returns to its threshold', () => {
  test('X × warnAt, window + 1 − warnAt other calls, then X × 3 warns at warnAt, window + 2, window + 3 and window + 4', async () => {
    const host = newHost();
    const agent = {};
    const outcomes = await repeat(host, agent, warnAt, X);
    for (let i = 1; i <= window + 1 - warnAt; i += 1) outcomes.push(await host.call({ agent, ...bash(`echo other-${i}`) }));
    outcomes.push(...(await repeat(host, agent, 3, X)));
    assert.deepEqual(noticedAt(outcomes), [warnAt, window + 2, window + 3, window + 4]);
    for (const at of noticedAt(outcomes)) assert.deepEqual(summaries(outcomes[at - 1]!), [`${shown(CMD)} × ${warnAt}`]);
  });
});

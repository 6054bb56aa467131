/**
 * The operator's log: one line on the host's logger per gate and per advisory,
 * naming the measure and the count, the model's text quoted and cut to 60
 * characters (src/lib/text/log-line.ts, src/lib/plugin/log.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { advisoryLine, gateLine } from '../../src/lib/text/log-line.js';
import type { HitFacts } from '../../src/lib/text/message.js';
import { hostLog } from '../../src/lib/plugin/log.js';
import { FakeHost } from '../support/fake-host.js';
import plugin from '../../src/index.js';
import { bash, newHost, repeat } from '../support/session.js';

/** Every quotation of a line (P15's “ ” marks). */
function quotedParts(line: string): string[] {
  return [...line.matchAll(/\u201c([^\u201d]*)\u201d/g)].map((match) => match[1] as string);
}

const repeatWords = { track: 'repeat' } as HitFacts['words'];
const cycleWords = { track: 'sequence', measure: 'sequence' } as HitFacts['words'];

describe('the lines', () => {
  test('an advisory is the notice’s summary, which P15 already bounds and quotes', () => {
    assert.equal(advisoryLine('cmd \u201cecho:echo hi\u201d \u00d7 7'), 'advisory: cmd \u201cecho:echo hi\u201d \u00d7 7');
  });

  test('a gate names what it did, the tool, and each track that hit with its measures, their counts and caps, three at most, the model’s text quoted as P15 quotes it', () => {
    const hit = (quote: string, count = 12, cap = 12, words = repeatWords) => ({ quote, words, count, cap });
    assert.equal(gateLine('denied', 'bash', [hit('exact:bash:{}'), hit('cmd:echo:echo hi')]), 'gate, denied: bash, repeat: exact \u201cbash:{}\u201d 12/12, cmd \u201cecho:echo hi\u201d 12/12');
    assert.equal(gateLine('asked', 'bash', [hit('net:a/b', 5, 5)]), 'gate, asked the operator: bash, repeat: net \u201ca/b\u201d 5/5');
    assert.equal(gateLine('denied', 'bash', [hit('exact:1'), hit('cmd:2'), hit('net:3'), hit('host:4'), hit('sink:5')]), 'gate, denied: bash, repeat: exact \u201c1\u201d 12/12, cmd \u201c2\u201d 12/12, net \u201c3\u201d 12/12; 2 more');
    assert.equal(gateLine('ceiling', 'bash', [hit('exact:x', 2, 2)]), 'gate, denied at the exemption ceiling: bash, repeat: exact \u201cx\u201d');
    assert.equal(gateLine('denied', 'bash', [hit('ls \u2192 pwd', 3, 3, cycleWords)]), 'gate, denied: bash, sequence: \u201cls \u2192 pwd\u201d 3/3');
    assert.equal(gateLine('denied', 'a tool\nwith a newline', []), 'gate, denied: \u201ca tool\\nwith a newline\u201d');
  });

  test('a quotation holds at most 60 characters, then …, and a newline or an escape sequence is shown, not obeyed', () => {
    const line = gateLine('denied', 'bash', [{ quote: `cmd:${'x'.repeat(200)}\n\u001b[31m`, words: repeatWords, count: 12, cap: 12 }]);
    assert.equal(quotedParts(line)[0], `${'x'.repeat(60)}\u2026`);
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
  });
});

describe('the plugin logs one line per gate and per advisory', () => {
  test('14 identical calls under onLimit: deny: the advisories at 7 and 11, then a denial line for each of calls 12 to 14', async () => {
    const host = newHost({ onLimit: 'deny' });
    await repeat(host, {}, 14, bash('echo hi'));
    assert.deepEqual(host.logged, [
      'advisory: cmd \u201cecho:echo hi\u201d \u00d7 7',
      'advisory: cmd \u201cecho:echo hi\u201d \u00d7 11',
      'gate, denied: bash, repeat: exact \u201cbash:{"command":"echo hi"}\u201d 12/12, cmd \u201cecho:echo hi\u201d 12/12',
      'gate, denied: bash, repeat: exact \u201cbash:{"command":"echo hi"}\u201d 13/12, cmd \u201cecho:echo hi\u201d 13/12',
      'gate, denied: bash, repeat: exact \u201cbash:{"command":"echo hi"}\u201d 14/12, cmd \u201cecho:echo hi\u201d 14/12',
    ]);
  });

  test('an ask is logged as asked, and the declined measure’s later denial as denied', async () => {
    const host = newHost({});
    await repeat(host, {}, 13, { ...bash('echo hi'), answer: 'decline' });
    const gates = host.logged.filter((line) => line.startsWith('gate'));
    assert.deepEqual(gates.map((line) => line.slice(0, line.indexOf(':'))), ['gate, asked the operator', 'gate, denied']);
  });

  test('a huge command with newlines and escape sequences gives one-line entries whose quotes are at most 60 characters', async () => {
    const host = newHost({ onLimit: 'deny' });
    const command = `echo ${'\u001b[2J\n'.repeat(5000)}`;
    await repeat(host, {}, 13, bash(command));
    assert.equal(host.logged.length, 4);
    for (const line of host.logged) {
      assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/, 'one plain line');
      assert.ok(line.length < 300, `bounded: ${line.length}`);
      for (const part of quotedParts(line)) assert.ok(Array.from(part).length <= 61, part);
    }
  });

  test('a logger that throws changes no decision and no text the model reads', async () => {
    const calm = newHost({ onLimit: 'deny' });
    const down = (): never => {
      throw new Error('logger down');
    };
    const broken = new FakeHost({ apply: (ctx: Record<string, unknown>, config: unknown) => plugin.apply({ ...ctx, logger: { info: down } } as never, config) }, { onLimit: 'deny' });
    const a = await repeat(calm, {}, 13, bash('echo hi'));
    const c = await repeat(broken, {}, 13, bash('echo hi'));
    assert.equal(calm.logged.length, 4, 'the calm host logged');
    const seen = (outcomes: typeof a) => outcomes.map((o) => [o.denied, o.result.content, o.notices.length]);
    assert.deepEqual(seen(c), seen(a));
  });

  test('without a logger, or with one that has no info, the line goes nowhere', () => {
    assert.doesNotThrow(() => hostLog({})('x'));
    assert.doesNotThrow(() => hostLog({ logger: { warn: () => undefined } })('x'));
    assert.doesNotThrow(() => hostLog(null)('x'));
    const calls: unknown[][] = [];
    const logger = {
      prefix: 'p',
      info(this: { prefix: string }, ...args: unknown[]) {
        calls.push([this.prefix, ...args]);
      },
    };
    hostLog({ logger })('called on its logger, 100%d %s %o');
    assert.deepEqual(calls, [['p', '%s', 'called on its logger, 100%d %s %o']], 'on its logger, the line a parameter of a plain %s format');
    // cordis' logger is callable: a function carrying the methods.
    const seen: unknown[][] = [];
    const record = (...args: unknown[]): void => {
      seen.push(['callable', ...args]);
    };
    const callable = Object.assign(() => undefined, { info: record });
    hostLog({ logger: callable })('x');
    assert.deepEqual(seen, [['callable', '%s', 'x']], 'a callable logger is read too');
    const throwing = { get logger(): never { throw new Error('no'); } };
    assert.doesNotThrow(() => hostLog(throwing)('x'));
    const trap = new Proxy(() => undefined, { get: () => { throw new Error('trap'); } });
    assert.doesNotThrow(() => hostLog({ logger: trap })('x'));
  });
});

/**
 * The operator's log: one line on the host's logger per gate and per advisory,
 * naming the measure and the count, the model's text quoted and cut to 60
 * characters (src/lib/text/log-line.ts, src/lib/plugin/log.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { advisoryLine, gateLine, logQuote, LOG_QUOTE_CHARS } from '../../src/lib/text/log-line.js';
import { hostLog } from '../../src/lib/plugin/log.js';
import { FakeHost } from '../support/fake-host.js';
import plugin from '../../src/index.js';
import { bash, newHost, repeat } from '../support/session.js';

/** Every double-quoted part of a line, unescaped. */
function quotedParts(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1] as string}"`) as string);
}

describe('a log line quotes the model’s text', () => {
  test('at most 60 characters, then …, in double quotes', () => {
    assert.equal(logQuote('echo hi'), '"echo hi"');
    const long = 'x'.repeat(200);
    assert.equal(logQuote(long), `"${'x'.repeat(LOG_QUOTE_CHARS)}…"`);
    assert.equal(LOG_QUOTE_CHARS, 60);
  });

  test('quotes, backslashes, newlines, escape sequences and line separators are escaped: the line stays one plain line', () => {
    const quoted = logQuote('a"b\\c\nd\u001b[31me\u2028f\u009b');
    assert.equal(quoted, '"a\\"b\\\\c\\u000ad\\u001b[31me\\u2028f\\u009b"');
    assert.doesNotMatch(quoted, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
  });

  test('a cut never splits a character outside the BMP', () => {
    const quoted = logQuote('😀'.repeat(70));
    assert.equal(quoted, `"${'😀'.repeat(60)}…"`);
  });
});

describe('the lines', () => {
  test('an advisory names the measure and the count of every summary form', () => {
    assert.equal(advisoryLine('cmd:echo:echo hi × 7'), 'advisory: cmd "echo:echo hi" × 7');
    assert.equal(advisoryLine('exact:bash:{"command":"x"} failed x3'), 'advisory: exact "bash:{\\"command\\":\\"x\\"}" failed x3');
    assert.equal(advisoryLine('net:example.com/a same result x3'), 'advisory: net "example.com/a" same result x3');
    assert.equal(advisoryLine('prog:pytest timed out x3'), 'advisory: prog "pytest" timed out x3');
    assert.equal(advisoryLine('file:/w/a.ts rejected x3'), 'advisory: file "/w/a.ts" rejected x3');
    assert.equal(advisoryLine('cycle ls → pwd × 3'), 'advisory: cycle "ls → pwd" × 3');
    assert.equal(advisoryLine('something else'), 'advisory: "something else"');
  });

  test('a gate names what it did, the tool, and each measure with its count and cap, three at most', () => {
    const hit = (quote: string, count = 12, cap = 12) => ({ quote, count, cap });
    assert.equal(gateLine('denied', 'bash', [hit('exact:bash:{}'), hit('cmd:echo:echo hi')]), 'gate, denied: bash, exact "bash:{}" 12/12; cmd "echo:echo hi" 12/12');
    assert.equal(gateLine('asked', 'bash', [hit('net:a/b', 5, 5)]), 'gate, asked the operator: bash, net "a/b" 5/5');
    assert.equal(gateLine('denied', 'bash', [hit('exact:1'), hit('cmd:2'), hit('net:3'), hit('host:4'), hit('sink:5')]), 'gate, denied: bash, exact "1" 12/12; cmd "2" 12/12; net "3" 12/12; 2 more');
    assert.equal(gateLine('spent', 'bash', [hit('exact:x', 2, 2)]), 'gate, denied, the operator\'s approval used up: bash, exact "x"');
    assert.equal(gateLine('denied', 'a tool\nwith a newline', []), 'gate, denied: "a tool\\u000awith a newline"');
  });
});

describe('the plugin logs one line per gate and per advisory', () => {
  test('14 identical calls under onLimit: deny: the advisories at 7 and 11, then a denial line for each of calls 12 to 14', async () => {
    const host = newHost({ onLimit: 'deny' });
    await repeat(host, {}, 14, bash('echo hi'));
    assert.deepEqual(host.logged, [
      'advisory: cmd "echo:echo hi" × 7',
      'advisory: cmd "echo:echo hi" × 11',
      'gate, denied: bash, exact "bash:{\\"command\\":\\"echo hi\\"}" 12/12; cmd "echo:echo hi" 12/12',
      'gate, denied: bash, exact "bash:{\\"command\\":\\"echo hi\\"}" 13/12; cmd "echo:echo hi" 13/12',
      'gate, denied: bash, exact "bash:{\\"command\\":\\"echo hi\\"}" 14/12; cmd "echo:echo hi" 14/12',
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
      for (const part of quotedParts(line)) assert.ok(Array.from(part).length <= LOG_QUOTE_CHARS + 1, part);
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

/**
 * The places the port differs from 0.5.2 on purpose: the contract's P1–P7 and
 * the project's P8 on (docs/deviations.md). Each test name starts with its
 * decision number.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createBreaker, type GateEvent } from '../../src/lib/breaker/breaker.js';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { classifyFailure } from '../../src/lib/result/failure.js';
import { describeFailure } from '../../src/lib/text/failure.js';
import { fingerprints } from '../../src/lib/call/fingerprint.js';
import { identityKey } from '../../src/lib/call/identity.js';
import { createNotice, countedSummary, repeatSummary, summaryLabel } from '../../src/lib/text/notice.js';
import { loadReference } from '../parity/oracle.js';
import { FakeHost } from '../support/fake-host.js';
import {
  bash,
  defaultCap,
  deniedAt,
  gateHits,
  hitLines,
  loggedHost,
  newHost,
  noticedAt,
  on,
  repeat,
  succeeding,
  summaries,
  type HostResult,
  shown,
} from '../support/session.js';

const cap = defaultCap('exact');
const window = on(DEFAULTS.window);
const warnAt = on(DEFAULTS.warnAt);
const summarizeAt = on(DEFAULTS.summarizeAt);
const failWarnAt = on(DEFAULTS.failWarnAt);
const failLimit = on(DEFAULTS.failLimit);

const shellOut = (text: string) => ({ isError: false, value: { kind: 'foreground', exitCode: 0 }, content: [{ type: 'text', text }] });

describe('P1: the curl write-out status counts as a failure', () => {
  const cmd = 'curl -sL "https://weather.gc.ca/x.html" -o /dev/null -w "%{http_code}"';

  test('P1: a leading 404 from a -w "%{http_code}" command is an http failure', () => {
    assert.deepEqual(classifyFailure(shellOut('404 https://weather.gc.ca/x.html\n'), { shell: true, command: cmd }), { reason: 'http', detail: '404' });
  });

  test('P1: a leading 200 is a success, and the 532 inside a byte count does not match', () => {
    assert.equal(classifyFailure(shellOut('200 https://climate.weather.gc.ca/x.html\n153226 /tmp/ecc.html\n'), { shell: true, command: cmd }), null);
  });

  test('P1: a leading 404 without a write-out request is not a status', () => {
    const out = shellOut('404 /tmp/some-file.txt');
    assert.equal(classifyFailure(out, { shell: true, command: 'wc -c /tmp/some-file.txt' }), null);
    assert.equal(classifyFailure(out, { shell: true }), null);
  });

  test('P1: the status must come first in the output', () => {
    assert.equal(classifyFailure(shellOut('Here is a page that mentions 404 in passing.\n200'), { shell: true, command: cmd }), null);
  });

  test('P1: %{response_code} works like %{http_code}, and leading whitespace is allowed', () => {
    const rc = "curl -s -o /tmp/o -w '%{response_code}' https://a.com/x";
    assert.deepEqual(classifyFailure(shellOut('  503\n'), { shell: true, command: rc }), { reason: 'http', detail: '503' });
    assert.equal(classifyFailure(shellOut('4040 bytes'), { shell: true, command: rc }), null);
  });

  test('P1: the write-out status is checked before the other text markers', () => {
    assert.deepEqual(classifyFailure(shellOut('500 https://a.com/x\ncurl: (22) The requested URL returned error: 500'), { shell: true, command: cmd }), {
      reason: 'http',
      detail: '500',
    });
  });

  test('P1: the rule reads text only for shell tools', () => {
    assert.equal(classifyFailure(shellOut('404 https://weather.gc.ca/x.html'), { shell: false, command: cmd }), null);
  });

  test('P1: a curl status probe that keeps returning 404 with exit 0 builds the failure track end to end', async () => {
    const body = (): HostResult => shellOut('404 https://weather.gc.ca/x.html\n');
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, failLimit + 1, { ...bash(cmd), body });
    assert.deepEqual(summaries(outcomes[failWarnAt - 1]!), [`${shown('host:weather.gc.ca')} failed x${failWarnAt}`]);
    assert.deepEqual(deniedAt(outcomes), [failLimit + 1]);
    assert.ok(
      (outcomes[failLimit]?.denyReason ?? '').includes(describeFailure({ reason: 'http', detail: '404' })),
      outcomes[failLimit]?.denyReason ?? 'no denial',
    );
  });
});

describe('P2: an exempted measure stays quiet for the rest of the turn', () => {
  test('P2: after approving at the cap, repeating the call never re-fires warn or summarize (0.5.2 fired again at window + 2 and window + 6)', async () => {
    const host = newHost();
    const agent = {};
    const before = await repeat(host, agent, cap - 1, bash('cat /etc/hosts'));
    const approved = await host.call({ agent, ...bash('cat /etc/hosts'), answer: 'approve' });
    assert.equal(approved.asked, true);
    const after = await repeat(host, agent, 2 * window, bash('cat /etc/hosts'));
    assert.deepEqual(noticedAt(before), [warnAt, summarizeAt]);
    assert.deepEqual(noticedAt([approved, ...after]), []);
    assert.ok(after.every((o) => o.ran && !o.asked), 'every later call runs, and none is asked');
  });

  test('P2: the silence covers only the exempted measures: host: still reaches its own stage', async () => {
    const stage = cap + 2;
    assert.ok(stage < defaultCap('host'), 'the host: warning comes before the host: cap');
    const host = newHost({ warnAt: stage, summarizeAt: null });
    const agent = {};
    const z = bash('curl -s https://h.com/z');
    await repeat(host, agent, cap - 1, z);
    await host.call({ agent, ...z, answer: 'approve' });
    const after = await repeat(host, agent, 2, z);
    assert.deepEqual(summaries(after[1]!), [`${shown('host:h.com')} × ${stage}`]);
  });
});

describe('P3: bracketed IPv6 loopback, link-local and unique-local hosts are local', () => {
  const fpsOf = (command: string, config: unknown = {}) => fingerprints({ name: 'bash', args: { command } }, resolveConfig(config));

  for (const host of ['[::1]', '[fe80::1]', '[fd00::1]', '[fc00::abcd]', '[FE80::2]']) {
    test(`P3: ${host} is local, so it gets no host: by default`, () => {
      const { fps, local } = fpsOf(`curl http://${host}:8080/x`);
      assert.ok(!fps.some((fp) => fp.startsWith('host:')), fps.join('  '));
      assert.ok(fps.some((fp) => fp.startsWith('net:')), 'a local host keeps its net: fingerprint');
      assert.equal(local, true);
    });
  }

  test('P3: other bracketed IPv6 addresses stay public', () => {
    assert.ok(fpsOf('curl http://[2001:db8::1]/x').fps.includes('host:[2001:db8::1]'), 'a public IPv6 host gets host:');
  });

  test('P3: under localHosts: allow a [::1] call keeps only exact: and cmd:', () => {
    assert.deepEqual(fpsOf('curl http://[::1]:8080/x', { localHosts: 'allow' }).fps, [
      'exact:bash:{"command":"curl http://[::1]:8080/x"}',
      'cmd:curl:curl http://[::1]:8080/x',
    ]);
  });

  test('P3: includeLocal: true gives [::1] its host: fingerprint back', () => {
    assert.ok(
      fpsOf('curl http://[::1]:8080/x', { includeLocal: true }).fps.includes('host:[::1]'),
      'includeLocal gives [::1] its host: back',
    );
  });
});

describe('P4: one call is one occurrence', () => {
  test('P4: a fingerprint that is both a failure hit and a repeat hit is committed once: 6/6, then 7/6', async () => {
    // The breaker itself, with its gate hook: a loop's later refusals no longer list their hits to the model (P17), the gate's events still count them.
    const events: GateEvent[] = [];
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny', limits: { exact: 6 } }), () => 'en', { gate: (event) => events.push(event) });
    const agent = {};
    const notFound = { isError: false, value: { statusCode: 404 }, content: [{ type: 'text', text: 'Not Found' }] };
    const denials: (string | undefined)[] = [];
    for (let i = 0; i < failLimit + 2; i += 1) {
      const exec = { name: 'web_fetch', arguments: { url: 'https://api.example.com/missing' }, agent };
      const denial = breaker.guard(exec);
      breaker.settle(exec, denial === undefined ? notFound : { isError: true, content: [{ type: 'text', text: `Error: ${denial}` }] });
      denials.push(denial);
    }
    assert.equal(failLimit, 5, 'this scenario is the contract’s, written for failLimit 5 and exact: 6');
    assert.deepEqual(denials.flatMap((denial, at) => (denial === undefined ? [] : [at + 1])), [6, 7]);
    const exact = 'exact:web_fetch:{"url":"https://api.example.com/missing"}';
    const failed = `- ${exact} — 5 consecutive failures (${describeFailure({ reason: 'http', detail: '404' })})`;
    assert.ok(hitLines(denials[5]).includes(`- ${exact} 6/6`), denials[5] ?? 'no denial');
    assert.ok(hitLines(denials[5]).includes(failed), denials[5] ?? 'no denial');
    const counted = (event: GateEvent | undefined): string[] => (event?.hits ?? []).filter((hit) => hit.quote === exact).map((hit) => `${hit.count}/${hit.cap}`);
    assert.deepEqual(counted(events[0]), ['5/5', '6/6'], 'the failure streak, then the repeat count');
    assert.deepEqual(counted(events[1]), ['5/5', '7/6'], 'committed once: 7, not 8');
  });
});

describe('P5: nothing a model sends makes the plugin throw or stall', () => {
  const deep = (): Record<string, unknown> => {
    let value: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 100_000; i += 1) value = { a: value };
    return value;
  };
  const cyclic = (): Record<string, unknown> => {
    const value: Record<string, unknown> = { path: '/a' };
    value.self = value;
    return value;
  };
  const hostile: Array<[string, () => unknown]> = [
    ['arguments nested 100,000 deep', () => ({ path: '/a', content: deep() })],
    ['a cyclic argument object', cyclic],
    ['a BigInt argument', () => ({ path: '/a', size: 10n ** 30n })],
    ['odd-typed arguments (symbol, function, Map, Date, NaN)', () => ({ s: Symbol('x'), f: () => 1, m: new Map([[1, 2]]), d: new Date(0), n: NaN, [Symbol('k')]: 1 })],
  ];

  for (const [label, make] of hostile) {
    test(`P5: a call with ${label} gets a decision, consistently, and no hook throws`, async () => {
      const host = newHost({ onLimit: 'deny', limits: { exact: 3 } });
      const agent = {};
      const outcomes = [];
      for (let i = 0; i < 3; i += 1) outcomes.push(await host.call({ agent, name: 'write', arguments: make() }));
      assert.ok(outcomes[0]?.ran, 'the first call runs');
      assert.deepEqual(deniedAt(outcomes), [3], 'the same hostile call is still recognised as a repeat');
    });
  }

  test('P5: a throwing getter in the arguments still gets a decision and no hook throws', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const args = () => {
      const value: Record<string, unknown> = { description: 'x' };
      Object.defineProperty(value, 'command', {
        enumerable: true,
        get() {
          throw new Error('gotcha');
        },
      });
      return value;
    };
    const outcomes = await repeat(host, agent, cap + 1, { name: 'bash', arguments: args() });
    for (const outcome of outcomes) assert.equal(typeof outcome.denied, 'boolean');
    assert.ok(outcomes[0]?.ran, 'the first call runs');
  });

  test('P5: a proxy that throws on every trap still gets a decision', async () => {
    const trap = () => {
      throw new Error('trap');
    };
    const evil = new Proxy({}, { get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, has: trap, getPrototypeOf: trap });
    const host = newHost();
    const outcome = await host.call({ agent: {}, name: 'bash', arguments: evil });
    assert.equal(typeof outcome.denied, 'boolean');
  });

  test('P5: fingerprints() never throws on hostile arguments and still emits exact: first', () => {
    for (const [label, make] of hostile) {
      const { fps } = fingerprints({ name: 'write', args: make() }, DEFAULTS);
      assert.ok(fps[0]?.startsWith('exact:write:'), label);
    }
  });

  test('P5: classifying a result of many blank lines takes linear time (0.5.2 was quadratic)', () => {
    // A ratio, not a time budget: 8x the lines may cost 8x (with slack for a busy machine), not 64x.
    const classifyAll = (lines: number): number => {
      let least = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 3; i += 1) {
        const started = performance.now();
        classifyFailure(shellOut(`${'\n'.repeat(lines)}x`), { shell: true });
        classifyFailure(shellOut(`Traceback (most recent call last):${'\n'.repeat(lines)}x`), { shell: true });
        classifyFailure(shellOut(`${' \n'.repeat(lines)}ValueError: y`), { shell: true });
        least = Math.min(least, performance.now() - started);
      }
      return least;
    };
    classifyAll(60_000);
    classifyAll(480_000);
    // Up to three attempts at the same bound, as the linear-time suite does: a busy machine can
    // slow one attempt (seen under a mutation campaign: 1.4 ms against 66.5 ms); a quadratic path fails all three.
    const seen: string[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const small = classifyAll(60_000);
      const large = classifyAll(480_000);
      seen.push(`60,000 lines: ${small.toFixed(1)} ms; 480,000 lines: ${large.toFixed(1)} ms`);
      if (large <= 8 * small * 3 + 30) return;
    }
    assert.fail(seen.join(' | '));
  });

  test('P5: a huge result text is settled without throwing and quoted only up to resultPreviewChars', async () => {
    const host = newHost({ onLimit: 'deny', resultPreviewChars: 50 });
    const agent = {};
    const huge = `${'A'.repeat(50)}${'B'.repeat(5_000_000)}`;
    const outcomes = await repeat(host, agent, cap, { ...bash('cat big.log'), body: succeeding(huge) });
    const denial = outcomes[cap - 1]?.denyReason ?? '';
    assert.ok(denial.includes('A'.repeat(50)), denial);
    assert.ok(!denial.includes(`${'A'.repeat(50)}B`), 'the quote stops at resultPreviewChars');
  });
});

/** The V8 collector, reachable without --expose-gc; undefined if the runtime refuses. */
function exposeGc(): (() => void) | undefined {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
}

describe('P5: an agent that is not an object', () => {
  test('P5: a call whose agent is a primitive runs, is never counted and never throws', async () => {
    const host = newHost({ onLimit: 'deny' });
    for (const agent of ['agent-1', 42, true]) {
      const outcomes = await repeat(host, agent as unknown as object, cap + 2, bash('ls /tmp'));
      assert.deepEqual(deniedAt(outcomes), []);
      assert.ok(outcomes.every((outcome) => outcome.ran && outcome.notices.length === 0), 'every call runs, and no notice is given');
    }
  });
});

describe('P6: memory per agent stays bounded whatever the argument size', () => {
  const mb = (seed: string) => seed + 'x'.repeat(1024 * 1024);

  test('P6: the identity key of a 1 MB fingerprint is short', () => {
    assert.ok(identityKey(`exact:write:${mb('a')}`).length <= 200, 'the key of a 1 MB fingerprint stays within 200 characters');
  });

  test('P6: distinct 1 MB fingerprints get distinct keys, even when they differ only at the end', () => {
    const base = mb('a');
    const keys = new Set([identityKey(`${base}1`), identityKey(`${base}2`), identityKey(`${base}12`), identityKey(`2${base}`)]);
    assert.equal(keys.size, 4);
  });

  test('P6: the identity key is a function of the fingerprint alone', () => {
    assert.equal(identityKey(mb('same')), identityKey(mb('same')));
    assert.equal(identityKey('host:a.com'), identityKey('host:a.com'));
    assert.notEqual(identityKey('host:a.com'), identityKey('host:b.com'));
  });

  test('P6: a 1 MB write repeated is still gated at the cap, and its denial quotes the real fingerprint head', async () => {
    const host = newHost({ onLimit: 'deny' });
    const content = mb('payload-');
    const outcomes = await repeat(host, {}, cap, { name: 'write', arguments: { path: '/w/big.txt', content } });
    assert.deepEqual(deniedAt(outcomes), [cap]);
    const fp = `exact:write:${JSON.stringify({ content, path: '/w/big.txt' })}`;
    const previewChars = on(DEFAULTS.previewChars);
    assert.ok(
      hitLines(outcomes[cap - 1]?.denyReason).includes(`- ${fp.slice(0, previewChars)}\u2026 (+${fp.length - previewChars} more chars) ${cap}/${cap}`),
      outcomes[cap - 1]?.denyReason ?? 'no denial',
    );
  });

  test('P6: sixteen-plus distinct 1 MB writes on one agent do not retain their text', async (t) => {
    const gc = exposeGc();
    if (gc === undefined) {
      t.skip('gc is not reachable in this runtime');
      return;
    }
    const host = newHost();
    const agent = {};
    await host.call({ agent, name: 'write', arguments: { path: '/w/0', content: 'warm-up' } });
    gc();
    const before = process.memoryUsage().heapUsed;
    const writes = window + 4;
    for (let i = 0; i < writes; i += 1) {
      await host.call({ agent, name: 'write', arguments: { path: `/w/${i}`, content: `${i}:${'y'.repeat(1024 * 1024)}` } });
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.ok(grown < 6 * 1024 * 1024, `the heap grew by ${(grown / 1024 / 1024).toFixed(1)} MB after ${writes} distinct 1 MB writes`);
  });
});

describe('P7: a notice summary stays within 120 characters', () => {
  const long = (n: number) => `exact:write:${'z'.repeat(n - 'exact:write:'.length)}`;

  test('P7: past 60 characters after its measure, a fingerprint is cut to 60 plus … inside its quotation (P15)', () => {
    const fp = long(73);
    assert.equal(repeatSummary(summaryLabel(fp), 7), `exact \u201cwrite:${'z'.repeat(54)}\u2026\u201d \u00d7 7`);
    assert.equal(countedSummary(summaryLabel(fp), 'failed', 3), `exact \u201cwrite:${'z'.repeat(54)}\u2026\u201d failed x3`);
  });

  test('P7: a fingerprint of exactly 60 characters after its measure is kept whole', () => {
    const fp = long(66);
    assert.equal(repeatSummary(summaryLabel(fp), 7), `exact \u201cwrite:${'z'.repeat(54)}\u201d \u00d7 7`);
    assert.equal(countedSummary(summaryLabel(fp), 'failed', 3), `exact \u201cwrite:${'z'.repeat(54)}\u201d failed x3`);
  });

  test('P7: a notice built from a megabyte fingerprint has a summary within 120 characters', () => {
    const summary = repeatSummary(summaryLabel(long(1024 * 1024)), 16);
    assert.ok(summary.length <= 120, String(summary.length));
    assert.equal(createNotice('t', summary).source.summary, summary);
  });

  test('P7: a large repeated write reaches its warning with a summary within 120 characters', async () => {
    const outcomes = await repeat(newHost(), {}, warnAt, { name: 'write', arguments: { path: '/w/a', content: 'q'.repeat(10_000) } });
    const [summary] = summaries(outcomes[warnAt - 1]!);
    assert.ok(summary !== undefined, 'the warning carries a summary');
    assert.ok(summary.length <= 120, summary);
    assert.ok(summary.startsWith('exact \u201cwrite:{"content":"qqq'), summary);
    assert.ok(summary.endsWith(`\u2026\u201d \u00d7 ${warnAt}`), summary);
  });
});

describe('P8: inside a pool of parallel calls, the operator is asked once per measure', () => {
  const read = (answer: 'approve' | 'decline' | 'none') => ({ name: 'read', arguments: { file_path: 'logs/build.log' }, answer, body: () => shellOut('step 3/5') });
  /**
   * Ten reads one at a time, then a step of four identical reads in DSH's pool
   * order: the 11th runs, so the 12th (the gate) is settled only after that
   * body, and the 13th reaches policy first. Returns the 12th to 14th.
   */
  async function poolAtTheGate(answer: 'approve' | 'decline' | 'none', gates: string[] = []) {
    const logged = loggedHost();
    const agent = {};
    await repeat(logged.host, agent, cap - 2, read(answer));
    const pooled = await logged.host.pool([read(answer), read(answer), read(answer), read(answer)].map((input) => ({ ...input, agent })));
    assert.equal(pooled[0]?.ran, true, 'the 11th read runs');
    gates.push(...logged.gates);
    return pooled.slice(1);
  }

  test('P8: an unanswered ask inside a pool is not asked again by the next identical call: it is denied as refused (0.5.2 asked twice)', async () => {
    const gates: string[] = [];
    const [twelfth, thirteenth, fourteenth] = await poolAtTheGate('none', gates);
    assert.equal(twelfth?.asked, true);
    assert.equal(thirteenth?.asked, false, 'the same measures are not put to the operator twice in one step');
    assert.equal(fourteenth?.asked, false);
    assert.match(thirteenth?.denyReason ?? '', /^REPEAT_TOOL_BLOCKED:/);
    // The loop's second refusal (P17): the host said nothing of how the ask ended, so it says only what is true of any end.
    assert.match(thirteenth?.denyReason ?? '', /call not run: a loop blocked before \(exact [^\n]*\), 2 of its calls blocked this turn with this one; it was not approved; the first denial says why\./);
    // Its counts are in the gate's log line: asked at the 12th, denied at the 13th and 14th.
    const gated = gates.filter((line) => line.startsWith('gate, '));
    assert.deepEqual(gated.map((line) => line.split(':')[0]), ['gate, asked the operator', 'gate, denied', 'gate, denied']);
    assert.ok(gateHits(gated[1]).includes(`${shown('exact:read:{"file_path":"logs/build.log"}')} ${cap + 1}/${cap}`), `the second gate line: ${String(gated[1])}`);
  });

  test('P8: a declined ask inside a pool is spent once, as if the pool had settled it first', async () => {
    const outcomes = await poolAtTheGate('decline');
    assert.deepEqual(outcomes.map((o) => [o.asked, o.ran]), [[true, false], [false, false], [false, false]]);
    const host = newHost();
    const agent = {};
    const single = await repeat(host, agent, cap + 2, read('decline'));
    assert.deepEqual(single.slice(cap - 1, cap + 2).map((o) => [o.asked, o.ran, hitLines(o.denyReason)]), outcomes.map((o) => [o.asked, o.ran, hitLines(o.denyReason)]));
  });

  test('P8: an approved ask inside a pool exempts the calls after it, which run', async () => {
    const outcomes = await poolAtTheGate('approve');
    assert.deepEqual(outcomes.map((o) => [o.asked, o.ran]), [[true, true], [false, true], [false, true]]);
  });
});

describe('P9: volatile flags belong to their command', () => {
  const cmdOf = (command: string): string | undefined => fingerprints({ name: 'bash', args: { command } }, DEFAULTS).fps.find((fp) => fp.startsWith('cmd:'));

  test("P9: python's -m names a module: python -m pytest and python -m http.server are two commands (0.5.2: one)", () => {
    assert.equal(cmdOf('python -m pytest -x'), 'cmd:python:python -m pytest -x');
    assert.equal(cmdOf('python -m http.server 8000'), 'cmd:python:python -m http.server 8000');
    assert.notEqual(cmdOf('python -m pytest -x'), cmdOf('python -m unittest'));
  });

  test("P9: git's -m is the message: two commits with two messages are two commands", () => {
    assert.notEqual(cmdOf('git commit -m "fix the parser"'), cmdOf('git commit -m "add a test"'));
  });

  test("P9: curl's volatile flags still go, wherever curl runs in the line", () => {
    assert.equal(cmdOf('curl -sSL -m 30 --retry 3 https://a.com/x'), 'cmd:curl:curl https://a.com/x');
    assert.equal(cmdOf('cd /w && curl -s -m 5 https://a.com/x | grep -s title'), 'cmd:cd:cd /w && curl https://a.com/x | grep -s title');
    assert.equal(cmdOf('sudo timeout 5 /usr/bin/curl --max-time=9 https://a.com'), 'cmd:curl:sudo timeout 5 /usr/bin/curl https://a.com');
  });

  test("P9: wget owns --user-agent and nothing else of the list; ls keeps its -s -L (0.5.2 gave `ls`)", () => {
    assert.equal(cmdOf('wget --user-agent=x -q https://a.com/f'), 'cmd:wget:wget -q https://a.com/f');
    assert.equal(cmdOf('wget -m https://a.com/site/'), 'cmd:wget:wget -m https://a.com/site/');
    assert.equal(cmdOf('ls -s -L -k -f'), 'cmd:ls:ls -s -L -k -f');
  });

  test('P9: a repeated pytest run is still one command: respelling its own flags is no volatile flag of curl', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, cap, bash('python -m pytest -q'));
    assert.deepEqual(deniedAt(outcomes), [cap]);
  });
});

describe('P10: a URL in a here-document that is only written out is no target', () => {
  const fps = (command: string): string[] => fingerprints({ name: 'bash', args: { command } }, DEFAULTS).fps;

  test('P10: writing a script with cat gives no net:, site: or host: for the URLs inside it (0.5.2 counted them)', () => {
    const written = fps("cat > fetch.py <<'EOF'\nimport requests\nrequests.get('https://api.example.com/v1')\nEOF");
    assert.deepEqual(written.filter((fp) => /^(net|site|host):/.test(fp)), []);
    assert.ok(written.includes('sink:fetch.py'), written.join(' | '));
  });

  test('P10: tee writing a body, and <<- with tabs, are written out too', () => {
    assert.deepEqual(fps("tee get.sh <<'END' >/dev/null\ncurl -s https://a.com/x\nEND").filter((fp) => fp.startsWith('host:')), []);
    assert.deepEqual(fps('cat <<-EOF > n.md\n\thttps://a.com/x\n\tEOF').filter((fp) => fp.startsWith('host:')), []);
  });

  test('P10: a body something runs keeps its URLs: python3 -, a pipe to sh', () => {
    assert.ok(fps("python3 - <<'EOF'\nimport urllib.request\nurllib.request.urlopen('https://a.com/x')\nEOF").includes('host:a.com'), 'python3 - runs its body');
    assert.ok(fps('cat <<EOF | sh\ncurl -s https://a.com/x\nEOF').includes('host:a.com'), 'a body piped to sh runs');
  });

  test('P10: the line is read as the shell reads it: a backslash-newline, operators glued to words, two here-documents on one line; << in quotes is none', () => {
    const hosts = (command: string): string[] => fps(command).filter((fp) => fp.startsWith('host:'));
    assert.deepEqual(hosts("cat \\\n  > notes.md <<'EOF'\nSee https://a.com/x\nEOF"), []);
    assert.deepEqual(hosts("cd /w&&cat > f.py <<'EOF'\nrequests.get('https://a.com/x')\nEOF"), []);
    assert.deepEqual(hosts('cat <<A > a.md; cat <<B > b.md\nhttps://a.com/x\nA\nhttps://b.com/y\nB'), []);
    assert.deepEqual(hosts('echo "cat <<EOF"\ncurl https://a.com/x\nEOF'), ['host:a.com'], 'an operator in quotes is none');
    assert.deepEqual(hosts("cat <<'EOF' > f.sh; echo ok | sh\ncurl https://a.com/x\nEOF"), ['host:a.com'], 'a pipe on the line, after the operator, may run it');
  });

  test('P10: a URL outside the body still counts, and an unterminated body is read as 0.5.2 reads it', () => {
    assert.ok(fps("cat > f.py <<'EOF'\nx = 1\nEOF\ncurl https://a.com/y").includes('net:a.com/y'), 'the curl after the body is a target');
    assert.ok(fps("cat > f.py <<'EOF'\nrequests.get('https://a.com/z')").includes('net:a.com/z'), 'an unterminated body is read as written');
  });
});

describe('P12: a URL in a here-document that is a message is no target', () => {
  const fps = (command: string): string[] => fingerprints({ name: 'bash', args: { command } }, DEFAULTS).fps;
  const targets = (command: string): string[] => fps(command).filter((fp) => /^(net|site|host):/.test(fp));
  const commit = (body: string): string => `git commit -m "$(cat <<'EOF'\n${body}\nEOF\n)"`;

  test('P12: a commit message written by cat inside $(…) gives no net:, site: or host: (0.5.2 and P10 counted them)', () => {
    const command = commit('Retry the fetch\n\nSee https://github.com/o/r/issues/7');
    assert.deepEqual(targets(command), []);
    assert.ok(fps(command).some((fp) => fp.startsWith('cmd:git:') && fp.includes('issues/7')), 'cmd: still reads the whole command');
  });

  test('P12: gh pr create --body, backticks, a backslash-continued line and two messages in one command are messages too', () => {
    assert.deepEqual(targets(`gh pr create --title "Fix" --body "$(cat <<'EOF'\n## Summary\n- https://a.com/x\nEOF\n)"`), []);
    assert.deepEqual(targets("git commit -m \"`cat <<'EOF'\nhttps://a.com/x\nEOF\n`\""), []);
    assert.deepEqual(targets(`gh pr create --title "Fix" \\\n  --body "$(cat <<'EOF'\nhttps://a.com/x\nEOF\n)"`), []);
    assert.deepEqual(targets(`git add -A && git -C /w commit -q -m "$(cat <<'EOF'\nhttps://a.com/x\nEOF\n)" && gh pr create --body "$(cat <<'EOF'\nhttps://b.com/y\nEOF\n)"`), []);
  });

  test('P12: a backslash-newline is a line continuation wherever it stands: before the command word, after &&, ;, || or |, between git or gh and its subcommand, before -m', () => {
    const message = `"$(cat <<'EOF'\nSee https://a.com/x\nEOF\n)"`;
    for (const command of [
      `true && \\\ngit commit -m ${message}`,
      `true; \\\ngit commit -m ${message}`,
      `false || \\\ngit commit -m ${message}`,
      `echo x | \\\ngit commit -m ${message}`,
      `\\\ngit commit -m ${message}`,
      `git \\\ncommit -m ${message}`,
      `git -C /w \\\n  commit -q \\\n  -m ${message}`,
      `gh \\\npr create --body ${message}`,
      `git commit \\\n-m ${message}`,
      `true &&\ngit commit -m ${message}`,
      "true && \\\ngit commit -F - <<'EOF'\nhttps://a.com/x\nEOF",
      "git \\\ncommit -F - <<'EOF'\nhttps://a.com/x\nEOF",
    ]) {
      assert.deepEqual(targets(command), [], JSON.stringify(command));
    }
    assert.ok(targets(`bash \\\n-c ${message}`).includes('host:a.com'), 'a continued line that runs its text keeps its URLs');
  });

  test('P12: a recorder reading its message from standard input takes the body as text: git commit -F -, --file=-, gh --body-file -', () => {
    assert.deepEqual(targets("git commit -F - <<'EOF'\nhttps://a.com/x\nEOF"), []);
    assert.deepEqual(targets('git tag -a v1 --file=- <<EOF\nhttps://a.com/x\nEOF'), []);
    assert.deepEqual(targets("gh issue comment 7 --body-file - <<'EOF'\nhttps://a.com/x\nEOF"), []);
    assert.ok(targets("git commit -F msg.txt <<'EOF'\nhttps://a.com/x\nEOF").includes('host:a.com'), 'a message read from a file leaves the body to something else');
  });

  test('P12: a text handed to anything but a recorder keeps its URLs: bash -c, curl, an assignment, echo, a pipe, an option before the subcommand', () => {
    for (const command of [
      `bash -c "$(cat <<'EOF'\ncurl -s https://a.com/x\nEOF\n)"`,
      `curl "$(cat <<'EOF'\nhttps://a.com/x\nEOF\n)"`,
      `URLS=$(cat <<'EOF'\nhttps://a.com/x\nEOF\n)`,
      `git commit -m "$(echo "$(cat <<'EOF'\nhttps://a.com/x\nEOF\n)")"`,
      `git commit -m "$(cat <<'EOF' | sh\nhttps://a.com/x\nEOF\n)"`,
      `echo "git commit -m $(cat <<'EOF'\nhttps://a.com/x\nEOF\n)"`,
      `git clone "$(python3 - <<'EOF'\nprint('https://a.com/x')\nEOF\n)"`,
      `git -c "$(cat <<'EOF'\nhttps://a.com/x\nEOF\n)" commit -m "$(cat <<'EOF'\nTitle\nEOF\n)"`,
    ]) {
      assert.ok(targets(command).includes('host:a.com'), JSON.stringify(command));
    }
  });

  test('P12: a URL outside the message counts; an unterminated one, and an operator inside quotes, are read as 0.5.2 reads them', () => {
    assert.ok(targets(`${commit('https://a.com/x')} && curl https://c.com/z`).includes('net:c.com/z'), 'the curl after the message is a target');
    assert.ok(targets(`git commit -m "$(cat <<'EOF'\nhttps://a.com/x\n`).includes('net:a.com/x'), 'an unterminated body is read as written');
    assert.ok(targets(`git commit -m "$(cat "a <<EOF b")"\nhttps://a.com/x\nEOF`).includes('net:a.com/x'), 'an operator in quotes is no operator');
    assert.ok(targets(`git commit -m '$(cat <<EOF x'\nhttps://a.com/x\nEOF`).includes('net:a.com/x'), 'in single quotes $( opens nothing');
  });

  test('P12: twelve different commit messages naming one issue are never asked about; 0.5.2 asked at the net: cap of 12', async () => {
    const run = async (host: FakeHost): Promise<number[]> => {
      const agent = {};
      const asked: number[] = [];
      for (let i = 1; i <= 14; i += 1) {
        const outcome = await host.call({ agent, ...bash(commit(`Step ${i} of the fix\n\nSee https://github.com/o/r/issues/7`)), answer: 'decline' });
        if (outcome.asked === true || outcome.denied) asked.push(i);
      }
      return asked;
    };
    assert.deepEqual(await run(newHost()), []);
    assert.equal((await run(new FakeHost(await loadReference())))[0], defaultCap('net'));
  });
});

describe('P11: unknown keys fail loud', () => {
  const refused = (config: unknown, ...parts: string[]): void => {
    assert.throws(() => resolveConfig(config), (error: Error) => parts.every((part) => error.message.includes(part)), parts.join(' '));
  };

  test('P11: a misspelt top-level key fails the load, naming it, its value and the nearest setting (0.5.2 ignored it)', () => {
    refused({ onlimit: 'deny' }, '`onlimit` is not a setting', '"deny"', 'Did you mean `onLimit`?');
    refused({ warn_at: 5 }, '`warn_at`', 'Did you mean `warnAt`?');
  });

  test('P11: a key with no near setting is refused without a guess', () => {
    assert.throws(() => resolveConfig({ someFutureKey: { nested: true } }), (error: Error) => error.message.includes('`someFutureKey` is not a setting') && !error.message.includes('Did you mean'));
  });

  test('P11: pathAliases stays accepted and ignored, as documented', () => {
    assert.equal(resolveConfig({ pathAliases: { '/a': '/b' } }).window, DEFAULTS.window);
  });

  test('P11: inside sequence, duplicateText and the new tracks, an unknown key is refused with the nearest one', () => {
    refused({ sequence: { lenght: 3 } }, '`sequence.lenght` is not a setting', 'did you mean `sequence.length`?');
    refused({ duplicateText: { treshold: 3 } }, '`duplicateText.treshold`', 'did you mean `duplicateText.threshold`?');
    refused({ stale: { limt: 3 } }, '`stale.limt`', 'did you mean `stale.limit`?');
  });

  test('P11: limits keys stay free, but a key that names no measure is refused', () => {
    assert.equal(resolveConfig({ limits: { 'host:api.example.com': 3, 'verb:make': 4, act: 9 } }).limits['verb:make'], 4);
    refused({ limits: { exat: 3 } }, '`limits.exat` names no measure', 'did you mean `exact`?');
    refused({ limits: { 'vreb:curl': 3 } }, '`limits.vreb:curl`', 'did you mean `verb:curl`?');
  });
});

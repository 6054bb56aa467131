/**
 * The operator's terminal (issue 39, "Headless"): one line when the gate
 * closes on a loop and one per advisory, on stderr, prefixed with the plugin's
 * name, bounded and quoted (P15); at the end of a turn that gated, one summary
 * (src/lib/text/terminal.ts, src/lib/plugin/terminal.ts). And how an ask was
 * answered, read from DSH's approval records (src/lib/plugin/approvals.ts).
 *
 * Every host here hands the plugin a sink through `createApply`, so nothing
 * reaches the test run's own stderr.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApply } from '../../src/index.js';
import { createBreaker, type GateEvent } from '../../src/lib/breaker/breaker.js';
import { resolveConfig } from '../../src/lib/config/config.js';
import { createApprovals } from '../../src/lib/plugin/approvals.js';
import { answeredLine, summaryLine, terminalLine, TERMINAL_CHARS } from '../../src/lib/text/terminal.js';
import { FakeHost, type Answer } from '../support/fake-host.js';
import { bash, repeat } from '../support/session.js';

const ECHO = 'exact \u201cbash:{"command":"echo hi"}\u201d';
const CMD = 'cmd \u201cecho:echo hi\u201d';
const PREFIX = 'repeat-tool-breaker: ';

/** A fake host whose plugin writes its terminal lines into `lines`; `get` stands for cordis' `ctx.get`. */
function terminalHost(config: unknown, get?: (name: string) => unknown) {
  const lines: string[] = [];
  const apply = createApply({ now: () => 0, terminal: (line) => lines.push(line) });
  const host = new FakeHost({ apply: get === undefined ? apply : (ctx, cfg) => apply({ ...ctx, get } as never, cfg) }, config);
  return { host, lines, agent: { session: {} } };
}

/** `n` identical `echo hi` calls in turn `turn`, answered `answer` when asked, between the turn's records. */
async function loopTurn(setup: ReturnType<typeof terminalHost>, n: number, answer: Answer = 'none', turn = 1, ending = 'completed') {
  const { host, agent } = setup;
  host.startTurn(agent, turn);
  const outcomes = await repeat(host, agent, n, { ...bash('echo hi'), answer });
  host.endTurn(agent, turn, ending);
  return outcomes;
}

/** Every quotation of a line (P15's “ ” marks). */
function quotedParts(line: string): string[] {
  return [...line.matchAll(/\u201c([^\u201d]*)\u201d/g)].map((match) => match[1] as string);
}

describe('the terminal’s lines', () => {
  test('a line starts with the plugin’s name, stays one line, and is cut at 400 characters', () => {
    assert.equal(terminalLine('gate, denied: bash'), `${PREFIX}gate, denied: bash`);
    assert.equal(terminalLine('one\ntwo\r\nthree'), `${PREFIX}one two three`);
    const long = terminalLine('x'.repeat(1000));
    assert.equal(long.length, TERMINAL_CHARS);
    assert.ok(long.endsWith('x\u2026'), `cut with an ellipsis: ${long.slice(-5)}`);
  });

  test('an answered ask says how it ended: allowed once, rejected, no operator could answer, withdrawn, or not approved', () => {
    const hits = [{ quote: 'exact:bash:{}', count: 12, cap: 12 }];
    assert.equal(answeredLine('approved', 'bash', hits), 'gate, asked the operator, allowed once: bash, exact \u201cbash:{}\u201d 12/12');
    assert.equal(answeredLine('rejected', 'bash', hits), 'gate, asked the operator, rejected: bash, exact \u201cbash:{}\u201d 12/12');
    assert.equal(answeredLine('unattended', 'bash', hits), 'gate, asked, no operator could answer: bash, exact \u201cbash:{}\u201d 12/12');
    assert.equal(answeredLine('cancelled', 'bash', hits), 'gate, asked the operator, the ask was withdrawn: bash, exact \u201cbash:{}\u201d 12/12');
    assert.equal(answeredLine(undefined, 'bash', hits), 'gate, asked the operator, not approved: bash, exact \u201cbash:{}\u201d 12/12');
  });

  test('the summary counts loops, refused calls and the loops’ calls that ran, and says how the turn ended in the host’s terms', () => {
    assert.equal(summaryLine(3, 'completed', { loops: 1, refused: 9, ran: 11 }), 'turn 3 ended: 1 loop gated, 9 calls refused; the loop ran 11 calls');
    assert.equal(summaryLine(1, 'blocked', { loops: 2, refused: 1, ran: 1 }), 'turn 1 was ended by a plugin before its next step: 2 loops gated, 1 call refused; the loops ran 1 call');
    assert.equal(summaryLine(2, 'aborted', { loops: 1, refused: 0, ran: 3 }), 'turn 2 was stopped: 1 loop gated, 0 calls refused; the loop ran 3 calls');
    assert.equal(summaryLine(2, 'error', { loops: 1, refused: 1, ran: 3 }).slice(0, 25), 'turn 2 ended in an error:');
    assert.equal(summaryLine(undefined, 'constructor', { loops: 1, refused: 1, ran: 1 }), 'the turn ended: 1 loop gated, 1 call refused; the loop ran 1 call', 'a kind it does not know is not quoted');
    assert.equal(summaryLine(5, 'completed', { loops: 1, refused: 4, ran: 3, atLeast: true }), 'turn 5 ended: 1 loop gated, 4 calls refused; the loop ran at least 3 calls');
  });
});

describe('what the terminal shows in a turn', () => {
  test('onLimit: deny, 20 identical calls: the two advisories, one line when the gate closes, none for the 8 refused after it, and the summary', async () => {
    const setup = terminalHost({ onLimit: 'deny' });
    await loopTurn(setup, 20);
    assert.deepEqual(setup.lines, [
      `${PREFIX}advisory: ${CMD} \u00d7 7`,
      `${PREFIX}advisory: ${CMD} \u00d7 11`,
      `${PREFIX}gate, denied: bash, repeat: ${ECHO} 12/12, ${CMD} 12/12`,
      `${PREFIX}turn 1 ended: 1 loop gated, 9 calls refused; the loop ran 11 calls`,
    ]);
    // The host's logger keeps the full record: every refused call has its line there.
    assert.equal(setup.host.logged.filter((line) => line.startsWith('gate, denied')).length, 9);
  });

  test('onLimit: ask with no operator to answer (DSH’s unavailable): the line says no operator could answer, not that one refused', async () => {
    const setup = terminalHost({});
    const outcomes = await loopTurn(setup, 14, 'none');
    assert.equal(outcomes.filter((o) => o.denied).length, 3);
    assert.deepEqual(setup.lines.slice(2), [
      `${PREFIX}gate, asked, no operator could answer: bash, repeat: ${ECHO} 12/12, ${CMD} 12/12`,
      `${PREFIX}turn 1 ended: 1 loop gated, 3 calls refused; the loop ran 11 calls`,
    ]);
    assert.doesNotMatch(setup.lines.join('\n'), /rejected/);
  });

  test('an operator’s Reject reads rejected', async () => {
    const setup = terminalHost({});
    await loopTurn(setup, 13, 'decline');
    assert.equal(setup.lines[2], `${PREFIX}gate, asked the operator, rejected: bash, repeat: ${ECHO} 12/12, ${CMD} 12/12`);
  });

  test('Allow once: the line says so, nothing is refused, and every call of the loop counts as its cost', async () => {
    const setup = terminalHost({});
    await loopTurn(setup, 20, 'approve');
    assert.deepEqual(setup.lines.slice(2), [
      `${PREFIX}gate, asked the operator, allowed once: bash, repeat: ${ECHO} 12/12, ${CMD} 12/12`,
      `${PREFIX}turn 1 ended: 1 loop gated, 0 calls refused; the loop ran 20 calls`,
    ]);
  });

  test('an approval used up (exemption ceiling) closes the gate again: a line for it, no line for the calls refused after it', async () => {
    const setup = terminalHost({ exemptionCeiling: 2 });
    await loopTurn(setup, 20, 'approve');
    assert.deepEqual(setup.lines.slice(3), [
      `${PREFIX}gate, denied at the exemption ceiling: bash, ${ECHO}; ${CMD}`,
      `${PREFIX}turn 1 ended: 1 loop gated, 6 calls refused; the loop ran 14 calls`,
    ]);
  });

  test('under the approval policy never (approval prompts off), a rejected ask is no operator’s answer', async () => {
    for (const service of [{ config: { policy: 'never' } }, { config: { policy: 'ask' }, overrideOf: () => 'never' }]) {
      const setup = terminalHost({}, (name) => (name === 'approval' ? service : undefined));
      await loopTurn(setup, 13, 'decline');
      assert.equal(setup.lines[2], `${PREFIX}gate, asked, no operator could answer: bash, repeat: ${ECHO} 12/12, ${CMD} 12/12`);
    }
    const asking = terminalHost({}, (name) => (name === 'approval' ? { config: { policy: 'never' }, overrideOf: () => 'ask' } : undefined));
    await loopTurn(asking, 13, 'decline');
    assert.match(asking.lines[2] ?? '', /asked the operator, rejected/, 'the session’s own policy wins over the default');
  });

  test('two loops in one turn: a line for each, and the summary counts both and what each ran', async () => {
    const setup = terminalHost({ onLimit: 'deny', warnAt: null, summarizeAt: null, limits: { exact: 3, cmd: 3 } });
    const { host, agent } = setup;
    host.startTurn(agent, 4);
    await repeat(host, agent, 4, bash('echo a'));
    await repeat(host, agent, 5, bash('echo b'));
    host.endTurn(agent, 4);
    assert.equal(setup.lines.length, 3);
    assert.match(setup.lines[0] ?? '', /^repeat-tool-breaker: gate, denied: bash, repeat: exact \u201cbash:\{"command":"echo a"\}\u201d 3\/3/);
    assert.match(setup.lines[1] ?? '', /^repeat-tool-breaker: gate, denied: bash, repeat: exact \u201cbash:\{"command":"echo b"\}\u201d 3\/3/);
    // Cap 3: two of each ran; `echo a` had 2 refused, `echo b` 3.
    assert.equal(setup.lines[2], `${PREFIX}turn 4 ended: 2 loops gated, 5 calls refused; the loops ran 4 calls`);
  });

  test('a cycle is gated under a key of its own: its line names the cycle, and its cost counts the stopped call’s runs', async () => {
    const setup = terminalHost({ onLimit: 'deny', sequence: { length: 2, count: 2, limit: 3 } });
    const { host, agent } = setup;
    host.startTurn(agent, 1);
    for (let i = 0; i < 5; i += 1) {
      await host.call({ agent, ...bash('ls') });
      await host.call({ agent, ...bash('pwd') });
    }
    host.endTurn(agent, 1);
    // Three rounds of ls → pwd ran (6 calls); the cycle's own key counts the stopped call, ls: at least 3.
    assert.deepEqual(setup.lines, [
      `${PREFIX}advisory: sequence \u201cls \u2192 pwd\u201d \u00d7 2`,
      `${PREFIX}gate, denied: bash, sequence: \u201cls \u2192 pwd\u201d 3/3`,
      `${PREFIX}turn 1 ended: 1 loop gated, 4 calls refused; the loop ran at least 3 calls`,
    ]);
  });

  test('each turn has its own summary, after a human message too; a turn that gated nothing has none; a blocked turn says so', async () => {
    const setup = terminalHost({ onLimit: 'deny' });
    await loopTurn(setup, 13, 'none', 1);
    await setup.host.human(setup.agent);
    await loopTurn(setup, 3, 'none', 2);
    await setup.host.human(setup.agent);
    await loopTurn(setup, 13, 'none', 3, 'blocked');
    const summaries = setup.lines.filter((line) => line.includes(' turn '));
    assert.deepEqual(summaries, [
      `${PREFIX}turn 1 ended: 1 loop gated, 2 calls refused; the loop ran 11 calls`,
      `${PREFIX}turn 3 was ended by a plugin before its next step: 1 loop gated, 2 calls refused; the loop ran 11 calls`,
    ]);
  });

  test('a call outside a turn DSH reported writes nothing: no session, or no turn/start (the fake hosts, the replay tools)', async () => {
    const setup = terminalHost({ onLimit: 'deny' });
    await repeat(setup.host, {}, 14, bash('echo hi'));
    await repeat(setup.host, { session: {} }, 14, bash('echo hi'));
    assert.deepEqual(setup.lines, []);
    assert.equal(setup.host.logged.length, 10, 'the logger has them all');
  });

  test('a sink that throws changes no decision and no text the model reads', async () => {
    const calm = terminalHost({});
    const broken = (() => {
      const apply = createApply({ now: () => 0, terminal: () => {
        throw new Error('stderr closed');
      } });
      return { host: new FakeHost({ apply }, {}), lines: [] as string[], agent: { session: {} } };
    })();
    const seen = (outcomes: Awaited<ReturnType<typeof loopTurn>>) => outcomes.map((o) => [o.asked, o.denied, o.result.content, o.notices.length]);
    assert.deepEqual(seen(await loopTurn(broken, 15, 'none')), seen(await loopTurn(calm, 15, 'none')));
    assert.equal(calm.lines.length, 4, 'the calm host wrote');
  });

  test('a huge command with newlines and escape sequences: every line is one line of at most 400 characters, its quotations at most 60', async () => {
    const setup = terminalHost({ onLimit: 'deny' });
    const { host, agent } = setup;
    host.startTurn(agent, 1);
    await repeat(host, agent, 13, bash(`echo ${'\u001b[2J\n%s%d'.repeat(5000)}`));
    host.endTurn(agent, 1);
    assert.equal(setup.lines.length, 4);
    for (const line of setup.lines) {
      assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/, 'one plain line');
      assert.ok(line.length <= TERMINAL_CHARS, `bounded: ${line.length}`);
      for (const part of quotedParts(line)) assert.ok(Array.from(part).length <= 61, part);
    }
  });
});

describe('how an ask was answered, from DSH’s approval records', () => {
  const session = {};
  const agent = { session };
  const asked = (id: string, callId: string) => ({ type: 'approval/asked', data: { id, toolName: 'bash', callId, reason: 'why' } });
  const decided = (id: string, outcome: string) => ({ type: 'approval/decided', data: { id, outcome } });

  test('each outcome, paired with its call by the ask’s id; read once', () => {
    const approvals = createApprovals(() => ({ config: { policy: 'ask' } }));
    const cases: [string, string | undefined][] = [['rejected', 'rejected'], ['unavailable', 'unattended'], ['cancelled', 'cancelled'], ['allowed-once', undefined], ['bogus', undefined]];
    cases.forEach(([outcome], at) => {
      approvals.record(session, asked(`a${at}`, `call-${at}`));
      approvals.record(session, decided(`a${at}`, outcome));
    });
    assert.deepEqual(cases.map((_, at) => approvals.outcomeOf(agent, `call-${at}`)), cases.map(([, want]) => want));
    assert.equal(approvals.outcomeOf(agent, 'call-0'), undefined, 'an answer is read once');
    assert.equal(approvals.outcomeOf({ session: {} }, 'call-1'), undefined, 'another session’s call');
  });

  test('where the host has no approval service, DSH denies the ask itself: no one was asked; where it cannot be asked, nothing is known', () => {
    assert.equal(createApprovals(() => undefined).outcomeOf(agent, 'call-9'), 'unattended');
    assert.equal(createApprovals(undefined).outcomeOf(agent, 'call-9'), undefined);
    assert.equal(createApprovals(() => ({})).outcomeOf(agent, 'call-9'), undefined);
  });

  test('records that are not approvals, or malformed ones, are ignored and never throw', () => {
    const approvals = createApprovals(() => ({}));
    for (const event of [null, 1, {}, { type: 'approval/decided' }, { type: 'approval/asked', data: { id: 3 } }, decided('nobody', 'rejected'), { type: 'turn/end', data: {} }]) {
      assert.doesNotThrow(() => approvals.record(session, event));
      assert.doesNotThrow(() => approvals.record(null, event));
    }
    const hostile = new Proxy({}, { get: () => { throw new Error('trap'); } });
    assert.doesNotThrow(() => approvals.record(session, hostile));
    assert.doesNotThrow(() => approvals.outcomeOf(hostile, 'x'));
  });

  test('the breaker hands the outcome to its gate hook with the refusal, and a hook that throws changes nothing', () => {
    const events: GateEvent[] = [];
    const breaker = createBreaker(resolveConfig({ limits: { exact: 2 } }), () => 'en', { gate: (event) => events.push(event), outcomeOf: (_agent, callId) => (callId === 'c2' ? 'unattended' : undefined) });
    const who = {};
    const call = (callId: string) => ({ callId, name: 'bash', arguments: { command: 'ls' }, agent: who });
    const first = call('c1');
    assert.equal(breaker.ask(first), undefined);
    assert.equal(breaker.guard(first), undefined);
    breaker.settle(first, { content: [{ type: 'text', text: 'a' }] });
    const second = call('c2');
    assert.equal(breaker.ask(second)?.kind, 'ask');
    breaker.settle(second, { isError: true, content: [{ type: 'text', text: 'Error: no approval channel' }] });
    assert.deepEqual(events.map((event) => [event.outcome, event.answer]), [['asked', undefined], ['refused', 'unattended']]);
    assert.match(breaker.explain(second) ?? '', /^REPEAT_TOOL_BLOCKED: bash call not run/);

    const throwing = createBreaker(resolveConfig({ limits: { exact: 2 } }), () => 'en', {
      gate: () => {
        throw new Error('down');
      },
      passed: () => {
        throw new Error('down');
      },
      outcomeOf: () => {
        throw new Error('down');
      },
    });
    const calm = createBreaker(resolveConfig({ limits: { exact: 2 } }));
    for (const b of [throwing, calm]) {
      const a = call('x1');
      b.guard(a);
      b.settle(a, { content: [] });
      b.ask(call('x2'));
    }
    const last = (b: typeof calm) => {
      const c = call('x3');
      return [b.ask(c), b.guard(c)];
    };
    assert.deepEqual(last(throwing), last(calm));
  });
});

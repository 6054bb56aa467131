/**
 * The stop (`stopAfter`, issue 41): once the gate has refused a loop's calls
 * `stopAfter` times in a turn, the agent's next model step is rejected and
 * rc.8 ends the turn "blocked" (docs/operator.md). Never a step that claims a
 * message; said to the operator's terminal and, through a notice appended to
 * the session, to the web UI and the model (src/lib/plugin/stop.ts,
 * src/lib/text/stop.ts); off by default.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApply } from '../../src/index.js';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { configText, refusalOf } from '../../src/lib/config/messages.js';
import { settingsTree } from '../../src/lib/config/schema.js';
import { stricterConfig } from '../../src/lib/policy/strictness.js';
import { stopLine } from '../../src/lib/text/terminal.js';
import { STOP_TOKEN, stopSummary, stopText } from '../../src/lib/text/stop.js';
import { FakeHost, type Answer } from '../support/fake-host.js';
import { bash, defaultCap } from '../support/session.js';

const cap = defaultCap('exact');
const PREFIX = 'repeat-tool-breaker: ';
const X = bash('cat /etc/hosts');

interface Appended {
  readonly kind: unknown;
  readonly message: { source: { kind: string; plugin: string; summary: string }; content: { text: string }[] };
  readonly options: unknown;
}

/** A host whose plugin writes its terminal lines into `lines`, with an agent whose session takes appended records. */
function stopHost(config: unknown, session: Record<string, unknown> = {}) {
  const lines: string[] = [];
  const appended: Appended[] = [];
  const apply = createApply({ now: () => 0, terminal: (line) => lines.push(line) });
  const host = new FakeHost({ apply }, config);
  const agent = { session: { append: (kind: unknown, message: Appended['message'], options: unknown) => appended.push({ kind, message, options }), ...session } };
  return { host, lines, appended, agent };
}

/** Each call as a model step: the step first (no message), then the call; stops at the first step rejected. Returns the calls made and the step rejected (1-based call it came before). */
async function stepping(setup: ReturnType<typeof stopHost>, n: number, answer: Answer = 'none') {
  const { host, agent } = setup;
  const outcomes = [];
  for (let at = 1; at <= n; at += 1) {
    const decision = await host.step(agent, []);
    if (decision.kind === 'reject') return { outcomes, rejectedAt: at };
    outcomes.push(await host.call({ agent, ...X, answer }));
  }
  return { outcomes, rejectedAt: undefined };
}

describe('the setting', () => {
  test('off (null) by default, the defaults staying 0.5.2’s; a whole number of 1 or more, or null', () => {
    assert.equal(DEFAULTS.stopAfter, null);
    for (const good of [1, 3, 40, null]) assert.equal(resolveConfig({ stopAfter: good }).stopAfter, good);
    for (const bad of [0, -1, 2.5, '3', true, Number.POSITIVE_INFINITY]) {
      assert.throws(() => resolveConfig({ stopAfter: bad }), /`stopAfter` must be an integer >= 1 .*; it is how many refused calls of one loop end the turn; null turns the stop off/, String(bad));
    }
  });

  test('its refusal in Chinese, and its node in the live schema', () => {
    let error: unknown;
    try {
      resolveConfig({ stopAfter: 0 });
    } catch (thrown) {
      error = thrown;
    }
    const refusal = refusalOf(error);
    assert.ok(refusal !== undefined, 'a refusal as data');
    assert.match(configText(refusal, 'zh'), /`stopAfter` 必须是不小于 1 的整数（实际为 0）；它表示同一个循环的调用被拒绝多少次后结束本回合/);
    const node = (settingsTree() as { dict?: Record<string, { meta?: { default?: unknown; description?: string } }> }).dict?.stopAfter;
    assert.equal(node?.meta?.default, null);
    assert.match(node?.meta?.description ?? '', /Refused calls of one loop in a turn after which the turn ends/);
  });

  test('a live change: the sooner stop is the stricter, on beats off', () => {
    const off = resolveConfig({});
    assert.equal(stricterConfig(off, resolveConfig({ stopAfter: 4 })).stopAfter, 4);
    assert.equal(stricterConfig(resolveConfig({ stopAfter: 4 }), off).stopAfter, 4);
    assert.equal(stricterConfig(resolveConfig({ stopAfter: 4 }), resolveConfig({ stopAfter: 2 })).stopAfter, 2);
  });
});

describe('the stop', () => {
  test('stopAfter: 3, onLimit: deny: three calls of the loop refused, and the step after the third is rejected', async () => {
    const setup = stopHost({ onLimit: 'deny', stopAfter: 3 });
    const { outcomes, rejectedAt } = await stepping(setup, 30);
    assert.equal(rejectedAt, cap + 3, `the calls ${cap}, ${cap + 1}, ${cap + 2} are refused, the step before call ${cap + 3} rejected`);
    assert.deepEqual(outcomes.map((outcome) => outcome.denied).lastIndexOf(false), cap - 2);
    assert.match(outcomes[cap + 1]?.denyReason ?? '', /\nThe loop breaker ends this turn now, this loop blocked 3 times; the operator is told why\.$/);
  });

  test('onLimit: ask, nobody to answer: the unanswered ask is the first refusal', async () => {
    const setup = stopHost({ stopAfter: 2 });
    const { outcomes, rejectedAt } = await stepping(setup, 30);
    assert.equal(outcomes[cap - 1]?.asked, true);
    assert.equal(rejectedAt, cap + 2);
  });

  test('off, the breaker never rejects a step, however long the loop', async () => {
    const { rejectedAt, outcomes } = await stepping(stopHost({ onLimit: 'deny' }), 60);
    assert.equal(rejectedAt, undefined);
    assert.equal(outcomes.filter((outcome) => outcome.denied).length, 60 - cap + 1);
  });

  test('never a step that claims a message: a human message resets the loop; any other message defers the stop to the next step that claims none', async () => {
    const setup = stopHost({ onLimit: 'deny', stopAfter: 1 });
    const { host, agent } = setup;
    for (let at = 0; at < cap; at += 1) await host.call({ agent, ...X });
    const notice = { role: 'user', content: [{ type: 'text', text: 'a notice' }], source: { kind: 'plugin', plugin: 'another', summary: 'x' } };
    assert.equal((await host.step(agent, [notice])).kind, 'enter', 'a plugin’s notice would be lost: the step goes on');
    assert.equal((await host.step(agent, [])).kind, 'reject', 'the next step that claims none is rejected');
    assert.equal((await host.step(agent, [])).kind, 'enter', 'once: the stop is taken');
    await host.call({ agent, ...X });
    const human = { role: 'user', content: [{ type: 'text', text: 'go on' }], source: { kind: 'user' } };
    assert.equal((await host.step(agent, [human])).kind, 'enter', 'a human message is never rejected');
    assert.equal((await host.step(agent, [])).kind, 'enter', 'and it reset the loop');
    const after = [];
    for (let at = 0; at < cap; at += 1) after.push(await host.call({ agent, ...X }));
    assert.equal(after.filter((outcome) => outcome.denied).length, 1, 'the count starts again');
    assert.equal((await host.step(agent, [])).kind, 'reject');
  });

  test('a loop knocked again in a turn opened without a human message ends that turn too', async () => {
    const setup = stopHost({ onLimit: 'deny', stopAfter: 2 });
    const { host, agent } = setup;
    for (let at = 0; at < cap + 1; at += 1) await host.call({ agent, ...X });
    assert.equal((await host.step(agent, [])).kind, 'reject');
    await host.call({ agent, ...X });
    assert.equal((await host.step(agent, [])).kind, 'reject');
  });

  test('an unreadable step never rejects and never throws', async () => {
    const setup = stopHost({ onLimit: 'deny', stopAfter: 1 });
    const { host, agent } = setup;
    for (let at = 0; at < cap; at += 1) await host.call({ agent, ...X });
    const hostile = new Proxy({}, { get: () => { throw new Error('no'); } });
    const payloads: [string, unknown][] = [['null', null], ['undefined', undefined], ['a string', 'step'], ['messages not a list', { agent, messages: 'none' }], ['throwing messages', { agent, messages: hostile }], ['a throwing payload', hostile]];
    const listener = (host as unknown as { listeners: Map<string, ((payload: unknown, next: () => unknown) => unknown)[]> }).listeners.get('agent/pre-step')?.[0];
    assert.ok(listener !== undefined, 'the plugin listens to agent/pre-step');
    for (const [what, payload] of payloads) {
      const decision = await listener(payload, () => ({ kind: 'enter', messages: [] }));
      assert.deepEqual(decision, { kind: 'enter', messages: [] }, what);
    }
    assert.equal((await host.step(agent, [])).kind, 'reject', 'the stop still waits for the agent’s next readable step');
  });
});

describe('saying why, where each person is', () => {
  test('the session gets a notice before the step is rejected: the web UI’s row, and what the model reads next turn', async () => {
    const setup = stopHost({ onLimit: 'deny', stopAfter: 3 });
    await stepping(setup, 30);
    assert.equal(setup.appended.length, 1);
    const [{ kind, message, options }] = setup.appended as [Appended];
    assert.equal(kind, 'user/message');
    assert.deepEqual(options, { surfaceOp: 'append' });
    assert.deepEqual([message.source.kind, message.source.plugin], ['plugin', 'repeat-tool-breaker']);
    assert.equal(message.source.summary, 'turn ended after 3 refused calls: cmd \u201ccat:cat /etc/hosts\u201d');
    assert.match(message.content[0]?.text ?? '', new RegExp(`^${STOP_TOKEN}: the loop breaker ended the previous turn before its next step\\. The gate had blocked 3 calls of one loop`));
    assert.match(message.content[0]?.text ?? '', /\nWhen the work goes on: do not make that call again\./);
  });

  test('a session that throws, or none at all: the turn still ends, and nothing reaches the host', async () => {
    const throwing = stopHost({ onLimit: 'deny', stopAfter: 1 }, { append: () => { throw new Error('closed'); } });
    assert.equal((await stepping(throwing, 30)).rejectedAt, cap + 1);
    const lines: string[] = [];
    const host = new FakeHost({ apply: createApply({ now: () => 0, terminal: (line) => lines.push(line) }) }, { onLimit: 'deny', stopAfter: 1 });
    const agent = {};
    for (let at = 0; at < cap; at += 1) await host.call({ agent, ...X });
    assert.equal((await host.step(agent, [])).kind, 'reject');
    assert.deepEqual(lines, [], 'no turn reported, no line');
  });

  test('the terminal: the stopped turn’s end says who ended it, after how many refusals, and the loop’s cost, in place of its summary', async () => {
    const setup = stopHost({ onLimit: 'deny', stopAfter: 3 });
    setup.host.startTurn(setup.agent, 1);
    await stepping(setup, 30);
    setup.host.endTurn(setup.agent, 1, 'blocked');
    assert.deepEqual(setup.lines.slice(-1), [
      `${PREFIX}turn 1 stopped by the loop breaker after 3 refused calls of one loop (stopAfter: 3): \u201cbash\u201d, cmd \u201ccat:cat /etc/hosts\u201d; 1 loop gated, 3 calls refused; the loop ran ${cap - 1} calls`,
    ]);
    assert.equal(setup.lines.filter((line) => line.includes('turn 1')).length, 1, 'one line for the turn');
    setup.host.startTurn(setup.agent, 2);
    setup.host.endTurn(setup.agent, 2, 'completed');
    assert.equal(setup.lines.filter((line) => line.includes('turn 2')).length, 0, 'a turn that gated nothing says nothing');
  });

  test('every text is bounded and quotes the model’s text (P15), whatever the call held', () => {
    const facts = { name: 'bash\nrm -rf /', hit: { quote: `exact:bash:{"command":"${'x'.repeat(9000)}\u202e"}` }, knocks: 12345, stopAfter: 12345 };
    assert.ok(stopSummary(facts).length <= 120, stopSummary(facts));
    assert.ok(stopText(facts).length < 800, String(stopText(facts).length));
    const line = stopLine(7, facts, { loops: 2, refused: 12345, ran: 99 });
    assert.ok(line.length < 400 && !line.includes('\n') && line.includes('\u201cbash\\nrm -rf /\u201d'), line);
    assert.ok(!stopText(facts).includes('x'.repeat(61)), 'the command is cut');
  });
});

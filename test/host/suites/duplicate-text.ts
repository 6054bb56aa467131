/**
 * In-process suite for the duplicated-context track (opt-in): the genuine
 * `ToolRuntime` (`@deepseek-ai/dsh-tools`), the genuine `agent/pre-step`
 * dispatcher (`agentEvents` from `@deepseek-ai/dsh-agent`), genuine messages
 * (`createUserMessage` from `@deepseek-ai/dsh-llm`), and the plugin from the
 * packed build mounted through its own `createApply` on a fake clock.
 *
 * The step boundary is played as `@deepseek-ai/dsh-agent-loop` 0.1.0-rc.8
 * plays it: a tool result's `additionalContexts` are staged in the next-step
 * inbox, claimed at the next `agent/pre-step`, and the waterfall's default
 * decision enters the claimed messages (`AgentLoop.preStep`); each message of
 * the decision is then appended to the session as a `user/message`.
 *
 * Run by `test/host/run.ts` under Node 22: `node --import tsx --test`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';

import { CONTEXT_ECHO, NOTES } from '../lib/context-echo.js';
import { hostImport, importPlugin, pluginUnderTest } from '../lib/env.js';
import { ours, rig } from '../lib/rig.js';

const plugin = pluginUnderTest();
const skip = plugin.label === 'reference' ? 'the reference 0.5.2 has no duplicated-context track' : undefined;
let createUserMessage: any;
let createApply: any;
let pluginName: string;

before(async () => {
  if (skip !== undefined) return;
  ({ createUserMessage } = await hostImport('@deepseek-ai/dsh-llm'));
  // The packed build's own wiring, so that the clock can be a fake one.
  ({ createApply } = await import(pathToFileURL(join(plugin.dir, 'dist', 'index.js')).href));
  pluginName = (await importPlugin(plugin)).name;
});

interface Step {
  claimed: any[];
  entered: any[];
}

/** The shared rig (../lib/rig.ts) with the plugin on a fake clock, a context echo, and the next-step inbox. */
async function echoRig(config: Record<string, unknown>) {
  let clock = 1_000_000;
  const r = await rig({
    config,
    plugin: { name: pluginName, inject: ['tools'], apply: createApply({ now: () => clock }) },
    // Another plugin re-attaching the same large context to every tool result (../lib/context-echo.ts).
    setup: (ctx: any) =>
      ctx.on('tools/post-execute', async (_exec: unknown, _result: unknown, next: () => Promise<any>) => {
        const downstream = await next();
        const notes = createUserMessage({ content: [{ type: 'text', text: NOTES }], source: { kind: 'plugin', plugin: CONTEXT_ECHO } });
        return { ...downstream, additionalContexts: [...(downstream.additionalContexts ?? []), notes] };
      }),
  });
  let inbox: any[] = [];
  return {
    runs: () => r.total(),
    advance(ms: number) {
      clock += ms;
    },
    /** One tool call; its result contexts go to the next-step inbox. */
    async call(command: string): Promise<void> {
      inbox.push(...(await r.call(command)).contexts);
    },
    /** Claim the inbox (plus `extra`) at the step boundary through the genuine waterfall. */
    async preStep(extra: any[] = []): Promise<Step> {
      const claimed = [...inbox, ...extra];
      inbox = [];
      const decision = await r.preStep(claimed, { turn: 1, step: r.seq() + 1 });
      assert.equal(decision.kind, 'enter');
      assert.deepEqual(decision.messages.slice(0, claimed.length), claimed, 'the claimed messages enter unchanged, in order');
      claimed.forEach((message, at) => assert.equal(decision.messages[at], message, 'the very same message objects'));
      return { claimed, entered: decision.messages.slice(claimed.length) };
    },
  };
}

describe(`DSH 0.1.0-rc.8 agent/pre-step, in process — duplicated-context track — plugin: ${plugin.label}`, { skip }, () => {
  test('a plugin re-attaching the same 3 KB context to four tool results: one notice, at the third claim, naming the source', async () => {
    const r = await echoRig({ duplicateText: {} });
    const added: any[][] = [];
    for (const command of ['grep -rn TODO src', 'curl -s http://127.0.0.1:9/health', 'cat README.md', 'ls -la']) {
      await r.call(command);
      r.advance(5_000);
      added.push((await r.preStep()).entered);
    }
    assert.equal(r.runs(), 4, 'every call ran: the track never gates');
    assert.deepEqual(
      added.map((a) => a.length),
      [0, 0, 1, 0],
      'one notice, then silence for the cooldown',
    );
    const notice = added[2]![0];
    assert.equal(ours([notice]).length, 1);
    assert.equal(notice.role, 'user');
    assert.equal(notice.source.form, 'notice');
    assert.ok(notice.source.summary.length <= 120, 'the notice summary fits in 120 characters');
    const text: string = notice.content[0].text;
    assert.match(text, /^DUPLICATED_CONTEXT: /);
    assert.match(text, /3 times in 3 messages, from plugin:context-echo ×3/);
    assert.match(text, /"note 1: the staging database/);
    assert.ok(text.length < 1000 && !text.includes('note 2:'), 'a preview, never the whole text');
  });

  test('off (the default): the same four claims enter with nothing appended', async () => {
    const r = await echoRig({});
    for (let i = 0; i < 4; i += 1) {
      await r.call(`echo ${i}`);
      assert.equal((await r.preStep()).entered.length, 0);
    }
  });

  test('a replayed message id never counts; a human copy does, named as user', async () => {
    const r = await echoRig({ duplicateText: { threshold: 3 } });
    await r.call('echo one');
    const first = await r.preStep();
    const replayed = first.claimed[0];
    for (let i = 0; i < 3; i += 1) assert.equal((await r.preStep([replayed])).entered.length, 0, 'the same id again');
    const human = createUserMessage({ content: [{ type: 'text', text: NOTES }], source: { kind: 'user' } });
    assert.equal((await r.preStep([human])).entered.length, 0, 'two occurrences');
    await r.call('echo two');
    const third = await r.preStep();
    assert.equal(third.entered.length, 1);
    assert.match(third.entered[0].content[0].text, /from plugin:context-echo ×2, user ×1/);
  });

  test('the window is measured on the clock: copies 2 minutes apart never add up', async () => {
    const r = await echoRig({ duplicateText: {} });
    for (let i = 0; i < 5; i += 1) {
      await r.call(`echo ${i}`);
      assert.equal((await r.preStep()).entered.length, 0, `claim ${i + 1}`);
      r.advance(61_000);
    }
  });
});

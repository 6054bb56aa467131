/**
 * In-process pipeline suite: the genuine `ToolRuntime` from
 * `@deepseek-ai/dsh-tools` 0.1.0-rc.8 in a cordis `Context`, the genuine
 * approval service (`@deepseek-ai/dsh-user-approval`) where a scenario needs
 * one, the genuine `agent/pre-step` dispatcher (`agentEvents` from
 * `@deepseek-ai/dsh-agent`), a stub `bash` whose body counts its runs, and
 * the plugin loaded from the packed build (the rig in ../lib/rig.ts).
 *
 * Every assertion is on what the pipeline produced: how many bodies ran,
 * which results are errors, their text, and the `additionalContexts`.
 *
 * Run by `test/host/run.ts` under Node 22: `node --import tsx --test`.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { hostImport, importPlugin, knownReferenceGap, pluginUnderTest, shippedCaps, type Caps } from '../lib/env.js';
import { pooledReads, POOLED_FILE } from '../lib/pooled-reads.js';
import { ours, rig, tick, type Result, type StepCall } from '../lib/rig.js';

const plugin = pluginUnderTest();
let caps: Caps;
let breaker: any;
let Context: any;
let createUserMessage: any;

before(async () => {
  ({ Context } = await hostImport('@deepseek-ai/cordis'));
  ({ createUserMessage } = await hostImport('@deepseek-ai/dsh-llm'));
  breaker = (await importPlugin(plugin)).default;
  caps = await shippedCaps(plugin);
});

const BLOCKED = /^Error: REPEAT_TOOL_BLOCKED/;
/** The refusal said on a denial: 0.5.2's paragraph, or ours (P13, P17, P18: how the ask ended, never an operator's no where none could answer). */
const REFUSAL = /not granted|no operator is present to approve|did not approve|not approved/i;
const UNAVAILABLE = /^Error: tool "read" requires approval, but no approval channel is available$/;


describe(`DSH 0.1.0-rc.8 tool pipeline, in process — plugin: ${plugin.label} (${plugin.entry})`, () => {
  test('identical call with varying description/timeoutMs: exactly cap-1 bodies run, then denied before the body', async () => {
    const r = await rig({ config: { onLimit: 'deny' } });
    const results: Result[] = [];
    for (let i = 0; i < caps.exact + 2; i += 1) results.push(await r.call('cat /etc/hostname'));
    assert.equal(r.runs.get('cat /etc/hostname'), caps.exact - 1, 'bodies run');
    results.slice(0, caps.exact - 1).forEach((res, i) => assert.equal(res.isError, false, `call ${i + 1} ran`));
    for (const res of results.slice(caps.exact - 1)) {
      assert.match(res.text, BLOCKED, 'the host prefixes the guard reason with "Error: "');
      assert.equal(res.raw.error?.message, res.text.slice('Error: '.length), 'error.message is the bare reason');
      assert.doesNotMatch(res.text, REFUSAL, 'a plain deny carries no refusal note');
    }
    assert.match(results[caps.exact - 1]!.text, new RegExp(`${caps.exact}/${caps.exact}`));
  });

  test('host-spelling ping-pong into one output file is caught; an unrelated call still runs', async () => {
    const r = await rig({ config: { onLimit: 'deny' } });
    const a = 'curl -s https://open-data.canada.ca/x --max-time 60 -o /workspace/od.bin';
    const b = 'curl -s https://open.canada.ca/x --max-time 30 -o /workspace/od.bin';
    const cap = Math.min(caps.net, caps.sink);
    const results: Result[] = [];
    for (let i = 0; i < cap + 1; i += 1) results.push(await r.call(i % 2 === 0 ? a : b));
    assert.equal(r.total(), cap - 1, 'bodies run across both spellings');
    assert.match(results[cap - 1]!.text, BLOCKED);
    assert.match(results[cap - 1]!.text, /net:open\.canada\.ca\/x/);
    assert.match(results[cap - 1]!.text, /sink:\/workspace\/od\.bin/);
    const unrelated = await r.call('ls -la /tmp');
    assert.equal(unrelated.isError, false);
    assert.equal(r.runs.get('ls -la /tmp'), 1, 'the unrelated body ran');
  });

  test('failing target (structured exitCode): advisory at failWarnAt, denial after failLimit, recovery grep runs', async () => {
    const failing = 'make check';
    const r = await rig({ config: { onLimit: 'deny' }, behaviour: (c) => (c === failing ? { exitCode: 2 } : { exitCode: 0 }) });
    const results: Result[] = [];
    for (let i = 0; i < caps.failLimit + 1; i += 1) results.push(await r.call(failing));
    assert.equal(r.runs.get(failing), caps.failLimit, 'bodies run: failLimit');
    results.forEach((res, i) => {
      const notices = ours(res.contexts);
      if (i + 1 === caps.failWarnAt) {
        assert.equal(notices.length, 1, `one advisory on call ${i + 1}`);
        assert.match(notices[0].content[0].text, /^CONVERGENCE_CHECK:/);
        assert.match(notices[0].content[0].text, /exit/i, 'names the failure reason');
        assert.match(notices[0].content[0].text, /\b2\b/, 'and the exit status');
        assert.match(notices[0].source.summary, new RegExp(` failed x${caps.failWarnAt}$`));
        assert.equal(notices[0].role, 'user');
        assert.ok(Object.isFrozen(notices[0]), 'the notice is frozen');
      } else {
        assert.equal(notices.length, 0, `no breaker advisory on call ${i + 1}`);
      }
    });
    const denied = results[caps.failLimit]!;
    assert.equal(denied.isError, true);
    assert.match(denied.text, BLOCKED);
    assert.match(denied.text, /consecutive failures/);
    // This plugin's own denials are not failures: the denied call was not counted.
    const recovery = await r.call('grep -rn error build.log');
    assert.equal(recovery.isError, false);
    assert.equal(r.runs.get('grep -rn error build.log'), 1, 'the recovery grep ran');
  });

  test('a human message through the real agent/pre-step waterfall resets; a plugin notice does not', async () => {
    const r = await rig({ config: { onLimit: 'deny' } });
    const command = 'cat /etc/hostname';
    for (let i = 0; i < caps.exact; i += 1) await r.call(command);
    assert.equal(r.runs.get(command), caps.exact - 1);
    const notice = createUserMessage({
      content: [{ type: 'text', text: 'a plugin notice' }],
      source: { kind: 'plugin', plugin: 'someone-else' },
    });
    await r.preStep([notice]);
    assert.match((await r.call(command)).text, BLOCKED, 'a plugin-sourced message does not reset');
    const human = createUserMessage({ content: [{ type: 'text', text: 'please carry on' }], source: { kind: 'user' } });
    await r.preStep([human]);
    const afterReset = await r.call(command);
    assert.equal(afterReset.isError, false, 'the human message reset the window');
    assert.equal(r.runs.get(command), caps.exact);
  });

  test('approval allowed-once: the call runs, exactly the hit measures are exempt for the turn', async () => {
    const r = await rig({ answer: 'allowed-once' });
    const hi = 'cat /etc/hostname';
    for (let i = 0; i < caps.exact - 1; i += 1) await r.call(hi);
    assert.equal(r.asks.length, 0);
    const gated = await r.call(hi);
    assert.equal(r.asks.length, 1, 'one ask reached the answerer');
    assert.equal(gated.isError, false, 'the approved call ran');
    assert.equal(r.runs.get(hi), caps.exact);
    for (let i = 0; i < 3; i += 1) assert.equal((await r.call(hi)).isError, false, 'the exempt call keeps running');
    assert.equal(r.asks.length, 1, 'no new ask for exempt measures');
    assert.equal(r.runs.get(hi), caps.exact + 3);
    const other = 'cat /etc/os-release';
    for (let i = 0; i < caps.exact - 1; i += 1) assert.equal((await r.call(other)).isError, false);
    await r.call(other);
    assert.equal(r.asks.length, 2, 'a different command is not covered by the exemption and asks at its own cap');
    const audit = r.agent.session.events.map((e: any) => e.type);
    assert.ok(audit.includes('approval/asked') && audit.includes('approval/decided'), 'the approval service audited the ask');
  });

  for (const outcome of ['rejected', 'unavailable'] as const) {
    test(`approval ${outcome}: the host denies the gated call, later calls get REPEAT_TOOL_BLOCKED with the refusal note`, async () => {
      const r = await rig({ answer: outcome });
      const hi = 'cat /etc/hostname';
      for (let i = 0; i < caps.exact - 1; i += 1) await r.call(hi);
      const gated = await r.call(hi);
      assert.equal(r.asks.length, 1);
      assert.equal(gated.isError, true);
      const [hostLine = '', ...explanation] = gated.text.split('\n');
      assert.match(
        hostLine,
        outcome === 'rejected' ? /^Error: the user rejected tool "bash"$/ : /^Error: tool "bash" requires approval, but no approval channel is available$/,
        'the approval layer words the first line itself',
      );
      if (plugin.label === 'ours') {
        // P13: the breaker's denial follows on the rejected call's own result, through tools/post-execute.
        assert.equal(gated.raw.content.length, 1, 'one text block (the DeepSeek adapter joins blocks with nothing between them)');
        assert.match(
          explanation.join('\n'),
          // The rig's session keeps its records to itself (no session/event): the breaker is not told how the ask ended, and says only what is true of any end.
          new RegExp(
            `^REPEAT_TOOL_BLOCKED: bash call not run: it was not approved; it would be the \\d+th call of its kind among your recent calls, counting this one and any that were stopped; the gate closes at \\d+\\. The loop breaker's repeat track asked for approval to run it, for:\n- exact:bash:\\{"command":"cat \\/etc\\/hostname"\\} \\d+\\/\\d+\n`,
          ),
          gated.text,
        );
        assert.match(gated.text, /they stay blocked until the next human message\.[\s\S]*\nInstead: /);
        assert.equal(gated.raw.error?.message, outcome === 'rejected' ? 'the user rejected tool "bash"' : 'tool "bash" requires approval, but no approval channel is available', "the error's message stays the host's");
      } else {
        assert.deepEqual(explanation, [], '0.5.2: only the host line');
      }
      assert.equal(r.runs.get(hi), caps.exact - 1, 'the gated body did not run');
      const later = [await r.call(hi), await r.call(hi)];
      for (const res of later) {
        assert.match(res.text, BLOCKED);
        assert.match(res.text, REFUSAL, 'the denial carries the refusal note');
      }
      assert.equal(r.asks.length, 1, 'a refused measure is not asked about again');
      assert.equal(r.runs.get(hi), caps.exact - 1);
      assert.ok(r.asks[0]!.length > 0, 'the ask carried a reason for the operator');
    });
  }

  test(
    'a thrown tool error (code at error.info.code) is described with that code',
    knownReferenceGap(plugin, 'reads error.code / error.name, so the host code at error.info.code is lost'),
    async () => {
      const r = await rig({ config: { onLimit: 'deny' }, behaviour: () => ({ throwCode: 'E_STUB_BROKEN' }) });
      const results: Result[] = [];
      for (let i = 0; i < caps.failLimit + 1; i += 1) results.push(await r.call('./deploy.sh'));
      assert.equal(results[0]!.raw.error?.info?.code, 'E_STUB_BROKEN', 'the host put the code at error.info.code');
      assert.equal(results[0]!.raw.error?.code, undefined, 'and not at error.code');
      const advisory = ours(results[caps.failWarnAt - 1]!.contexts)[0];
      assert.ok(advisory, 'failure advisory delivered');
      assert.match(advisory.content[0].text, /E_STUB_BROKEN/);
      assert.match(results[caps.failLimit]!.text, BLOCKED);
      assert.match(results[caps.failLimit]!.text, /E_STUB_BROKEN/);
      assert.equal(r.runs.get('./deploy.sh'), caps.failLimit);
    },
  );

  test('disposing the plugin fiber removes the guard and hooks: the next repeated call runs', async () => {
    const r = await rig({ config: { onLimit: 'deny' } });
    const command = 'cat /etc/hostname';
    for (let i = 0; i < caps.exact; i += 1) await r.call(command);
    assert.match((await r.call(command)).text, BLOCKED);
    await r.fiber.dispose();
    await tick();
    const res = await r.call(command);
    assert.equal(res.isError, false, 'no guard after dispose');
    assert.equal(ours(res.contexts).length, 0);
    assert.equal(r.runs.get(command), caps.exact);
  });

  test(
    'apply is not constructible, so cordis calls it (not `new`) and keeps the returned disposer',
    knownReferenceGap(plugin, '`export function apply` is constructible: cordis calls it with `new` and drops its teardown'),
    async () => {
      assert.equal(typeof breaker.apply, 'function');
      // Mount it on a bare context whose `tools` stub only records guards (its
      // disposer is not a cordis effect), so the guard goes away on dispose only
      // if cordis kept and ran the teardown that apply returned.
      const ctx = new Context();
      const guards = new Set<unknown>();
      ctx.provide('tools', { guard: (g: unknown) => (guards.add(g), () => guards.delete(g)) });
      const fiber = ctx.plugin(breaker, {});
      await tick();
      assert.equal(guards.size, 1, 'one guard registered');
      await fiber.dispose();
      assert.equal(guards.size, 0, 'the returned teardown ran on dispose');
      assert.equal(breaker.apply.prototype, undefined, 'apply has no prototype');
    },
  );

  const asksTwice = knownReferenceGap(plugin, 'settles a declined ask at post-execute, so the next call of the pool is asked again');
  test('a step of three identical parallel-safe reads, repeated to the gate, runs in DSH’s pool order: the gated call is asked once, and the one after it is denied as refused (P8)', asksTwice, async () => {
    const order: string[] = [];
    const r = await rig({
      answer: 'unavailable',
      setup: (ctx) => {
        ctx.on('tools/pre-execute', (exec: any, next: () => unknown) => (order.push(`policy ${exec.callId}`), next()));
        ctx.on('tools/post-execute', (exec: any, _result: unknown, next: () => unknown) => (order.push(`post ${exec.callId}`), next()));
      },
    });
    const steps = pooledReads(caps.exact, caps.exact + 4);
    const results: Result[] = [];
    for (const calls of steps) results.push(...(await r.step(calls)));
    const n = caps.exact;
    assert.equal(r.runs.get(`read ${POOLED_FILE}`), n - 1, 'bodies run');
    results.slice(0, n - 1).forEach((res, i) => assert.equal(res.isError, false, `call ${i + 1} ran`));
    // Call n's ask is settled after call n-1's body, but call n+1's policy already knows it was not approved (P8).
    assert.match(results[n - 1]!.text.split('\n')[0] ?? '', UNAVAILABLE, `call ${n}: asked, refused by the approval layer`);
    assert.equal(r.asks.length, 1, 'one ask in the gating step');
    for (const res of results.slice(n)) {
      assert.match(res.text, BLOCKED);
      assert.match(res.text, REFUSAL, 'later denials carry the refusal note');
    }
    const noticed = results.flatMap((res, i) => (ours(res.contexts).length > 0 ? [i + 1] : []));
    assert.deepEqual(noticed, [caps.warnAt, caps.summarizeAt], 'the advisories ride on the calls that reached the stages');
    // The gating step: every policy, then post-execute in model order.
    const id = (call: number): string => `call-${call}`;
    const window = (from: number): string[] => order.slice(order.indexOf(`policy ${id(from)}`), order.indexOf(`policy ${id(from)}`) + 6);
    assert.deepEqual(window(n - 1), [
      `policy ${id(n - 1)}`,
      `policy ${id(n)}`,
      `policy ${id(n + 1)}`,
      `post ${id(n - 1)}`,
      `post ${id(n)}`,
      `post ${id(n + 1)}`,
    ]);
    // A step whose calls are all refused by the guard: each settles at once, at the head of the step.
    assert.deepEqual(window(n + 2), [
      `policy ${id(n + 2)}`,
      `post ${id(n + 2)}`,
      `policy ${id(n + 3)}`,
      `post ${id(n + 3)}`,
      `policy ${id(n + 4)}`,
      `post ${id(n + 4)}`,
    ]);
  });

  test('a step mixing parallel-safe reads and an exclusive bash runs the bash as a barrier between two pools', async () => {
    const order: string[] = [];
    const r = await rig({
      setup: (ctx) => {
        ctx.on('tools/pre-execute', (exec: any, next: () => unknown) => (order.push(`policy ${exec.name}`), next()));
        ctx.on('tools/post-execute', (exec: any, _result: unknown, next: () => unknown) => (order.push(`post ${exec.name}`), next()));
      },
    });
    const read = (file: string): StepCall => ({ name: 'read', arguments: { file_path: file } });
    const results = await r.step([read('a'), read('b'), { name: 'bash', arguments: { command: 'make test', description: 'test' } }, read('c')]);
    assert.ok(results.every((res) => !res.isError), 'every call of the step runs without error');
    assert.deepEqual(order, ['policy read', 'policy read', 'post read', 'post read', 'policy bash', 'post bash', 'policy read', 'post read']);
  });
});

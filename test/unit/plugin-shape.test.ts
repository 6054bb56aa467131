/**
 * The plugin contract: name, inject, apply, the default export, and the
 * teardown (contract §1.1, §3.3).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import plugin, { apply, DEFAULTS, inject, name } from '../../src/index.js';
import { DEFAULTS as CONFIG_DEFAULTS } from '../../src/lib/config/config.js';
import { bash, defaultCap, deniedAt, newHost, repeat } from '../support/session.js';

/** A bare ctx that records what was registered. */
function recordingCtx(disposer: () => void = () => {}) {
  const events: string[] = [];
  let guards = 0;
  const ctx = {
    on: (event: string) => {
      events.push(event);
      return disposer;
    },
    tools: {
      guard: () => {
        guards += 1;
        return disposer;
      },
    },
  };
  return { ctx, events, guards: () => guards };
}

describe('the plugin object', () => {
  test('the default export is exactly { name, inject, apply }', () => {
    assert.deepEqual(Object.keys(plugin).sort(), ['apply', 'inject', 'name']);
    assert.equal(plugin.name, name);
    assert.equal(plugin.inject, inject);
    assert.equal(plugin.apply, apply);
  });

  test("the plugin is called 'repeat-tool-breaker' and waits for the tools service", () => {
    assert.equal(name, 'repeat-tool-breaker');
    assert.deepEqual([...inject], ['tools']);
  });

  test('the index re-exports the same DEFAULTS as the config module', () => {
    assert.equal(DEFAULTS, CONFIG_DEFAULTS);
  });

  test('apply is not constructible, so cordis calls it and keeps its teardown', () => {
    assert.equal((apply as unknown as { prototype?: unknown }).prototype, undefined);
    assert.throws(() => Reflect.construct(apply as unknown as new (...args: unknown[]) => unknown, [recordingCtx().ctx]), TypeError);
  });
});

describe('registration and teardown', () => {
  test('apply registers the three hooks, one guard, and a listener on the session log', () => {
    const { ctx, events, guards } = recordingCtx();
    apply(ctx as never);
    assert.deepEqual([...events].sort(), ['agent/pre-step', 'session/event', 'tools/post-execute', 'tools/pre-execute']);
    assert.equal(guards(), 1);
  });

  test('the teardown unregisters all five registrations', () => {
    const host = newHost();
    assert.equal(host.registrations, 5);
    host.dispose();
    assert.equal(host.registrations, 0);
  });

  test('after teardown nothing is gated any more', async () => {
    const host = newHost({ onLimit: 'deny' });
    host.dispose();
    const outcomes = await repeat(host, {}, defaultCap('exact') + 2, bash('cat /etc/hosts'));
    assert.deepEqual(deniedAt(outcomes), []);
    assert.ok(outcomes.every((o) => o.notices.length === 0), 'nothing is advised after teardown');
  });

  test('the teardown swallows a disposer that throws, and still runs the others', () => {
    let calls = 0;
    const { ctx } = recordingCtx(() => {
      calls += 1;
      throw new Error('already gone');
    });
    const teardown = apply(ctx as never);
    assert.equal(typeof teardown, 'function');
    assert.doesNotThrow(() => (teardown as () => void)());
    assert.equal(calls, 5, 'every registration was disposed of');
  });

  test('apply tolerates a guard registration that returns no disposer', () => {
    const ctx = { on: () => () => {}, tools: { guard: () => undefined } };
    const teardown = apply(ctx as never);
    assert.doesNotThrow(() => (teardown as () => void)());
  });

  test('a bad config throws from apply before anything is registered', () => {
    const { ctx, events, guards } = recordingCtx();
    assert.throws(() => apply(ctx as never, { window: 2 } as never), /^Error: repeat-tool-breaker: .*window/);
    assert.deepEqual(events, []);
    assert.equal(guards(), 0);
  });

  test('apply without a config uses the defaults', async () => {
    const host = newHost();
    const outcomes = await repeat(host, {}, defaultCap('exact'), bash('cat /etc/hosts'));
    assert.equal(outcomes[defaultCap('exact') - 1]?.asked, true);
  });

  test('agent/pre-step always passes on to the next listener', async () => {
    const host = newHost();
    let reached = 0;
    host.ctx.on('agent/pre-step', () => {
      reached += 1;
      return { kind: 'continue' };
    });
    await host.human({});
    await host.step({}, []);
    assert.equal(reached, 2);
  });
});

describe('reading a call (§2.1)', () => {
  /** The guard the plugin registered, driven directly with hand-built executions. */
  function guardOf(config: unknown): (exec: unknown) => string | undefined {
    let guard: ((exec: unknown) => string | undefined) | undefined;
    const ctx = {
      on: () => () => {},
      tools: {
        guard: (g: (exec: unknown) => string | undefined) => {
          guard = g;
          return () => {};
        },
      },
    };
    apply(ctx as never, config as never);
    assert.ok(guard, 'the plugin registers a tool guard');
    return guard;
  }
  const cap = defaultCap('exact');
  const verdicts = (guard: (exec: unknown) => string | undefined, make: () => unknown, n: number) =>
    Array.from({ length: n }, () => guard(make()) !== undefined);

  test('the older spellings toolName, args and exec.agent are read when the usual fields are missing', () => {
    const agent = {};
    const guard = guardOf({ onLimit: 'deny' });
    const got = verdicts(guard, () => ({ toolName: 'bash', args: { command: 'cat /etc/hosts' }, exec: { agent } }), cap);
    assert.deepEqual(got.indexOf(true), cap - 1);
  });

  test('tool.name is read when name and toolName are missing', () => {
    const agent = {};
    const guard = guardOf({ onLimit: 'deny' });
    const got = verdicts(guard, () => ({ tool: { name: 'read' }, arguments: { path: '/a' }, agent }), cap);
    assert.deepEqual(got.indexOf(true), cap - 1);
  });

  test('an empty-string name does not fall back to toolName, so the call is untracked', () => {
    const agent = {};
    const guard = guardOf({ onLimit: 'deny' });
    const got = verdicts(guard, () => ({ name: '', toolName: 'bash', arguments: { command: 'cat /etc/hosts' }, agent }), cap + 2);
    assert.ok(got.every((denied) => !denied), 'the untracked call is never denied');
  });

  test('a call whose agent is missing or not an object is transparent', () => {
    const guard = guardOf({ onLimit: 'deny' });
    for (const agent of [undefined, null, 'agent-1', 7]) {
      const got = verdicts(guard, () => ({ name: 'bash', arguments: { command: 'cat /etc/hosts' }, agent }), cap + 2);
      assert.ok(got.every((denied) => !denied), String(agent));
    }
  });

  test('a pre-step payload without an agent or with odd messages never throws and never resets', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, cap - 1, bash('cat /etc/hosts'));
    await host.step(agent, 'not-an-array' as unknown as unknown[]);
    await host.step(agent, [null, 5, { source: null }, { source: { kind: 'plugin' } }]);
    await host.step(undefined as unknown as object, [{ source: { kind: 'user' } }]);
    assert.equal((await host.call({ agent, ...bash('cat /etc/hosts') })).denied, true);
  });
});

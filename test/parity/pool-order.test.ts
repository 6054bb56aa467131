/**
 * The fake host's pool runs hooks in the order `@deepseek-ai/dsh-agent-loop`
 * 0.1.0-rc.8 does (`runGroup`): policy in model order with each body started
 * after its own policy, post-execute in model order as soon as every earlier
 * call has settled. A recording plugin writes down every hook and body.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeHost, type CallInput, type PluginModule } from '../support/fake-host.js';

/** A plugin that records its hooks and denies (guard) or asks (pre-execute) by call label. */
function recorder(events: string[], deny: ReadonlySet<string>, ask: ReadonlySet<string>): PluginModule {
  const label = (exec: any): string => String(exec.arguments.label);
  return {
    apply(ctx) {
      ctx.on('tools/pre-execute', async (exec: any, next: () => Promise<unknown>) => {
        events.push(`pre ${label(exec)}`);
        return ask.has(label(exec)) ? { kind: 'ask', reason: 'again?' } : next();
      });
      ctx.tools.guard((exec: any) => {
        events.push(`guard ${label(exec)}`);
        return deny.has(label(exec)) ? 'REPEAT_TOOL_BLOCKED: no' : undefined;
      });
      ctx.on('tools/post-execute', async (exec: any, _result: unknown, next: () => Promise<unknown>) => {
        events.push(`post ${label(exec)}`);
        return next();
      });
    },
  };
}

function run(events: string[], labels: string[], answer: CallInput['answer'] = 'none'): CallInput[] {
  const agent = {};
  return labels.map((label) => ({
    agent,
    name: 'read',
    arguments: { label },
    answer,
    body: () => {
      events.push(`body ${label}`);
      return { isError: false, content: [{ type: 'text', text: label }] };
    },
  }));
}

async function order(labels: string[], options: { deny?: string[]; ask?: string[]; answer?: CallInput['answer']; maxParallel?: number } = {}): Promise<string[]> {
  const events: string[] = [];
  const host = new FakeHost(recorder(events, new Set(options.deny), new Set(options.ask)));
  const outcomes = await host.pool(run(events, labels, options.answer), options.maxParallel);
  assert.equal(outcomes.length, labels.length);
  return events;
}

test('a pool runs every policy in model order before any post-execute, which follow in model order', async () => {
  assert.deepEqual(await order(['a', 'b', 'c']), [
    'pre a', 'guard a', 'body a',
    'pre b', 'guard b', 'body b',
    'pre c', 'guard c', 'body c',
    'post a', 'post b', 'post c',
  ]);
});

test('a call denied at the head of a pool reaches post-execute before the next call is policed', async () => {
  assert.deepEqual(await order(['a', 'b'], { deny: ['a'] }), ['pre a', 'guard a', 'post a', 'pre b', 'guard b', 'body b', 'post b']);
});

test('a call denied behind a running body waits for it: post-execute stays in model order', async () => {
  assert.deepEqual(await order(['a', 'b', 'c'], { deny: ['b'] }), [
    'pre a', 'guard a', 'body a',
    'pre b', 'guard b',
    'pre c', 'guard c', 'body c',
    'post a', 'post b', 'post c',
  ]);
});

test('an ask in a pool is answered before the next call is policed: declined, the guards and the body are skipped', async () => {
  assert.deepEqual(await order(['a', 'b'], { ask: ['b'], answer: 'decline' }), ['pre a', 'guard a', 'body a', 'pre b', 'post a', 'post b']);
  assert.deepEqual(await order(['a', 'b'], { ask: ['a'], answer: 'approve' }), ['pre a', 'guard a', 'body a', 'pre b', 'guard b', 'body b', 'post a', 'post b']);
});

test('a full pool (maxParallelToolCalls) settles its earliest body before the next call is policed', async () => {
  assert.deepEqual(await order(['a', 'b', 'c'], { maxParallel: 2 }), [
    'pre a', 'guard a', 'body a',
    'pre b', 'guard b', 'body b',
    'post a',
    'pre c', 'guard c', 'body c',
    'post b', 'post c',
  ]);
});

test('a pool of one is a single call', async () => {
  const events: string[] = [];
  const host = new FakeHost(recorder(events, new Set(), new Set()));
  const [pooled] = await host.pool(run(events, ['a']));
  const single = await host.call(run(events, ['a'])[0] as CallInput);
  assert.deepEqual(events, ['pre a', 'guard a', 'body a', 'post a', 'pre a', 'guard a', 'body a', 'post a']);
  assert.deepEqual(pooled, single);
});

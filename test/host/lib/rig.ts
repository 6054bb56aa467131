/**
 * The in-process rig the host suites share: the genuine `ToolRuntime` from
 * `@deepseek-ai/dsh-tools` 0.1.0-rc.8 in a cordis `Context`, the genuine
 * approval service (`@deepseek-ai/dsh-user-approval`) answering every ask when
 * a scenario gives an answer, a stub `bash` whose body counts its runs and does
 * what the scenario scripts, a stub parallel-safe `read` whose body ends after
 * a turn of the event loop as real file I/O does, the plugin mounted, and
 * calls made through `ctx.tools.execute` with decoys that vary on every call,
 * as a model's do — or a whole model step through the runtime's staged
 * scheduler, in the order `@deepseek-ai/dsh-agent-loop` runs it ({@link Rig.step}).
 *
 * Host packages are loaded with `hostImport` (resolved from test/host/node_modules),
 * so the root typecheck passes before the host is installed.
 */
import assert from 'node:assert/strict';

import { hostImport, importPlugin, pluginUnderTest } from './env.js';

export type Outcome = 'allowed-once' | 'rejected' | 'cancelled' | 'unavailable';

/** What the stub body does for one run of a command: succeed or exit non-zero (optionally printing `stdout`), or throw. */
export type Behaviour = { exitCode: number; stdout?: string } | { throwCode: string };

export interface RigOptions {
  /** The plugin config (default `{}`). */
  readonly config?: Record<string, unknown>;
  /** Mount the approval service and answer every ask with this. */
  readonly answer?: Outcome;
  /** Per command and 1-based run of that command; default a success printing `ran: <command>`. */
  readonly behaviour?: (command: string, run: number) => Behaviour;
  /** The cordis plugin to mount; default the packed build's default export. */
  readonly plugin?: unknown;
  /** Called after the stub is registered and before the plugin is mounted (e.g. another plugin's hooks). */
  readonly setup?: (ctx: any) => void;
}

export interface Result {
  isError: boolean;
  text: string;
  contexts: any[];
  raw: any;
}

/** One call of a model step, as the model sends it. */
export interface StepCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface Rig {
  ctx: any;
  fiber: any;
  agent: any;
  /** Bodies run, per command, and in total. */
  runs: Map<string, number>;
  total(): number;
  /** The reason of every ask that reached the answerer. */
  asks: string[];
  /** Calls made so far. */
  seq(): number;
  call(command: string, extra?: Record<string, unknown>): Promise<Result>;
  callAs(agent: any, command: string, extra?: Record<string, unknown>): Promise<Result>;
  /**
   * One model step through the runtime's staged scheduler (`TOOL_RUNTIME_SCHEDULER`:
   * prepare = policy, dispatch = body, finalize = post-execute) in the agent
   * loop's order (`runGroup`): exclusive calls alone; a run of parallel-safe
   * calls as a pool, each prepared in model order and its body started, results
   * committed in model order as soon as every earlier one has. Results in model order.
   */
  step(calls: readonly StepCall[]): Promise<Result[]>;
  /** `messages` through the genuine `agent/pre-step` waterfall whose default decision enters them. */
  preStep(messages: unknown[], at?: { turn: number; step: number }): Promise<any>;
}

export const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function resultOf(raw: any): Result {
  const text = (raw.content ?? []).map((b: any) => (b.type === 'text' ? b.text : '')).join('\n');
  return { isError: raw.isError === true, text, contexts: [...(raw.additionalContexts ?? [])], raw };
}

export function newAgent(id: string): any {
  // The approval service audits to `agent.session` and needs an open turn.
  const events: { type: string; data?: unknown }[] = [{ type: 'turn/start', data: { turn: 1 } }];
  return { id, session: { events, append: (type: string, data: unknown) => events.push({ type, data }) } };
}

export async function rig(options: RigOptions = {}): Promise<Rig> {
  const { Context } = await hostImport('@deepseek-ai/cordis');
  const { ToolRuntime, defineTool, TOOL_RUNTIME_SCHEDULER } = await hostImport('@deepseek-ai/dsh-tools');
  const { ApprovalService } = await hostImport('@deepseek-ai/dsh-user-approval');
  const { agentEvents } = await hostImport('@deepseek-ai/dsh-agent');
  const { HarnessError } = await hostImport('@deepseek-ai/dsh-llm');
  const plugin = options.plugin ?? (await importPlugin(pluginUnderTest())).default;

  const ctx = new Context();
  ctx.provide('systemPrompt', { tools: () => () => {}, section: () => () => {}, context: () => () => {} });
  ctx.plugin(ToolRuntime);
  const asks: string[] = [];
  if (options.answer !== undefined) {
    ctx.plugin(ApprovalService, { policy: 'ask' });
    const answer = options.answer;
    ctx.on('approval/request', async (req: any) => {
      asks.push(String(req.reason ?? ''));
      return answer;
    });
  }
  await tick();
  assert.ok(ctx.get('tools'), 'ToolRuntime provided ctx.tools');
  const runs = new Map<string, number>();
  ctx.tools.register(
    defineTool({
      name: 'bash',
      description: 'stub bash: counts its runs and does what the scenario scripts',
      parameters: {
        command: { type: 'string', required: true },
        description: { type: 'string', required: true },
        timeoutMs: { type: 'number' },
      },
      output: {
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            kind: { type: 'string', required: true },
            exitCode: { type: 'integer', required: true },
            stdout: { type: 'string', required: true },
          },
        },
        render: (_args: unknown, value: { exitCode: number; stdout: string }) => [
          { type: 'text', text: `${value.stdout}${value.exitCode === 0 ? '' : `\n[exit code: ${value.exitCode}]`}` },
        ],
      },
      async execute(args: { command: string }) {
        const run = (runs.get(args.command) ?? 0) + 1;
        runs.set(args.command, run);
        const behaviour = options.behaviour?.(args.command, run) ?? { exitCode: 0 };
        if ('throwCode' in behaviour) throw new HarnessError(`stub failure for ${args.command}`, behaviour.throwCode);
        return { kind: 'foreground', exitCode: behaviour.exitCode, stdout: behaviour.stdout ?? `ran: ${args.command}` };
      },
    }),
  );
  ctx.tools.register(
    defineTool({
      name: 'read',
      description: 'stub read: parallel-safe, counts its runs, answers after a turn of the event loop',
      parameters: { file_path: { type: 'string', required: true } },
      output: {
        schema: { type: 'object', additionalProperties: false, properties: { text: { type: 'string', required: true } } },
        render: (_args: unknown, value: { text: string }) => [{ type: 'text', text: value.text }],
      },
      isConcurrencySafe: () => true,
      async execute(args: { file_path: string }) {
        runs.set(`read ${args.file_path}`, (runs.get(`read ${args.file_path}`) ?? 0) + 1);
        // Real file I/O completes on a later turn of the event loop, never inside the pool's policy pass.
        await new Promise((resolve) => setImmediate(resolve));
        return { text: `contents of ${args.file_path}` };
      },
    }),
  );
  options.setup?.(ctx);
  const fiber = ctx.plugin(plugin, options.config ?? {});
  await tick();
  const agent = newAgent('main');
  let seq = 0;
  const callAs = async (who: any, command: string, extra: Record<string, unknown> = {}): Promise<Result> => {
    seq += 1;
    const raw = await ctx.tools.execute({
      callId: `call-${seq}`,
      name: 'bash',
      arguments: { command, description: `attempt ${seq}`, timeoutMs: 1000 + seq, ...extra },
      agent: who,
      signal: new AbortController().signal,
    });
    return resultOf(raw);
  };
  const scheduler = ctx.tools[TOOL_RUNTIME_SCHEDULER];
  /** One exclusive call or one pool of parallel-safe calls, committed in model order. */
  const group = async (execs: readonly any[]): Promise<Result[]> => {
    const slots: ({ exec: any; result: any; needsPost: boolean } | undefined)[] = execs.map(() => undefined);
    const committed: Result[] = [];
    const bodies: Promise<void>[] = [];
    const commitReady = async (): Promise<void> => {
      for (let slot = slots[committed.length]; slot !== undefined; slot = slots[committed.length]) {
        const final = slot.needsPost ? await scheduler.finalize(slot.exec, slot.result) : scheduler.finish(slot.exec, slot.result);
        committed.push(resultOf(final));
      }
    };
    for (const [at, exec] of execs.entries()) {
      const prepared = await scheduler.prepare(exec);
      if (prepared.kind === 'dispatch') {
        bodies.push(
          scheduler.dispatch(prepared.exec).then((outcome: any) => {
            slots[at] = { exec: prepared.exec, result: outcome.result, needsPost: outcome.kind === 'post-result' };
          }),
        );
      } else slots[at] = { exec: prepared.exec, result: prepared.result, needsPost: prepared.kind === 'post-result' };
      await commitReady();
    }
    for (const body of bodies) {
      await body;
      await commitReady();
    }
    return committed;
  };
  const step = async (calls: readonly StepCall[]): Promise<Result[]> => {
    const execs = calls.map((call) => {
      seq += 1;
      return { callId: `call-${seq}`, name: call.name, arguments: call.arguments, agent, signal: new AbortController().signal };
    });
    const results: Result[] = [];
    for (let next = 0; next < execs.length; ) {
      const parallel = (exec: any): boolean => ctx.tools.executionMode(exec).kind === 'parallel';
      let end = next + 1;
      // The agent loop's pool: up to maxParallelToolCalls (10) parallel-safe calls in a row.
      if (parallel(execs[next])) while (end < execs.length && end - next < 10 && parallel(execs[end])) end += 1;
      results.push(...(await group(execs.slice(next, end))));
      next = end;
    }
    return results;
  };
  return {
    ctx,
    fiber,
    agent,
    runs,
    total: () => [...runs.values()].reduce((a, b) => a + b, 0),
    asks,
    seq: () => seq,
    call: (command, extra) => callAs(agent, command, extra),
    callAs,
    step,
    preStep: (messages, at = { turn: 2, step: 1 }) =>
      agentEvents(ctx, agent).waterfall('agent/pre-step', { messages, ...at, signal: new AbortController().signal }, () =>
        Promise.resolve({ kind: 'enter', messages }),
      ),
  };
}

/** This plugin's own messages among `contexts`. */
export const ours = (contexts: any[]): any[] =>
  contexts.filter((m) => m?.source?.kind === 'plugin' && m.source.plugin === 'repeat-tool-breaker');

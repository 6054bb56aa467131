/**
 * A small stand-in for the DSH tool pipeline, faithful to the order of
 * `@deepseek-ai/dsh-tools` 0.1.0-rc.8: `tools/pre-execute` waterfall → approval
 * when asked → guards (only when allowed) → body → `tools/post-execute`
 * waterfall (denied calls too). `pool` runs several calls of one model step in
 * the agent loop's pool order. It drives any plugin of the form
 * `{ apply(ctx, config) }`, ours or the reference, the same way.
 */

export type Answer = 'approve' | 'decline' | 'none';

export interface HostResult {
  isError?: boolean;
  content?: unknown;
  value?: unknown;
  error?: unknown;
  additionalContexts?: unknown[];
  [key: string]: unknown;
}

export interface CallInput {
  agent: object | undefined;
  name: string;
  arguments: unknown;
  /** How the operator answers an ask; `none` is an unattended profile. Default `none`. */
  answer?: Answer;
  /** What the tool body returns (or throws) when it runs. Default: a plain text success. */
  body?: (args: unknown) => HostResult;
}

export interface CallOutcome {
  asked: boolean;
  askReason: string | undefined;
  /** Denied before the body ran, by a guard or by the approval layer. */
  denied: boolean;
  denyReason: string | undefined;
  ran: boolean;
  /** The result the model reads, after post-execute. */
  result: HostResult;
  /** `additionalContexts` attached by post-execute, in order. */
  notices: unknown[];
}

type Listener = (...args: any[]) => any;
type Guard = (exec: unknown) => string | undefined;

export interface PluginModule {
  apply: (ctx: any, config?: any) => unknown;
}

export class FakeHost {
  private readonly listeners = new Map<string, Listener[]>();
  private readonly guards: Guard[] = [];
  private teardown: unknown;
  private callSeq = 0;
  /** Every model-visible call outcome, in order. */
  readonly log: CallOutcome[] = [];
  /** What the plugin wrote to the host's logger, at `info`, in order (cordis' `ctx.logger.info`). */
  readonly logged: string[] = [];

  readonly ctx = {
    on: (event: string, listener: Listener) => {
      const list = this.listeners.get(event) ?? [];
      list.push(listener);
      this.listeners.set(event, list);
      return () => {
        const at = list.indexOf(listener);
        if (at >= 0) list.splice(at, 1);
      };
    },
    logger: {
      // cordis formats the first argument: `%s` takes the next one, as `Logger.format` does.
      info: (format: unknown, ...params: unknown[]) => {
        this.logged.push(String(format).replace(/%s/, () => String(params.shift())));
      },
    },
    tools: {
      guard: (guard: Guard) => {
        this.guards.push(guard);
        return () => {
          const at = this.guards.indexOf(guard);
          if (at >= 0) this.guards.splice(at, 1);
        };
      },
    },
  };

  constructor(plugin: PluginModule, config?: unknown) {
    this.teardown = config === undefined ? plugin.apply(this.ctx) : plugin.apply(this.ctx, config);
  }

  /**
   * Emits `event` to its listeners at once, as cordis' `emit` does (`session/event`
   * is dispatched so: synchronously, as the session appends).
   */
  emit(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }

  /** A `turn/start` record of the agent's session (an agent given a `session` object). */
  startTurn(agent: { session: object }, turn: number): void {
    this.emit('session/event', agent.session, { type: 'turn/start', data: { turn } });
  }

  /** A `turn/end` record of the agent's session, ended as `kind` (`completed`, `blocked`, …). */
  endTurn(agent: { session: object }, turn: number, kind = 'completed'): void {
    this.emit('session/event', agent.session, { type: 'turn/end', data: { turn, reason: { kind } } });
  }

  /** How many hooks and guards are still registered. */
  get registrations(): number {
    let count = this.guards.length;
    for (const list of this.listeners.values()) count += list.length;
    return count;
  }

  dispose(): void {
    if (typeof this.teardown === 'function') (this.teardown as () => void)();
  }

  private async waterfall(event: string, args: unknown[], fallback: () => Promise<unknown>): Promise<any> {
    const list = [...(this.listeners.get(event) ?? [])];
    const run = (at: number): Promise<unknown> => {
      const listener = list[at];
      if (listener === undefined) return fallback();
      return Promise.resolve(listener(...args, () => run(at + 1)));
    };
    return run(0);
  }

  /** Run one tool call through the pipeline. */
  async call(input: CallInput): Promise<CallOutcome> {
    const policy = await this.policy(input);
    return this.settle(policy, policy.denyReason === undefined ? runBody(input) : denialResult(policy.denyReason));
  }

  /**
   * Run one model step's parallel-safe calls as `@deepseek-ai/dsh-agent-loop`
   * 0.1.0-rc.8 runs a pool (`runGroup` in its `lib/index.js`): policy
   * (pre-execute, approval, guards) for each call in model order, its body
   * started right after, up to `maxParallel` bodies in flight, and
   * `tools/post-execute` in model order, each as soon as every earlier call has
   * settled. A call denied at policy has settled at once, so a denial at the head
   * of the pool reaches post-execute before the next call's policy; behind a
   * running body it waits. Bodies are taken to outlast the policy of the calls
   * after them (real tools do I/O); when the pool is full the earliest settles first.
   */
  async pool(inputs: readonly CallInput[], maxParallel = MAX_PARALLEL_TOOL_CALLS): Promise<CallOutcome[]> {
    const policies: Policy[] = [];
    const results: HostResult[] = [];
    const settled: boolean[] = [];
    const running: number[] = [];
    const outcomes: CallOutcome[] = [];
    const commitReady = async (): Promise<void> => {
      for (let at = outcomes.length; at < inputs.length && settled[at] === true; at += 1) {
        outcomes.push(await this.settle(policies[at] as Policy, results[at] as HostResult));
      }
    };
    let next = 0;
    const fill = async (): Promise<void> => {
      while (next < inputs.length && running.length < maxParallel) {
        const input = inputs[next] as CallInput;
        const policy = await this.policy(input);
        policies[next] = policy;
        if (policy.denyReason === undefined) {
          results[next] = runBody(input);
          running.push(next);
        } else {
          results[next] = denialResult(policy.denyReason);
          settled[next] = true;
        }
        next += 1;
        await commitReady();
      }
    };
    await fill();
    while (running.length > 0) {
      settled[running.shift() as number] = true;
      await commitReady();
      await fill();
    }
    return outcomes;
  }

  /** `tools/pre-execute`, the operator's answer to an ask, then the guards (only when allowed). */
  private async policy(input: CallInput): Promise<Policy> {
    this.callSeq += 1;
    const exec: Record<string, unknown> = {
      callId: `call-${this.callSeq}`,
      name: input.name,
      arguments: input.arguments,
      signal: new AbortController().signal,
    };
    if (input.agent !== undefined) exec.agent = input.agent;

    const gate = await this.waterfall('tools/pre-execute', [exec], async () => ({ kind: 'allow' }));
    let decision = gate as { kind: string; reason?: string };
    let asked = false;
    let askReason: string | undefined;
    if (gate.kind === 'ask') {
      asked = true;
      askReason = gate.reason;
      const answer = input.answer ?? 'none';
      this.auditAsk(input, exec, answer);
      if (answer === 'approve') decision = { kind: 'allow' };
      else if (answer === 'decline') decision = { kind: 'deny', reason: `the user rejected tool "${input.name}"` };
      else decision = { kind: 'deny', reason: `tool "${input.name}" requires approval, but no approval channel is available` };
    }
    let denyReason: string | undefined;
    if (decision.kind === 'allow') {
      for (const guard of [...this.guards]) {
        const reason = guard(exec);
        if (reason !== undefined) {
          denyReason = reason;
          break;
        }
      }
    } else {
      denyReason = decision.reason ?? `tool "${input.name}" was denied`;
    }
    return { exec, asked, askReason, denyReason };
  }

  /**
   * rc.8's approval service audits every ask to the agent's session
   * (`approval/asked`, then `approval/decided`), which `session/event` hands to
   * plugins before the call settles: done here for an agent given a `session`.
   */
  private auditAsk(input: CallInput, exec: Record<string, unknown>, answer: Answer): void {
    const session = (input.agent as { session?: unknown } | undefined)?.session;
    if (typeof session !== 'object' || session === null) return;
    const id = `ask-${this.callSeq}`;
    const outcome = answer === 'approve' ? 'allowed-once' : answer === 'decline' ? 'rejected' : 'unavailable';
    this.emit('session/event', session, { type: 'approval/asked', data: { id, toolName: input.name, callId: exec.callId } });
    this.emit('session/event', session, { type: 'approval/decided', data: { id, outcome } });
  }

  /** `tools/post-execute` over the call's result (a denial's too), and the outcome the model reads. */
  private async settle(policy: Policy, result: HostResult): Promise<CallOutcome> {
    const post = await this.waterfall('tools/post-execute', [policy.exec, result], async () => ({ kind: 'accept' }));
    const notices = Array.isArray(post?.additionalContexts) ? [...post.additionalContexts] : [];
    // rc.8's postExecute: `block` makes the feedback the error's content; `accept` with `content` replaces it (P13 extends a refusal's).
    if (post?.kind === 'block') result = { content: post.feedback, isError: true, error: { message: 'tool result blocked by post-execute policy' } };
    else if (Array.isArray(post?.content)) result = { ...result, content: post.content };
    const outcome: CallOutcome = {
      asked: policy.asked,
      askReason: policy.askReason,
      denied: policy.denyReason !== undefined,
      denyReason: policy.denyReason,
      ran: policy.denyReason === undefined,
      result: notices.length > 0 ? { ...result, additionalContexts: notices } : result,
      notices,
    };
    this.log.push(outcome);
    return outcome;
  }

  /**
   * Deliver newly claimed inbox messages through `agent/pre-step`; resolves to the
   * decision, whose default (as in `@deepseek-ai/dsh-agent-loop`) enters the claimed messages.
   */
  async step(agent: object, messages: unknown[]): Promise<{ kind: string; messages?: unknown[] }> {
    const payload = { agent, messages, turn: 1, step: 1, signal: new AbortController().signal };
    return this.waterfall('agent/pre-step', [payload], async () => ({ kind: 'enter', messages }));
  }

  /** A human message, as the agent loop claims it from the inbox. */
  async human(agent: object, text = 'please continue'): Promise<void> {
    await this.step(agent, [{ id: `m-${++this.callSeq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } }]);
  }
}

/** `maxParallelToolCalls`' default in `@deepseek-ai/dsh-agent-loop` 0.1.0-rc.8 (settings namespace `agent-loop`). */
export const MAX_PARALLEL_TOOL_CALLS = 10;

/** What the policy stage decided for one call; the same `exec` object goes on to post-execute. */
interface Policy {
  exec: Record<string, unknown>;
  asked: boolean;
  askReason: string | undefined;
  denyReason: string | undefined;
}

/** The result the host materializes for a call denied at policy. */
function denialResult(reason: string): HostResult {
  return { isError: true, content: [{ type: 'text', text: `Error: ${reason}` }], error: { message: reason } };
}

/** The tool body's result; a throw becomes an error result carrying `error.info`, as the host shapes it. */
function runBody(input: CallInput): HostResult {
  try {
    return input.body ? input.body(input.arguments) : { isError: false, value: {}, content: [{ type: 'text', text: 'ok' }] };
  } catch (error) {
    const info = (error as { info?: unknown }).info;
    return {
      isError: true,
      content: [{ type: 'text', text: `Error: ${(error as Error).message}` }],
      error: { message: (error as Error).message, ...(info !== undefined ? { info } : {}) },
    };
  }
}

/** A text result with a structured value, the way dsh tools return them. */
export function textResult(text: string, value: unknown = {}, isError = false): HostResult {
  return isError
    ? { isError: true, content: [{ type: 'text', text }], error: { message: text } }
    : { isError: false, value, content: [{ type: 'text', text }] };
}

/** A bash result as `@deepseek-ai/dsh-bash-*` shapes it. */
export function bashResult(exitCode: number, stdout = '', extra: Record<string, unknown> = {}): HostResult {
  const marker = exitCode === 0 ? '' : `\n[exit code: ${exitCode}]`;
  return {
    isError: false,
    value: { kind: 'foreground', exitCode, signal: null, timedOut: false, aborted: false, timeoutMs: 120000, stdout: { text: stdout, truncated: false }, stderr: { text: '', truncated: false }, ...extra },
    content: [{ type: 'text', text: `${stdout}${marker}` }],
  };
}

/**
 * A small stand-in for the DSH tool pipeline, faithful to the order of
 * `@deepseek-ai/dsh-tools` 0.1.0-rc.8: `tools/pre-execute` waterfall → approval
 * when asked → guards (only when allowed) → body → `tools/post-execute`
 * waterfall (denied calls too). It drives any plugin of the form
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

    let result: HostResult;
    let ran = false;
    if (denyReason !== undefined) {
      result = { isError: true, content: [{ type: 'text', text: `Error: ${denyReason}` }], error: { message: denyReason } };
    } else {
      ran = true;
      try {
        result = input.body ? input.body(input.arguments) : { isError: false, value: {}, content: [{ type: 'text', text: 'ok' }] };
      } catch (error) {
        const info = (error as { info?: unknown }).info;
        result = {
          isError: true,
          content: [{ type: 'text', text: `Error: ${(error as Error).message}` }],
          error: { message: (error as Error).message, ...(info !== undefined ? { info } : {}) },
        };
      }
    }

    const post = await this.waterfall('tools/post-execute', [exec, result], async () => ({ kind: 'accept' }));
    const notices = Array.isArray(post?.additionalContexts) ? [...post.additionalContexts] : [];
    const outcome: CallOutcome = {
      asked,
      askReason,
      denied: denyReason !== undefined,
      denyReason,
      ran,
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

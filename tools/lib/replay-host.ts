/**
 * The smallest host `apply()` can be mounted on: the hook order of the DSH
 * 0.1.0-rc.8 tool pipeline (`tools/pre-execute` waterfall → approval when asked
 * → guards, only when allowed → body → `tools/post-execute` waterfall, denied
 * calls included) and `agent/pre-step` before each model step, with the newly
 * claimed messages. No tool body runs here: the replay supplies the result the
 * log recorded.
 */
import { member } from '../../src/lib/host/member.js';
import type { ToolResult } from '../../src/lib/host/types.js';

export type Answer = 'approve' | 'decline' | 'none';

/** What a plugin module looks like to the replay: ours, built or from source. */
export type ApplyFunction = (ctx: ReplayContext, config?: unknown) => unknown;

type Next = () => Promise<unknown>;
type Listener = (...args: never[]) => unknown;
type Guard = (exec: unknown) => string | undefined;

export interface ReplayContext {
  on(event: string, listener: Listener): () => void;
  readonly tools: { guard(guard: Guard): () => void };
  /** The host's logger, as cordis offers it (`info(format, …params)`): the lines a plugin logs while a call passes its gate are the gate's `logged`. */
  readonly logger: { info(format: unknown, ...params: unknown[]): void };
}

export interface Gate {
  /** The plugin's ask reason, when it asked. */
  readonly asked: string | undefined;
  /** Why the call did not run; `undefined` when it may run. */
  readonly denied: string | undefined;
  /** Who stopped it: the approval layer (an ask not granted) or a guard. */
  readonly by: 'approval' | 'plugin' | undefined;
  /** What the plugin logged while the call passed pre-execute and the guards (this plugin's gate lines name the tracks that hit). */
  readonly logged: readonly string[];
}

/** The error result the host shows the model for a call that did not run. */
export function denialResult(reason: string): ToolResult {
  return { isError: true, content: [{ type: 'text', text: `Error: ${reason}` }], error: { message: reason } };
}

export class ReplayHost {
  private readonly listeners = new Map<string, Listener[]>();
  private readonly guards: Guard[] = [];
  private readonly teardown: unknown;
  /** The lines logged since the current gate began; cleared by each gate, so a long replay keeps none. */
  private logged: string[] = [];

  readonly ctx: ReplayContext = {
    on: (event, listener) => {
      const list = this.listeners.get(event) ?? [];
      list.push(listener);
      this.listeners.set(event, list);
      return () => list.splice(list.indexOf(listener) >>> 0, 1);
    },
    tools: {
      guard: (guard) => {
        this.guards.push(guard);
        return () => this.guards.splice(this.guards.indexOf(guard) >>> 0, 1);
      },
    },
    logger: {
      info: (format, ...params) => {
        // cordis' format: `%s` takes the next parameter; our plugin logs `('%s', line)`.
        this.logged.push(format === '%s' ? String(params[0]) : String(format));
      },
    },
  };

  constructor(apply: ApplyFunction, config: unknown) {
    this.teardown = apply(this.ctx, config);
  }

  dispose(): void {
    if (typeof this.teardown === 'function') (this.teardown as () => void)();
  }

  private waterfall(event: string, args: readonly unknown[], last: Next): Promise<unknown> {
    const list = [...(this.listeners.get(event) ?? [])] as ((...args: unknown[]) => unknown)[];
    const run = (at: number): Promise<unknown> => {
      const listener = list[at];
      return listener === undefined ? last() : Promise.resolve(listener(...args, () => run(at + 1)));
    };
    return run(0);
  }

  /** Pre-execute, the operator's answer to an ask, then the guards: whether the call may run. */
  async gate(exec: object, answer: Answer): Promise<Gate> {
    const logged: string[] = [];
    this.logged = logged;
    const decision = await this.waterfall('tools/pre-execute', [exec], async () => ({ kind: 'allow' }));
    const kind = member(decision, 'kind');
    const name = String(member(exec, 'name'));
    let asked: string | undefined;
    if (kind === 'ask') {
      asked = String(member(decision, 'reason') ?? '');
      // The host's own denial texts for an ask that is not granted.
      if (answer === 'decline') return { asked, denied: `the user rejected tool "${name}"`, by: 'approval', logged };
      if (answer === 'none')
        return { asked, denied: `tool "${name}" requires approval, but no approval channel is available`, by: 'approval', logged };
    } else if (kind === 'deny') {
      return { asked, denied: String(member(decision, 'reason') ?? `tool "${name}" was denied`), by: 'plugin', logged };
    }
    for (const guard of [...this.guards]) {
      const reason = guard(exec);
      if (reason !== undefined) return { asked, denied: reason, by: 'plugin', logged };
    }
    return { asked, denied: undefined, by: undefined, logged };
  }

  /** Post-execute over a settled result: the notices attached to it, in order. */
  async settle(exec: object, result: ToolResult): Promise<unknown[]> {
    return (await this.afterCall(exec, result)).contexts;
  }

  /**
   * Post-execute over a settled result: the notices attached to it, and the
   * content that replaces the result's when a listener rewrote it (rc.8 applies
   * an `accept`'s `content` to the result the model reads).
   */
  async afterCall(exec: object, result: ToolResult): Promise<{ contexts: unknown[]; content: readonly unknown[] | undefined }> {
    const post = await this.waterfall('tools/post-execute', [exec, result], async () => ({ kind: 'accept' }));
    const contexts = member(post, 'additionalContexts');
    const content = member(post, 'content');
    return { contexts: Array.isArray(contexts) ? [...contexts] : [], content: Array.isArray(content) ? content : undefined };
  }

  /**
   * `agent/pre-step` before a model step, with the messages the agent claims from
   * its inbox. The payload is rc.8's: `@deepseek-ai/dsh-agent-loop` passes
   * `{ messages, turn, step, signal }` and `agentEvents` (`@deepseek-ai/dsh-agent`)
   * adds the `agent`; the decision by default enters the claimed messages. A
   * `{ kind: 'reject' }` ends the turn there ("blocked").
   */
  async step(agent: object, messages: readonly unknown[], at: StepPosition = { turn: 1, step: 1 }): Promise<unknown> {
    const payload = { messages, turn: at.turn, step: at.step, signal: new AbortController().signal, agent };
    return this.waterfall('agent/pre-step', [payload], async () => ({ kind: 'enter', messages }));
  }
}

/** Where a step stands in its agent's conversation: the turn (from 1) and the step within it (from 1). */
export interface StepPosition {
  readonly turn: number;
  readonly step: number;
}

/**
 * The slice of the DSH host this plugin touches, declared structurally so that
 * nothing from `@deepseek-ai/*` is imported at run time. Shapes follow
 * `@deepseek-ai/dsh-tools` and `@deepseek-ai/dsh-agent` 0.1.0-rc.8; every field
 * is optional or `unknown` where a model or another plugin controls it.
 */

/** An agent is identified by object identity only; its fields are never read. */
export type Agent = object;

/** One tool call as the pipeline hands it to policy hooks. */
export interface ToolExecution {
  readonly name?: unknown;
  readonly arguments?: unknown;
  readonly agent?: unknown;
  readonly callId?: unknown;
  /** Older host spellings that the reference also reads. */
  readonly toolName?: unknown;
  readonly tool?: unknown;
  readonly args?: unknown;
  readonly exec?: unknown;
}

export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

/** A tool result as `tools/post-execute` sees it (success or failure). */
export interface ToolResult {
  readonly isError?: unknown;
  readonly content?: unknown;
  readonly value?: unknown;
  readonly error?: unknown;
  readonly additionalContexts?: unknown;
}

export type PreToolDecision =
  | { kind: 'allow' }
  | { kind: 'deny'; reason: string }
  | { kind: 'ask'; reason?: string };

export interface PostToolDecision {
  readonly kind: 'accept' | 'block';
  readonly additionalContexts?: readonly unknown[];
  readonly [key: string]: unknown;
}

/** A plugin notice: a user-role context entry stamped with its plugin source. */
export interface Notice {
  readonly id: string;
  readonly role: 'user';
  readonly content: readonly [TextBlock];
  readonly source: {
    readonly kind: 'plugin';
    readonly plugin: string;
    readonly form: 'notice';
    readonly summary: string;
  };
}

export interface PreStepPayload {
  readonly agent?: unknown;
  readonly messages?: unknown;
}

export type Dispose = () => void;

export interface ToolsService {
  guard(guard: (exec: ToolExecution) => string | undefined): Dispose;
}

/** The cordis context as this plugin uses it. */
export interface HostContext {
  readonly tools: ToolsService;
  on(
    event: 'tools/pre-execute',
    listener: (exec: ToolExecution, next: () => Promise<PreToolDecision>) => Promise<PreToolDecision>,
  ): Dispose;
  on(
    event: 'tools/post-execute',
    listener: (
      exec: ToolExecution,
      result: ToolResult,
      next: () => Promise<PostToolDecision>,
    ) => Promise<PostToolDecision>,
  ): Dispose;
  on(event: 'agent/pre-step', listener: (payload: PreStepPayload, next: () => unknown) => unknown): Dispose;
  /** `@deepseek-ai/dsh-session`: each record appended to a session's log, as it is appended (turns, approvals). */
  on(event: 'session/event', listener: (session: unknown, event: unknown) => void): Dispose;
  /** cordis: runs `callback` in a child context once the named services exist; used only for the optional settings service. */
  inject?(deps: readonly string[], callback: (ctx: unknown) => void): unknown;
  /** cordis: a service by name, or `undefined`; asked only whether an approval service is there (index.ts). */
  get?(name: string): unknown;
}

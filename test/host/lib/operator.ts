/**
 * A stand-in for a person at the keyboard, mounted as a plugin row in the real
 * DSH (by absolute path, `--patch` overlay). Two things a person does to a
 * running turn, each at a scripted point:
 *
 *   - types a message: after the `afterCall`-th tool call of the session has
 *     settled (a denied call counts: it passes through `tools/post-execute`
 *     too) it sends `text` into the running turn, the way the web UI's "steer"
 *     does (`agent.steer(createUserMessage({ source: { kind: 'user' } }))`).
 *     The agent loop claims it at the next step boundary, so `agent/pre-step`
 *     receives a human message in the middle of the turn;
 *   - presses Stop: `stopAfterMs` after the body of the `stopDuring`-th tool
 *     call started (`tools/execute`, around the body) it calls
 *     `agent.cancel({ kind: 'user' }, { keepInbox: true })`, what the web UI's
 *     stop button does (`dsh-host-apiproxy`). The running call ends aborted;
 *     the step's calls not yet started are logged as skipped. With
 *     `thenText`, it then types a follow-up that opens the next turn.
 *
 * DSH imports this file itself (Node 22 strips the types), so it is
 * self-contained: no relative imports, and the host package is imported by a
 * specifier held in a variable (the repository's typecheck runs before
 * `test/host/node_modules` exists).
 */

interface OperatorConfig {
  readonly afterCall?: number;
  readonly text?: string;
  readonly stopDuring?: number;
  readonly stopAfterMs?: number;
  readonly thenText?: string;
}

interface Agent {
  steer(message: unknown): void;
  followup(message: unknown): void;
  cancel(cause: { kind: 'user' }, options?: { keepInbox?: boolean }): void;
}

type Next = () => unknown;

interface OperatorContext {
  on(event: 'tools/post-execute', listener: (exec: { agent?: Agent }, result: unknown, next: Next) => unknown): () => void;
  on(event: 'tools/execute', listener: (exec: { agent?: Agent }, next: Next) => unknown): () => void;
}

const HOST_LLM = '@deepseek-ai/dsh-llm';

async function userMessage(text: string): Promise<unknown> {
  const { createUserMessage } = (await import(HOST_LLM)) as { createUserMessage: (input: unknown) => unknown };
  return createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } });
}

export const name = 'scripted-operator';
export const inject = ['tools'];

export const apply = (ctx: OperatorContext, config: OperatorConfig): (() => void) => {
  let settled = 0;
  let started = 0;
  const typing = ctx.on('tools/post-execute', async (exec, _result, next) => {
    settled += 1;
    if (settled === config.afterCall && config.text !== undefined && exec.agent !== undefined) exec.agent.steer(await userMessage(config.text));
    return next();
  });
  const stopping = ctx.on('tools/execute', (exec, next) => {
    started += 1;
    const agent = exec.agent;
    if (started === config.stopDuring && agent !== undefined) {
      setTimeout(() => {
        agent.cancel({ kind: 'user' }, { keepInbox: true });
        if (config.thenText !== undefined) void userMessage(config.thenText).then((message) => agent.followup(message));
      }, config.stopAfterMs ?? 300);
    }
    return next();
  });
  return () => {
    typing();
    stopping();
  };
};

export default { name, inject, apply };

/**
 * A stand-in for a person at the keyboard, mounted as a plugin row in the real
 * DSH (by absolute path, `--patch` overlay): after the `afterCall`-th tool call
 * of the session has settled (a denied call counts: it passes through
 * `tools/post-execute` too) it types `text` into the running turn, the way
 * the web UI's "steer" does (`agent.steer(createUserMessage({ source: { kind:
 * 'user' } }))`). The agent loop claims it at the next step boundary, so
 * `agent/pre-step` receives a human message in the middle of the turn.
 *
 * DSH imports this file itself (Node 22 strips the types), so it is
 * self-contained: no relative imports, and the host package is imported by a
 * specifier held in a variable (the repository's typecheck runs before
 * `test/host/node_modules` exists).
 */

interface OperatorConfig {
  readonly afterCall: number;
  readonly text: string;
}

interface Steerable {
  steer(message: unknown): void;
}

interface OperatorContext {
  on(event: 'tools/post-execute', listener: (exec: { agent?: Steerable }, result: unknown, next: () => unknown) => unknown): () => void;
}

const HOST_LLM = '@deepseek-ai/dsh-llm';

export const name = 'scripted-operator';
export const inject = ['tools'];

export const apply = (ctx: OperatorContext, config: OperatorConfig): (() => void) => {
  let settled = 0;
  return ctx.on('tools/post-execute', async (exec, _result, next) => {
    settled += 1;
    if (settled === config.afterCall && exec.agent !== undefined) {
      const { createUserMessage } = (await import(HOST_LLM)) as { createUserMessage: (input: unknown) => unknown };
      exec.agent.steer(createUserMessage({ content: [{ type: 'text', text: config.text }], source: { kind: 'user' } }));
    }
    return next();
  });
};

export default { name, inject, apply };

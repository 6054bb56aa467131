/**
 * The four hooks of a plugin, captured from `apply` without a pipeline around
 * them, so hostile inputs reach each hook directly and the bench measures the
 * hooks rather than a harness. Works for the port and the reference alike.
 */

type Listener = (...args: unknown[]) => unknown;
type Guard = (exec: unknown) => unknown;

export interface PluginLike {
  apply: (ctx: never, config?: never) => unknown;
}

export interface Hooks {
  /** `tools/pre-execute`; `next` answers allow. */
  pre(exec: unknown): Promise<unknown>;
  guard(exec: unknown): unknown;
  /** `tools/post-execute`; `next` answers accept. */
  post(exec: unknown, result: unknown): Promise<unknown>;
  /** `agent/pre-step`; `next` answers `undefined` unless given. */
  step(payload: unknown, next?: () => unknown): unknown;
  dispose(): void;
}

const ALLOW = Promise.resolve({ kind: 'allow' });
const ACCEPT = Promise.resolve({ kind: 'accept' });
const nextAllow = (): Promise<unknown> => ALLOW;
const nextAccept = (): Promise<unknown> => ACCEPT;
const nextContinue = (): unknown => undefined;

export function captureHooks(plugin: PluginLike, config?: unknown): Hooks {
  const on = new Map<string, Listener>();
  let guard: Guard | undefined;
  const ctx = {
    on(event: string, listener: Listener) {
      on.set(event, listener);
      return () => on.delete(event);
    },
    tools: {
      guard(g: Guard) {
        guard = g;
        return () => {
          guard = undefined;
        };
      },
    },
  };
  const apply = plugin.apply as (ctx: unknown, config?: unknown) => unknown;
  const teardown = config === undefined ? apply(ctx) : apply(ctx, config);
  const pre = on.get('tools/pre-execute');
  const post = on.get('tools/post-execute');
  const step = on.get('agent/pre-step');
  if (pre === undefined || post === undefined || step === undefined || guard === undefined) {
    throw new Error('the plugin did not register all four hooks');
  }
  const g = guard;
  return {
    pre: (exec) => Promise.resolve(pre(exec, nextAllow)),
    guard: (exec) => g(exec),
    post: (exec, result) => Promise.resolve(post(exec, result, nextAccept)),
    step: (payload, next = nextContinue) => step(payload, next),
    dispose() {
      if (typeof teardown === 'function') (teardown as () => void)();
    },
  };
}

/**
 * The hook wiring over one breaker, with its clock as a parameter: `apply` in
 * `src/index.ts` is `createApply({ now: Date.now })`, and tests mount a fake
 * clock the same way, so timed windows are deterministic. cordis passes only
 * `(ctx, config)`; a clock cannot come from YAML.
 */
import type { Dispose, HostContext, PostToolDecision, PreToolDecision } from './host.js';
import { createBreaker } from './breaker.js';
import { resolveConfig } from './config.js';
import { createDuplicateText } from './duplicate-text.js';

export interface PluginOptions {
  /** Milliseconds, as `Date.now` gives them; only the opt-in duplicated-context track reads it. */
  readonly now: () => number;
}

/** Runs a step of a hook; a fault inside the plugin must never break the tool pipeline. */
function safely<T>(step: () => T, fallback: T): T {
  try {
    return step();
  } catch {
    return fallback;
  }
}

function withNotices(downstream: PostToolDecision, owed: readonly unknown[]): PostToolDecision {
  if (owed.length === 0) return downstream;
  const later = Array.isArray(downstream?.additionalContexts) ? downstream.additionalContexts : [];
  return { ...downstream, additionalContexts: [...owed, ...later] };
}

/**
 * An `apply` that validates the config (throwing at load on a bad one) and
 * registers the hooks. It returns an arrow function on purpose: cordis calls a
 * constructible `apply` with `new` and then drops the teardown it returns.
 */
export function createApply(options: PluginOptions): (ctx: HostContext, config?: unknown) => () => void {
  return (ctx, config = {}) => {
    const cfg = resolveConfig(config);
    const breaker = createBreaker(cfg);
    const duplicates = cfg.duplicateText === null ? null : createDuplicateText(cfg.duplicateText, options.now);
    const disposers: Dispose[] = [
      ctx.on('tools/pre-execute', async (exec, next): Promise<PreToolDecision> => {
        return safely(() => breaker.ask(exec), undefined) ?? next();
      }),
      ctx.tools.guard((exec) => safely(() => breaker.guard(exec), undefined)),
      ctx.on('tools/post-execute', async (exec, result, next): Promise<PostToolDecision> => {
        const owed = safely(() => breaker.settle(exec, result), []);
        return withNotices(await next(), owed);
      }),
      ctx.on('agent/pre-step', (payload, next) => {
        safely(() => breaker.reset(payload), undefined);
        if (duplicates === null) return next();
        // The notice joins the messages the rest of the waterfall lets into the step
        // (`@deepseek-ai/dsh-agent-loop` appends each as a `user/message`).
        return Promise.resolve(next()).then((decision) => safely(() => duplicates.review(payload, decision), decision));
      }),
    ];
    return () => {
      for (const dispose of disposers) safely(dispose, undefined);
    };
  };
}

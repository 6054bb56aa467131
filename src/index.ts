/**
 * dsh-repeat-tool-breaker: escalating repeat and failure detection for DSH
 * tool calls. This file is wiring only: four registrations over the breaker.
 */
import type { Dispose, HostContext, PostToolDecision, PreToolDecision } from './lib/host.js';
import { createBreaker } from './lib/breaker.js';
import { resolveConfig } from './lib/config.js';
import { PLUGIN_NAME } from './lib/notice.js';

export { DEFAULTS, resolveConfig } from './lib/config.js';
export type { BreakerConfig, LocalHosts, OnLimit } from './lib/config.js';
export type { Progress, SequenceConfig } from './lib/config.js';
export type { HostContext, Notice, ToolExecution, ToolResult } from './lib/host.js';

export const name = PLUGIN_NAME;
/** cordis defers `apply` until the real `tools` service is up. */
export const inject = ['tools'];

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
 * Validates the config (throwing at load on a bad one) and registers the hooks.
 * An arrow function on purpose: cordis calls a constructible `apply` with `new`
 * and then drops the teardown it returns.
 */
export const apply = (ctx: HostContext, config: unknown = {}): (() => void) => {
  const breaker = createBreaker(resolveConfig(config));
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
      return next();
    }),
  ];
  return () => {
    for (const dispose of disposers) safely(dispose, undefined);
  };
};

export default { name, inject, apply };

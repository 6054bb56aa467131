/**
 * dsh-repeat-tool-breaker: escalating repeat and failure detection for DSH
 * tool calls. This file is the public surface only; the hooks are wired in
 * `lib/plugin.ts` over the breaker.
 */
import { createApply } from './lib/plugin.js';
import { PLUGIN_NAME } from './lib/notice.js';

export { DEFAULTS, resolveConfig } from './lib/config.js';
export type { BreakerConfig, DuplicateTextConfig, LocalHosts, OnLimit } from './lib/config.js';
export type { HostContext, Notice, ToolExecution, ToolResult } from './lib/host.js';

export const name = PLUGIN_NAME;
/** cordis defers `apply` until the real `tools` service is up. */
export const inject = ['tools'];

/**
 * Validates the config (throwing at load on a bad one) and registers the hooks
 * on the wall clock. An arrow function, so cordis calls it rather than `new`.
 */
export const apply = createApply({ now: Date.now });

export default { name, inject, apply };

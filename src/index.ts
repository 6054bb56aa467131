/**
 * dsh-repeat-tool-breaker: escalating repeat and failure detection for DSH
 * tool calls. This file is wiring only: four registrations over the breaker
 * and the tracks of a step's messages, one over the session log (the
 * operator's terminal and how asks were answered), and the live settings
 * namespace where the host has a settings service. The step's listener also
 * ends a turn whose loop the gate kept refusing (`stopAfter`, plugin/stop.ts).
 */
import type { Dispose, HostContext, Notice, PreToolDecision, PostToolDecision } from './lib/host/types.js';
import { createBreaker } from './lib/breaker/breaker.js';
import { resolveConfig } from './lib/config/config.js';
import { passOn, safely, safelyWith, withExplanation, withNotices } from './lib/plugin/hook.js';
import { PLUGIN_NAME } from './lib/text/notice.js';
import { createOperatorLocale, offerSettings } from './lib/plugin/settings.js';
import type { Locale } from './lib/text/locale.js';
import { noticesAdded } from './lib/plugin/log.js';
import { createMessageTracks } from './lib/plugin/pre-step.js';
import { createOperatorReport } from './lib/plugin/report.js';
import { stopStep } from './lib/plugin/stop.js';
import { toStderr, type Sink } from './lib/plugin/terminal.js';

export { DEFAULTS, resolveConfig } from './lib/config/config.js';
export { SETTINGS_NAMESPACE } from './lib/plugin/settings.js';
export type { BreakerConfig, DuplicateTextConfig, LocalHosts, OnLimit, Progress, SequenceConfig } from './lib/config/config.js';
export type { HostContext, Notice, ToolExecution, ToolResult } from './lib/host/types.js';

export const name = PLUGIN_NAME;
/** cordis defers `apply` until the real `tools` service is up. */
export const inject = ['tools'];

/** A call whose settling failed owes nothing. */
const NO_NOTICES: readonly Notice[] = Object.freeze([]);

export interface PluginOptions {
  /** Milliseconds, as `Date.now` gives them; only the tracks of a step's messages read it (the duplicated-context track). */
  readonly now: () => number;
  /** Where the operator's terminal lines go (plugin/terminal.ts); stderr when not given. */
  readonly terminal?: Sink;
}

/**
 * An `apply` over a given clock: `apply` below uses the wall clock, tests a
 * fake one (cordis passes only `(ctx, config)`; a clock cannot come from YAML).
 * It validates the config, throwing at load on a bad one, and returns an arrow
 * function on purpose: cordis calls a constructible `apply` with `new` and
 * then drops the teardown it returns.
 */
export function createApply(options: PluginOptions): (ctx: HostContext, config?: unknown) => () => void {
  return (ctx, config = {}) => {
    const cfg = resolveConfig(config);
    const operator = createOperatorLocale();
    // The ask is the operator's only where an approval panel shows it: without an approval
    // service DSH denies the call with the ask's reason, and then the model reads it (in English).
    const askLocale = (): Locale => (safely(() => ctx.get?.('approval') !== undefined, false) ? operator.current() : 'en');
    // The host's logger, the terminal, and how asks were answered (plugin/report.ts).
    const report = createOperatorReport(ctx, options.terminal ?? toStderr);
    const breaker = createBreaker(cfg, askLocale, report.hooks);
    const reviewOf = createMessageTracks(options.now);
    const disposers: Dispose[] = [
      // Synchronous, as the session appends: the turns for the terminal, an ask's answer before its call settles.
      ctx.on('session/event', (session, event) => report.record(session, event)),
      ctx.on('tools/pre-execute', (exec, next): Promise<PreToolDecision> => {
        const decision = safelyWith(breaker.ask, exec, undefined, undefined);
        return decision === undefined ? passOn(next) : Promise.resolve(decision);
      }),
      ctx.tools.guard((exec) => safelyWith(breaker.guard, exec, undefined, undefined)),
      ctx.on('tools/post-execute', (exec, result, next): Promise<PostToolDecision> => {
        const owed: readonly Notice[] = safelyWith(breaker.settle, exec, result, NO_NOTICES);
        const explanation = safelyWith(breaker.explain, exec, undefined, undefined);
        if (owed.length > 0) report.advise(safely(() => exec.agent, undefined), owed);
        const downstream = passOn(next);
        if (owed.length === 0 && explanation === undefined) return downstream;
        return downstream.then((decision) => {
          const noticed = withNotices(decision, owed);
          return safely(() => withExplanation(noticed, result, explanation), noticed);
        });
      }),
      ctx.on('agent/pre-step', (payload, next) => {
        safely(() => breaker.reset(payload), undefined);
        // A loop refused `stopAfter` times ends the turn here (plugin/stop.ts).
        const rejection = stopStep(breaker, report, payload);
        if (rejection !== undefined) return Promise.resolve(rejection);
        // After the reset, so that a human message brings the latest settings.
        const review = safely(() => {
          const agent: unknown = payload.agent;
          return typeof agent === 'object' && agent !== null ? reviewOf(breaker.configOf(agent)) : null;
        }, null);
        if (review === null) return next();
        // A notice joins the messages the rest of the waterfall lets into the step
        // (`@deepseek-ai/dsh-agent-loop` appends each as a `user/message`).
        return Promise.resolve(next()).then((decision) =>
          safely(() => {
            const reviewed = review(payload, decision);
            if (reviewed !== decision) report.advise(payload.agent, noticesAdded(decision, reviewed));
            return reviewed;
          }, decision),
        );
      }),
    ];
    const settings = offerSettings(ctx, config, cfg, (next) => breaker.configure(next), operator);
    if (settings !== undefined) disposers.push(settings);
    return () => {
      for (const dispose of disposers) safely(dispose, undefined);
    };
  };
}

export const apply = createApply({ now: Date.now });

export default { name, inject, apply };

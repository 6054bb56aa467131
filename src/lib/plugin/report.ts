/**
 * Everything the plugin tells the operator besides the gate's own texts, put
 * together for the wiring: the host's logger, one line per gate and per
 * advisory (log.ts); the terminal, fewer lines and a summary per turn
 * (terminal.ts); and how each ask was answered, which both the terminal and
 * the refused call's denial read (approvals.ts).
 */
import type { BreakerHooks } from '../breaker/breaker.js';
import { safeMember } from '../host/member.js';
import type { Notice } from '../host/types.js';
import { createApprovals } from './approvals.js';
import { safely } from './hook.js';
import { hostLog, logAdvisories, logGates } from './log.js';
import { createTerminal, type Sink } from './terminal.js';
import { stopSummary, type StopFacts } from '../text/stop.js';

export interface OperatorReport {
  /** What the breaker tells (createBreaker's hooks). */
  readonly hooks: BreakerHooks;
  /** The advisories a call or a step earned, for the agent they went to. */
  advise(agent: unknown, notices: readonly Notice[]): void;
  /** `session/event`: a record appended to a session's log. */
  record(session: unknown, event: unknown): void;
  /** The breaker is ending the agent's turn (`stopAfter`). */
  stopped(agent: unknown, facts: StopFacts): void;
}

export function createOperatorReport(ctx: unknown, sink: Sink): OperatorReport {
  const log = hostLog(ctx);
  const logGate = logGates(log);
  const terminal = createTerminal(sink);
  const get = safeMember(ctx, 'get');
  const approvals = createApprovals(typeof get === 'function' ? () => Reflect.apply(get, ctx, ['approval']) as unknown : undefined);
  return {
    hooks: {
      gate(event) {
        logGate(event);
        terminal.gate(event);
      },
      passed: terminal.passed,
      outcomeOf: approvals.outcomeOf,
    },
    advise(agent, notices) {
      logAdvisories(log, notices);
      safely(() => terminal.advisories(agent, notices), undefined);
    },
    record(session, event) {
      safely(() => approvals.record(session, event), undefined);
      safely(() => terminal.record(session, event), undefined);
    },
    stopped(agent, facts) {
      log(`stop: ${stopSummary(facts)}`);
      safely(() => terminal.stopped(agent, facts), undefined);
    },
  };
}

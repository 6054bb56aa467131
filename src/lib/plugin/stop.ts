/**
 * Ending a turn (`stopAfter`, breaker.ts's stop): at the agent's next model
 * step, `agent/pre-step` answers `{ kind: 'reject' }` and rc.8 ends the turn
 * "blocked" (docs/operator.md). rc.8 shows nothing of a blocked turn: headless
 * prints nothing and exits 1, the web UI's conversation just stops. So, before
 * rejecting, the breaker says why where each person is:
 *
 * - a notice appended to the agent's session as a `user/message`: the web UI
 *   shows it at once as a notice row ("Context injection · repeat-tool-breaker
 *   · turn ended after 3 refused calls: …"), and the model reads it at the
 *   start of its next turn;
 * - the terminal: the turn's end writes the stop's line in place of its
 *   summary (plugin/terminal.ts).
 *
 * Neither can change the decision, and neither may throw into the host.
 */
import type { Notice, PreStepPayload } from '../host/types.js';
import { safeMember } from '../host/member.js';
import type { Breaker, Stop } from '../breaker/breaker.js';
import { quoteParts } from '../text/message.js';
import { createNotice } from '../text/notice.js';
import { stopSummary, stopText, type StopFacts } from '../text/stop.js';
import { safely } from './hook.js';
import type { OperatorReport } from './report.js';

/** The step's decision when the breaker ends the turn. */
export type Rejection = { readonly kind: 'reject' };

/** The measures that name a call as an operator reads it: the command, not the call's whole JSON. */
const READABLE: ReadonlySet<string> = new Set(['cmd', 'act']);

/**
 * What the stop's texts say of it. The loop is named by its most readable hit:
 * DSH cuts the notice row at its width, and `cmd “echo:echo …”` fits where
 * `exact “bash:{"command":…` spends it on JSON.
 */
export function stopFacts(stop: Stop): StopFacts {
  const first = stop.hits[0];
  const readable =
    stop.hits.find((hit) => READABLE.has(quoteParts(hit.quote).measure ?? '')) ??
    // The call itself (`exact:`) is named by its command when it has one: the same call, said shorter.
    (first !== undefined && quoteParts(first.quote).measure === 'exact' ? stop.marks.find((mark) => READABLE.has(mark.measure)) : undefined);
  return { name: stop.name, hit: readable === undefined ? first : { quote: readable.quote }, knocks: stop.knocks, stopAfter: stop.stopAfter };
}

/** The notice logged in the blocked turn, as DSH logs the messages a step enters (`@deepseek-ai/dsh-agent-loop`). */
function appendToSession(agent: unknown, notice: Notice): void {
  const session = safeMember(agent, 'session');
  const append = safeMember(session, 'append');
  if (typeof append === 'function') Reflect.apply(append, session, ['user/message', notice, { surfaceOp: 'append' }]);
}

/** The step's rejection when a stop is owed to its agent, said to the session and the terminal first; `undefined` to go on. */
export function stopStep(breaker: Breaker, report: OperatorReport, payload: PreStepPayload): Rejection | undefined {
  const stop = safely(() => breaker.stop(payload), undefined);
  if (stop === undefined) return undefined;
  const facts = stopFacts(stop);
  safely(() => appendToSession(stop.agent, createNotice(stopText(facts), stopSummary(facts))), undefined);
  report.stopped(stop.agent, facts);
  return { kind: 'reject' };
}

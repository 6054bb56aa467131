/**
 * The live trajectory of a recorded session, as the plugin shaped it: for
 * every tool call in log order, whether it ran or was denied (and by whom),
 * and the breaker notices that entered the conversation right after it.
 * This is what a replay of the log must reproduce (`recorded.json`).
 *
 * How DSH 0.1.0-rc.8 logs it (seen in the recorded corpus):
 *   - `tool/call {callId, name}` then, once settled, `tool/result` carrying a
 *     `tool-result` block for that call id;
 *   - a notice the plugin returned from `tools/post-execute` is spliced into
 *     the inbox for the next step right after that call's result
 *     (`agent/inbox/spliced`, target `next-step`, the message with its id in
 *     `inserted`) and logged when the next step starts, as a `user/message`
 *     with the same id whose `source` is `{ kind: 'plugin', plugin:
 *     'repeat-tool-breaker', summary }`. After a step of several calls that is
 *     after the step's last result, so the splice, not the message, says
 *     which call the notice came from;
 *   - an ask is `approval/asked {id, callId}` then `approval/decided {id,
 *     outcome}`; with no answerer the outcome is `unavailable` and the call's
 *     result is the host's "requires approval, but no approval channel is
 *     available" error;
 *   - calls of one step carry the same `turn`/`step`; parallel-safe ones run as
 *     a pool, so their `tool/call` records come together and their results
 *     after, in model order;
 *   - a call the turn was stopped before has a `tool/call` and a synthetic
 *     `tool/result` with error code `ABORTED_BEFORE_DISPATCH`, no ask: skipped.
 */
import type { TrajectoryEntry } from '../../../tools/lib/trajectory.js';
import type { SessionLog } from './session-log.js';

export type { TrajectoryEntry };

export const BREAKER_PLUGIN = 'repeat-tool-breaker';
const BLOCKED = 'Error: REPEAT_TOOL_BLOCKED';
/** The only approval outcome that grants (`@deepseek-ai/dsh-user-approval` 0.1.0-rc.8). */
const GRANTED = 'allowed-once';

function noticeLabel(data: any): string {
  const summary = data?.source?.summary;
  if (typeof summary === 'string') return summary;
  // A notice without a summary is identified by the first line of its text.
  const first = Array.isArray(data?.content) ? data.content.find((b: any) => b?.type === 'text') : undefined;
  return typeof first?.text === 'string' ? first.text.split('\n')[0]!.slice(0, 120) : '';
}

export function liveTrajectory(log: SessionLog): TrajectoryEntry[] {
  // Which calls the approval layer refused: asked, then decided without a grant.
  const askedCall = new Map<string, string>();
  const refused = new Set<string>();
  const notices = new Map<string, string[]>();
  /** Message id → the call whose result its splice followed. */
  const splicedAfter = new Map<string, string>();
  let lastSettled: string | undefined;
  for (const record of log.records) {
    const data: any = record.data ?? {};
    if (record.type === 'approval/asked' && typeof data.callId === 'string') askedCall.set(String(data.id), data.callId);
    if (record.type === 'approval/decided') {
      const callId = askedCall.get(String(data.id));
      if (callId !== undefined && data.outcome !== GRANTED) refused.add(callId);
    }
    if (record.type === 'tool/result') {
      for (const block of data.message?.content ?? []) if (block?.type === 'tool-result') lastSettled = String(block.toolCallId);
    }
    if (record.type === 'agent/inbox/spliced' && lastSettled !== undefined) {
      for (const message of data.inserted ?? []) if (typeof message?.id === 'string') splicedAfter.set(message.id, lastSettled);
    }
    if (record.type === 'user/message' && data.source?.kind === 'plugin' && data.source?.plugin === BREAKER_PLUGIN) {
      const from = splicedAfter.get(String(data.id)) ?? lastSettled;
      if (from === undefined) throw new Error(`${log.path}: a breaker notice (seq ${String(record.seq)}) precedes every tool result`);
      notices.set(from, [...(notices.get(from) ?? []), noticeLabel(data)]);
    }
  }
  return log.steps.map((step, i) => {
    if (!step.settled) throw new Error(`${log.path}: call ${i + 1} (${step.callId}) has no result`);
    const base = { call: i + 1, tool: step.name };
    const said = notices.get(step.callId) ?? [];
    if (step.skipped) return { ...base, outcome: 'skipped', notices: said };
    if (step.isError && step.text.startsWith(BLOCKED)) return { ...base, outcome: 'denied', by: 'plugin', notices: said };
    if (step.isError && refused.has(step.callId)) return { ...base, outcome: 'denied', by: 'approval', notices: said };
    return { ...base, outcome: 'ran', notices: said };
  });
}

/**
 * Sessions of the web host over its HTTP API (as the browser's own client
 * calls it), and their logs read back from disk: `session.create`,
 * `session.prompt`, then the plain-JSONL log the profile is set to write.
 */
import { findSessionLogs, readSessionLog, type SessionLog } from '../../host/lib/session-log.js';
import { until } from './cdp.js';
import type { WebHost } from './web-host.js';

export async function createSession(host: WebHost, cwd: string): Promise<string> {
  const created = await host.rpc('session.create', { cwd });
  const id = (created.value as { sessionId?: unknown } | undefined)?.sessionId;
  if (!created.ok || typeof id !== 'string') throw new Error(`session.create failed: ${JSON.stringify(created)}`);
  return id;
}

/** Queues a human message, as the composer does. */
export async function prompt(host: WebHost, sessionId: string, text: string): Promise<void> {
  const sent = await host.rpc('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] });
  if (!sent.ok) throw new Error(`session.prompt failed: ${JSON.stringify(sent)}`);
}

export function sessionLog(home: string, sessionId: string): SessionLog | undefined {
  const path = findSessionLogs(home).find((p) => p.includes(`/${sessionId}/`));
  return path === undefined ? undefined : readSessionLog(path);
}

/** Polls the session's log until `turns` turns have ended. */
export function turnsEnded(home: string, sessionId: string, turns: number, timeoutMs = 60_000): Promise<SessionLog> {
  return until(`${turns} ended turn(s) in the log of ${sessionId}`, () => {
    const log = sessionLog(home, sessionId);
    return log !== undefined && log.turnsEnded >= turns ? log : undefined;
  }, timeoutMs, 200);
}

/** Polls the session's log until an approval has been asked `count` times; returns the last reason. */
export function approvalAsked(home: string, sessionId: string, count: number, timeoutMs = 60_000): Promise<string> {
  return until(`approval #${count} asked in ${sessionId}`, () => {
    const asked = sessionLog(home, sessionId)?.approvalsAsked ?? [];
    return asked.length >= count ? (asked[count - 1]!.reason ?? '') : undefined;
  }, timeoutMs, 200);
}

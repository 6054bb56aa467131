/**
 * The operator's log: the host's logger (cordis `ctx.logger`), at `info`, one
 * line per gate and per advisory (text/log-line.ts). DSH 0.1.0-rc.8 attaches no
 * exporter that prints, in headless or web, so there the lines stay in cordis'
 * in-memory buffer (docs/host-verification.md); a DSH, or a plugin of the
 * operator's, that exports the logger shows them. `info`, not `warn`: an
 * exporter without levels of its own takes `info` and drops `warn`.
 */
import type { Notice } from '../host/types.js';
import { safeMember } from '../host/member.js';
import { advisoryLine, gateLine } from '../text/log-line.js';
import { PLUGIN_NAME } from '../text/notice.js';
import type { GateEvent } from '../breaker/breaker.js';

/** Writes one line; never throws. */
export type LogLine = (line: string) => void;

/** Where the host has no logger: the line is dropped, so it is not written at all (`logGates`). */
export const NO_LOG: LogLine = () => undefined;

/** The host logger's `info`, or `NO_LOG` where the host has none. */
export function hostLog(ctx: unknown): LogLine {
  const logger = safeMember(ctx, 'logger');
  // cordis' logger is a callable service: a function with methods, which `safeMember` does not read.
  let info: unknown;
  try {
    info = typeof logger === 'function' || typeof logger === 'object' ? (logger as { info?: unknown } | null)?.info : undefined;
  } catch {
    info = undefined;
  }
  if (typeof info !== 'function') return NO_LOG;
  return (line) => {
    try {
      // The first argument is a format (`%s`, `%d`, `%o`, `%C` … are placeholders): a line with
      // a model's `%` in it must be a parameter, never the format.
      Reflect.apply(info, logger, ['%s', line]);
    } catch {
      // A logger that throws loses the line, never the call.
    }
  };
}

/**
 * Logs each gate: every ask, denial and exemption ceiling reached, the full record (the
 * terminal shows fewer, plugin/terminal.ts). How an ask was answered is the
 * terminal's to say; the log keeps the lines it has always had.
 */
export function logGates(log: LogLine): (event: GateEvent) => void {
  // A fifth of a loop's calls are gated: rendering lines no logger takes is a few per cent of a call.
  if (log === NO_LOG) return () => undefined;
  return ({ outcome, name, hits }) => {
    if (outcome !== 'approved' && outcome !== 'refused') log(gateLine(outcome, name, hits));
  };
}

/** Logs each advisory among a call's notices. */
export function logAdvisories(log: LogLine, notices: readonly Notice[]): void {
  for (const notice of notices) {
    const summary = safeMember(safeMember(notice, 'source'), 'summary');
    if (typeof summary === 'string') log(advisoryLine(summary));
  }
}

/** The notices a pre-step review appended to the step's messages (the duplicated-context track's). */
export function noticesAdded(before: unknown, after: unknown): Notice[] {
  const was = safeMember(before, 'messages');
  const now = safeMember(after, 'messages');
  if (!Array.isArray(was) || !Array.isArray(now)) return [];
  return now.slice(was.length).filter((message): message is Notice => safeMember(safeMember(message, 'source'), 'plugin') === PLUGIN_NAME);
}

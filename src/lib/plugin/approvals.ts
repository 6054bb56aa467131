/**
 * How the breaker's asks were answered, as DSH records it. rc.8's approval
 * service (`@deepseek-ai/dsh-user-approval`) appends to the asking agent's
 * session an `approval/asked` record (`{ id, toolName, callId, reason }`), then
 * an `approval/decided` one (`{ id, outcome }`: `allowed-once`, `rejected`,
 * `cancelled`, `unavailable`), and `session/event` hands each record to plugins
 * as it is appended: before the call's guard or post-execute runs, so the
 * breaker knows the answer when it settles a refusal (docs/operator.md).
 *
 * `rejected` is an operator's no only under the approval policy `ask`: under
 * `never` (`DSH_PERMISSION_MODE=danger-full-access`, approval prompts off) the
 * service rejects every ask without asking anyone. `unavailable` is an ask no
 * one could answer (headless has no answerer), and a DSH with no approval
 * service denies the ask itself: both are `unattended`.
 */
import type { Agent } from '../host/types.js';
import { safeMember } from '../host/member.js';
import { keep } from '../memory/book.js';
import type { AskOutcome } from '../text/message.js';

/** Asks a session's book keeps while their answers wait to be read: the breaker reads each at once. */
const KEPT = 64;

export interface Approvals {
  /** `session/event`: reads a session's `approval/asked` and `approval/decided` records. */
  record(session: unknown, event: unknown): void;
  /** How the ask about the agent's call `callId` ended; `undefined` when it was approved, or the host did not say. */
  outcomeOf(agent: Agent, callId: string | undefined): AskOutcome | undefined;
}

interface Book {
  /** Ask id → the call it is about. */
  readonly asked: Map<string, string>;
  /** Call id → how its ask ended (`null`: approved). */
  readonly decided: Map<string, AskOutcome | null>;
}

/** A method of a host object, called; anything else reads as `undefined`. */
function invoke(holder: unknown, key: string, ...args: unknown[]): unknown {
  const method = safeMember(holder, key);
  return typeof method === 'function' ? Reflect.apply(method, holder, args) : undefined;
}

/**
 * `approval` reads the host's approval service (`ctx.get('approval')`), or is
 * `undefined` where the host cannot be asked (no `ctx.get`): then an ask the
 * host did not record stays unknown.
 */
export function createApprovals(approval: (() => unknown) | undefined): Approvals {
  const books = new WeakMap<object, Book>();
  /** The session's approval policy: its own `approval/policy`, else the service's default. */
  const policyOf = (session: object): unknown => {
    const service = approval?.();
    return invoke(service, 'overrideOf', session) ?? safeMember(safeMember(service, 'config'), 'policy');
  };
  const outcome = (decided: unknown, session: object): AskOutcome | null | undefined => {
    if (decided === 'allowed-once') return null;
    if (decided === 'unavailable') return 'unattended';
    if (decided === 'cancelled') return 'cancelled';
    if (decided === 'rejected') return policyOf(session) === 'never' ? 'unattended' : 'rejected';
    return undefined;
  };
  return {
    record(session, event) {
      const type = safeMember(event, 'type');
      if ((type !== 'approval/asked' && type !== 'approval/decided') || typeof session !== 'object' || session === null) return;
      const data = safeMember(event, 'data');
      const id = safeMember(data, 'id');
      if (typeof id !== 'string') return;
      let book = books.get(session);
      if (book === undefined) books.set(session, (book = { asked: new Map(), decided: new Map() }));
      if (type === 'approval/asked') {
        const callId = safeMember(data, 'callId');
        if (typeof callId === 'string') keep(book.asked, id, callId, KEPT);
        return;
      }
      const callId = book.asked.get(id);
      book.asked.delete(id);
      const ended = outcome(safeMember(data, 'outcome'), session);
      if (callId !== undefined && ended !== undefined) keep(book.decided, callId, ended, KEPT);
    },
    outcomeOf(agent, callId) {
      const session = safeMember(agent, 'session');
      const book = typeof session === 'object' && session !== null ? books.get(session) : undefined;
      const ended = callId === undefined ? undefined : book?.decided.get(callId);
      if (ended !== undefined) {
        (book as Book).decided.delete(callId as string);
        return ended ?? undefined;
      }
      // Without an approval service DSH denies an ask itself, with the ask's own reason: no one was asked.
      return approval !== undefined && approval() === undefined ? 'unattended' : undefined;
    },
  };
}

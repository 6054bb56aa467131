/**
 * What every hook registration shares: a fault inside the plugin lets the call
 * through, and the notices a call earned go ahead of later plugins' contexts.
 */
import type { PostToolDecision } from '../host/types.js';
import { member } from '../host/member.js';

/** Runs a step of a hook; a fault inside the plugin must never break the tool pipeline. */
export function safely<T>(step: () => T, fallback: T): T {
  try {
    return step();
  } catch {
    return fallback;
  }
}

/**
 * `safely(() => step(a, b), fallback)` for the hooks every call passes: the
 * step and its arguments are handed over, so no closure is made per call.
 */
export function safelyWith<A, B, T>(step: (a: A, b: B) => T, a: A, b: B, fallback: T): T {
  try {
    return step(a, b);
  } catch {
    return fallback;
  }
}

/**
 * The rest of the waterfall's decision as a promise, as an `async` listener
 * would hand it on (a throw downstream becomes a rejection), without the two
 * extra turns of the microtask queue an `async` wrapper costs every call.
 */
export function passOn<T>(next: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(next());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * `{ ...decision, [key]: value }`, written out: on Node 20 a key added to a
 * spread copy takes a slow path (several µs a call). `Object.assign` copies
 * the same keys in the same order; only an own `__proto__` key, which it
 * would set as the prototype, keeps the spread.
 */
function withKey(decision: PostToolDecision, key: string, value: unknown): PostToolDecision {
  if (typeof decision === 'object' && decision !== null && Object.hasOwn(decision, '__proto__')) return { ...decision, [key]: value };
  const copy: Record<string, unknown> = Object.assign({}, decision);
  copy[key] = value;
  return copy as PostToolDecision;
}

/** The downstream decision with the call's notices ahead of any a later plugin attached. */
export function withNotices(downstream: PostToolDecision, owed: readonly unknown[]): PostToolDecision {
  if (owed.length === 0) return downstream;
  const later = Array.isArray(downstream?.additionalContexts) ? downstream.additionalContexts : [];
  return withKey(downstream, 'additionalContexts', [...owed, ...later]);
}

/**
 * The host's result for a call whose ask was not approved (`Error: the user
 * rejected tool "bash"`), with the breaker's denial on the next line (P13).
 * It joins the host's last text block: rc.8's DeepSeek adapter sends a tool
 * result's text blocks to the model joined with nothing between them. Only an
 * `accept` is extended, as rc.8 applies `content` to it and keeps the call an
 * error; a later plugin's own content, value or block is left as it is.
 */
export function withExplanation(downstream: PostToolDecision, result: unknown, explanation: string | undefined): PostToolDecision {
  if (explanation === undefined || downstream?.kind !== 'accept' || 'content' in downstream || 'value' in downstream) return downstream;
  const content = member(result, 'content');
  const blocks: unknown[] = Array.isArray(content) ? [...content] : [];
  const last = blocks[blocks.length - 1];
  const text = member(last, 'text');
  if (member(last, 'type') === 'text' && typeof text === 'string') blocks[blocks.length - 1] = { type: 'text', text: `${text}\n${explanation}` };
  else blocks.push({ type: 'text', text: explanation });
  return withKey(downstream, 'content', blocks);
}

/**
 * What the model and the operator read. Each text starts with its protocol token
 * (REPEAT_TOOL_BLOCKED: or CONVERGENCE_CHECK:) and carries the parts listed in
 * §5 of the contract; the wording is this project's own.
 */
import type { Failure } from './failure.js';
import { describeFailure } from './failure.js';
import { member } from './member.js';

/** One blocking or warning finding against a measure of the current call. */
export interface Hit {
  readonly quote: string;
  readonly track: 'repeat' | 'failure' | 'sequence';
  /** Occurrences including this call (repeat), the consecutive failures (failure), or the cycle's completed repetitions (sequence). */
  readonly count: number;
  readonly cap: number;
  readonly failure: Failure | null;
}

/** Head of a text, with a marker saying how much was left out. */
export function preview(text: unknown, cap: number): string {
  let value: string;
  try {
    value = text === null || text === undefined ? '' : String(text);
  } catch {
    value = '';
  }
  if (value.length <= cap) return value;
  return `${value.slice(0, cap)}\u2026 (+${value.length - cap} more chars)`;
}

/**
 * The first `limit` characters of a result's non-empty text blocks joined by
 * newlines. Stops reading once it has enough, so a huge result costs nothing extra.
 */
export function renderHead(result: unknown, limit: number): string {
  try {
    const content = member(result, 'content');
    if (!Array.isArray(content)) return '';
    const parts: string[] = [];
    let length = 0;
    for (const block of content) {
      if (length >= limit) break;
      const text = member(block, 'text');
      if (typeof text !== 'string' || text === '') continue;
      if (parts.length > 0) length += 1;
      parts.push(text.length > limit ? text.slice(0, limit) : text);
      length += text.length;
    }
    const joined = parts.join('\n');
    return joined.length > limit ? joined.slice(0, limit) : joined;
  } catch {
    return '';
  }
}

/** The whole text of a result, as the model reads it. */
export function renderResult(result: unknown): string {
  return renderHead(result, Number.POSITIVE_INFINITY);
}

/** Quoted text must never look like tool-call template markup to the model's chat template. */
export function defang(text: string): string {
  return text.replace(/<(\/?)(tool_call|function=)/g, '\u2039$1$2');
}

function hitLine(hit: Hit): string {
  if (hit.track === 'sequence') return `- ${defang(hit.quote)} \u2014 a cycle repeated ${hit.count} times back to back (limit ${hit.cap})`;
  return hit.track === 'repeat'
    ? `- ${defang(hit.quote)} ${hit.count}/${hit.cap}`
    : `- ${defang(hit.quote)} \u2014 ${hit.count} consecutive failures (${describeFailure(hit.failure)})`;
}

function tracksOf(hits: readonly Hit[]): string {
  const named = (['repeat', 'failure', 'sequence'] as const).filter((track) => hits.some((hit) => hit.track === track));
  if (named.length < 2) return `the ${named[0] ?? 'repeat'} track`;
  return `the ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]} tracks`;
}

export interface Denial {
  readonly name: string;
  readonly hits: readonly Hit[];
  readonly lastResult: string;
  readonly resultPreviewChars: number;
  /** Every blocking measure was put to the operator this turn and not approved. */
  readonly refused: boolean;
}

/** The guard's denial: the model's only new information, so it says what to do next. */
export function denyMessage(denial: Denial): string {
  const { name, hits, lastResult, resultPreviewChars, refused } = denial;
  const lines = [
    `REPEAT_TOOL_BLOCKED: this \`${name}\` call was stopped before it ran, by ${tracksOf(hits)} of the loop breaker.`,
    ...hits.map(hitLine),
    'Changing the description, timeoutMs, --max-time or the spelling of the host does not make it a new action.',
  ];
  if (refused) {
    lines.push('An exemption for these measures was asked of the operator and not granted; they stay blocked until the next human message.');
  }
  if (hits.some((hit) => hit.track === 'failure')) {
    lines.push('Only calls that carry the failing measure are blocked: a different call (reading the error log, searching the code, another endpoint) will run.');
  }
  if (hits.some((hit) => hit.track === 'sequence')) {
    lines.push('Only the call that would go round the cycle again is blocked: a call that breaks the cycle will run.');
  }
  lines.push(
    lastResult === ''
      ? 'The previous result is already in the conversation history.'
      : `Previous result (head):\n${defang(preview(lastResult, resultPreviewChars))}`,
  );
  lines.push('Instead: use the result you already have, take a genuinely different action, or answer with what you know now.');
  return lines.join('\n');
}

/** Occurrence stage 1: a nudge, demanding nothing. */
export function warnMessage(quote: string, count: number): string {
  return (
    `CONVERGENCE_CHECK: ${defang(quote)} has come up ${count} times in your recent calls this turn. ` +
    'Nothing is blocked. Before the next call, ask whether a different route would reach the answer sooner.'
  );
}

/** Occurrence stage 2: the model writes down where it stands before going on. */
export function summarizeMessage(quote: string, count: number): string {
  return [
    `CONVERGENCE_CHECK: ${defang(quote)} has come up ${count} times in your recent calls this turn. Before your next call, write down:`,
    '1. what you have established, and how you know it;',
    '2. what you assumed without checking;',
    '3. what failed, and why;',
    '4. at least two approaches you have not tried yet.',
    'If you are working through items in batches, take more of them in each call so that fewer calls are needed.',
  ].join('\n');
}

/** Failure stage 1: the target keeps failing; fix the cause rather than re-run. */
export function failWarnMessage(quote: string, streak: number, failure: Failure | null): string {
  return (
    `CONVERGENCE_CHECK: ${defang(quote)} has failed ${streak} times in a row (${describeFailure(failure)}). ` +
    'Running it again will not change that. Read the error, check that the target exists and is spelled right, and fix the cause before retrying.'
  );
}

/** Sequence advisory: a cycle of different calls has come round `repetitions` times in a row. */
export function cycleMessage(quote: string, period: number, repetitions: number, limit: number | null): string {
  const gate = limit === null ? 'Nothing is blocked.' : `Nothing is blocked yet; after ${limit} repetitions, the next call that continues the cycle meets the gate.`;
  return [
    `CONVERGENCE_CHECK: your recent calls are one cycle of ${period} different calls, repeated ${repetitions} times back to back this turn:`,
    defang(quote),
    `${gate} Going round again is unlikely to find anything new. Write down what the cycle was meant to find out, then take a different route or answer with what you have.`,
  ].join('\n');
}

/** The denial once an approved exemption's allowance is used up (exemption ceiling). */
export function spentMessage(name: string, quotes: readonly string[], ceiling: number, lastResult: string, resultPreviewChars: number): string {
  return [
    `REPEAT_TOOL_BLOCKED: this \`${name}\` call was stopped before it ran: the operator's approval for these measures is used up.`,
    ...quotes.map((quote) => `- ${defang(quote)}`),
    `The approved allowance of ${ceiling} ${ceiling === 1 ? 'call' : 'calls'} is spent; they are denied without asking again until the next human message resets it.`,
    lastResult === ''
      ? 'The previous result is already in the conversation history.'
      : `Previous result (head):\n${defang(preview(lastResult, resultPreviewChars))}`,
    'Instead: use the result you already have, take a genuinely different action, or answer with what you know now.',
  ].join('\n');
}

/** The operator's prompt at the gate: what hit, and what each answer does. */
export function askMessage(name: string, hits: readonly Hit[], ceiling: number | null = null): string {
  const repeats = hits.filter((hit) => hit.track === 'repeat');
  const failures = hits.filter((hit) => hit.track === 'failure');
  const lines = [`Loop breaker: this \`${name}\` call is about to be blocked.`];
  if (failures.length > 0) lines.push('Failing measures:', ...failures.map(hitLine));
  if (repeats.length > 0) lines.push('Repeated measures:', ...repeats.map(hitLine));
  const cycles = hits.filter((hit) => hit.track === 'sequence');
  if (cycles.length > 0) lines.push('Repeated cycles:', ...cycles.map(hitLine));
  lines.push(
    ceiling === null
      ? 'Approve to let it run and stop counting these measures for the rest of this turn.'
      : `Approve to let it run and allow ${ceiling} more ${ceiling === 1 ? 'call' : 'calls'} that use these measures this turn; the one after is denied without asking.`,
    'Decline to keep them blocked until the next human message.',
  );
  return lines.join('\n');
}

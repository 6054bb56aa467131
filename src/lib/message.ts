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
  readonly track: 'repeat' | 'failure';
  /** Occurrences including this call (repeat) or the consecutive failures (failure). */
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
  return hit.track === 'repeat'
    ? `- ${defang(hit.quote)} ${hit.count}/${hit.cap}`
    : `- ${defang(hit.quote)} \u2014 ${hit.count} consecutive failures (${describeFailure(hit.failure)})`;
}

function tracksOf(hits: readonly Hit[]): string {
  const repeat = hits.some((hit) => hit.track === 'repeat');
  const failure = hits.some((hit) => hit.track === 'failure');
  if (repeat && failure) return 'the repeat and failure tracks';
  return failure ? 'the failure track' : 'the repeat track';
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

/** The operator's prompt at the gate: what hit, and what each answer does. */
export function askMessage(name: string, hits: readonly Hit[]): string {
  const repeats = hits.filter((hit) => hit.track === 'repeat');
  const failures = hits.filter((hit) => hit.track === 'failure');
  const lines = [`Loop breaker: this \`${name}\` call is about to be blocked.`];
  if (failures.length > 0) lines.push('Failing measures:', ...failures.map(hitLine));
  if (repeats.length > 0) lines.push('Repeated measures:', ...repeats.map(hitLine));
  lines.push(
    'Approve to let it run and stop counting these measures for the rest of this turn.',
    'Decline to keep them blocked until the next human message.',
  );
  return lines.join('\n');
}

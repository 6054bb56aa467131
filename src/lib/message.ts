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

/** Characters of a result's text as `renderResult` would join them, without joining them. */
function renderedLength(result: unknown): number {
  try {
    const content = member(result, 'content');
    if (!Array.isArray(content)) return 0;
    let length = -1;
    for (const block of content) {
      const text = member(block, 'text');
      if (typeof text === 'string' && text !== '') length += text.length + 1;
    }
    return Math.max(length, 0);
  } catch {
    return 0;
  }
}

/**
 * A result as a denial quotes it: its first `limit` characters, and when more
 * was cut, the same marker a cut fingerprint carries.
 */
export function quoteResult(result: unknown, limit: number): string {
  const head = renderHead(result, limit);
  const total = renderedLength(result);
  return total > head.length ? `${head}\u2026 (+${total - head.length} more chars)` : head;
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

const TRACKS = ['repeat', 'failure', 'sequence'] as const;

function tracksOf(hits: readonly Hit[]): string {
  const named = TRACKS.filter((track) => hits.some((hit) => hit.track === track));
  if (named.length < 2) return `the ${named[0] ?? 'repeat'} track`;
  return `the ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]} tracks`;
}

/** Longest tool name a first line quotes: the reason must stay on the one line a blocked row shows. */
const NAME_CHARS = 40;

/** A tool name as a sentence names it: cut when long, never tool-call markup. */
function toolName(name: string): string {
  return defang(name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}\u2026` : name);
}

/** Why a hit blocks, in a few words: what the first line of a denial says. */
function why(hit: Hit): string {
  if (hit.track === 'failure') return `it failed ${hit.count} times in a row (limit ${hit.cap})`;
  if (hit.track === 'sequence') return `a cycle of calls repeated ${hit.count} times (limit ${hit.cap})`;
  return `repeated ${hit.count} times (limit ${hit.cap})`;
}

/** The previous result as the model is reminded of it (already cut and marked by `quoteResult`). */
function previousResult(lastResult: string): string {
  return lastResult === '' ? 'The previous result is already in the conversation history.' : `Previous result:\n${defang(lastResult)}`;
}

export interface Denial {
  readonly name: string;
  readonly hits: readonly Hit[];
  /** The last result of the agent's calls, as `quoteResult` cut it; `''` when there is none. */
  readonly lastResult: string;
  /** Every blocking measure was put to the operator this turn and not approved. */
  readonly refused: boolean;
}

/**
 * The guard's denial: the model's only new information, so it says what to do
 * next. The host shows a blocked call as one line, so the first says what was
 * blocked and why.
 */
export function denyMessage(denial: Denial): string {
  const { name, hits, lastResult, refused } = denial;
  const first = hits[0];
  const reason = first === undefined ? 'it repeats a loop' : why(first);
  const lines = [
    // A refusal is the news: it goes first, before the numbers the model has seen already.
    // Declined, cancelled or unattended alike: "did not approve" is true of all three.
    `REPEAT_TOOL_BLOCKED: ${toolName(name)} call not run: ${refused ? `the operator did not approve it; ${reason}` : reason}. ` +
      `It was stopped before it ran, by ${tracksOf(hits)} of the loop breaker:`,
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
  lines.push(previousResult(lastResult));
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
/** What a spent-allowance denial says in its first line; the replay reads it to name the ceiling. */
export const SPENT_HEADLINE = "the operator's approval is used up";

export function spentMessage(name: string, quotes: readonly string[], ceiling: number, lastResult: string): string {
  const allowance = `${ceiling} ${ceiling === 1 ? 'call' : 'calls'}`;
  return [
    `REPEAT_TOOL_BLOCKED: ${toolName(name)} call not run: ${SPENT_HEADLINE} (it allowed ${allowance} like it).`,
    ...quotes.map((quote) => `- ${defang(quote)}`),
    `The approved allowance of ${allowance} is spent; these measures are denied without asking again until the next human message resets it.`,
    previousResult(lastResult),
    'Instead: use the result you already have, take a genuinely different action, or answer with what you know now.',
  ].join('\n');
}

/** How the ask's first sentence says what the call would do, from its first (most actionable) hit. */
function askHeadline(hit: Hit | undefined): string {
  if (hit === undefined) return 'would continue a loop';
  if (hit.track === 'failure') return `retries an action that has failed ${hit.count} times in a row (the limit is ${hit.cap})`;
  if (hit.track === 'sequence') return `would go round a cycle of calls that has already come round ${hit.count} times (the limit is ${hit.cap})`;
  return `would repeat the same action for the ${ordinal(hit.count)} time among the agent's recent calls (the limit is ${hit.cap})`;
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** One hit as the ask's details list it: the fingerprint, then its numbers. */
function askDetail(hit: Hit): string {
  if (hit.track === 'sequence') return `${defang(hit.quote)}, ${hit.count} times round (limit ${hit.cap})`;
  if (hit.track === 'failure') return `${defang(hit.quote)}, ${hit.count} failures in a row (${describeFailure(hit.failure)})`;
  return `${defang(hit.quote)} ${hit.count}/${hit.cap}`;
}

/** The heading of one track's details in an ask (`tracksIn` in tools/lib/replay.ts reads them). */
export const ASK_TRACK_HEADINGS: Readonly<Record<Hit['track'], string>> = {
  failure: 'Failure track:',
  repeat: 'Repeat track:',
  sequence: 'Sequence track:',
};

/**
 * The operator's prompt at the gate. DSH's approval panel shows it as one
 * paragraph with its line breaks dropped, above the Reject and Allow once
 * buttons: so it opens with one plain paragraph (what the call would do, how
 * often, the limit, what each button does, in the buttons' words), and the
 * fingerprints follow as details that read as sentences either way.
 */
export function askMessage(name: string, hits: readonly Hit[], ceiling: number | null = null): string {
  const others = hits.length - 1;
  const allowOnce =
    ceiling === null
      ? 'Allow once lets it run and stops the loop breaker from counting calls like it for the rest of this turn: they run without asking until the next human message.'
      : `Allow once lets it run, and ${ceiling} more ${ceiling === 1 ? 'call' : 'calls'} like it this turn; the one after that is blocked without asking.`;
  const lines = [
    `Loop breaker: this ${toolName(name)} call ${askHeadline(hits[0])}${others > 0 ? `, and it hits ${others} more ${others === 1 ? 'limit' : 'limits'} listed below` : ''}. ` +
      `${allowOnce} Reject blocks it, and calls like it stay blocked until the next human message.`,
  ];
  for (const track of ['failure', 'repeat', 'sequence'] as const) {
    const details = hits.filter((hit) => hit.track === track).map(askDetail);
    if (details.length === 0) continue;
    lines.push(ASK_TRACK_HEADINGS[track], ...details.map((detail, at) => `${detail}${at === details.length - 1 ? '.' : ';'}`));
  }
  return lines.join('\n');
}

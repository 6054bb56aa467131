/**
 * The gate's texts, what the model and the operator read when a call meets
 * the gate: the denial, the denial at the exemption ceiling and the operator's ask;
 * and how quoted text is cut and cleaned. Each text starts with its protocol
 * token (REPEAT_TOOL_BLOCKED: or Loop breaker:) and carries the parts listed
 * in §5 of the contract; the wording is this project's own. A track brings
 * its own words for its hits (`HitWords`, in its file under tracks/), so
 * these texts know no track by name.
 *
 * The ask is the operator's, shown in the approval panel: it comes in the
 * operator's language (`locale.preference`, read on the host by
 * plugin/settings.ts), English where there is none. The denials are the
 * model's and have one language, English.
 */
import type { FailureFacts } from './failure.js';
import type { Locale } from './locale.js';
import { member } from '../host/member.js';
import { joinedHead, joinedLength, resultBlocks } from '../host/result.js';

/** A track's words in an ask, for an operator who reads another language than English. */
export interface AskWords {
  readonly heading: string;
  asking(hit: HitFacts): string;
  detail(hit: HitFacts): string;
}

/** How one track's hits read in the gate's texts. */
export interface HitWords {
  /** The track's name: a denial says "by the repeat track". */
  readonly track: string;
  /** Where the track comes when a denial names several (lowest first). */
  readonly listed: number;
  /** The heading of its details in an ask (`tracksIn` in tools/lib/replay.ts reads them). */
  readonly heading: string;
  /** Why the hit blocks, in a few words: the first line of a denial. */
  why(hit: HitFacts): string;
  /** The hit as a denial lists it, after `- `. */
  line(hit: HitFacts): string;
  /** What the call would do, as the first sentence of an ask says it. */
  asking(hit: HitFacts): string;
  /** The hit as an ask's details list it. */
  detail(hit: HitFacts): string;
  /** A line a denial adds when the track blocked: what will still run. */
  readonly note: string | null;
  /** `heading`, `asking` and `detail` in Chinese (glossary: client/locales/glossary.md); the English ones where absent. */
  readonly zh?: AskWords;
  /** What an operator's text names a quote by when it carries no measure of its own (a cycle's calls); fingerprints name theirs (`cmd:`…). */
  readonly measure?: string;
}

/**
 * What the gate's texts say about a hit: its track's words, what it quotes and
 * its numbers. The hit itself, with the key it is exempted and refused under,
 * is the tracks' (tracks/track.ts `Hit`).
 */
export interface HitFacts {
  readonly words: HitWords;
  /** The measure (or the cycle) as quoted, already cut by `preview`. */
  readonly quote: string;
  /** Occurrences including this call (repeat), the consecutive failures (failure), or the cycle's completed repetitions (sequence). */
  readonly count: number;
  readonly cap: number;
  /** What else the track says about the hit: the failure track's failure in words; `''` for the others. */
  readonly detail: string;
  /** The failure behind `detail` (result/failure.ts), for the tracks that quote one: an ask in another language words it anew. */
  readonly failure?: FailureFacts | null;
}

/** Most characters of model-controlled text one quotation shows an operator (P15). */
export const QUOTE_CHARS = 60;

/** The marks around a quotation: the model's text cannot close it early, its own marks are escaped. */
const OPEN = '\u201c';
const CLOSE = '\u201d';

const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', [OPEN]: '\\u201c', [CLOSE]: '\\u201d' };

/** Control and format characters (line and paragraph separators, bidi overrides, zero-widths): shown as escapes, never obeyed. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]/;

function shown(char: string): string {
  const escape = ESCAPES[char];
  if (escape !== undefined) return escape;
  // A whole surrogate pair is one visible character; a lone half is hidden.
  if (char.length === 1 && HIDDEN.test(char)) return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return char;
}

/**
 * Model-controlled text as an operator's text quotes it (P15): inside “ ”, at
 * most `limit` characters as shown (an escape counts whole and is never split),
 * newlines and control characters as escapes, cut with `…` inside the marks.
 * `cut` says the text given is already a head of a longer one.
 */
export function quoted(text: string, limit = QUOTE_CHARS, cut = false): string {
  let body = '';
  let clipped = cut;
  for (let at = 0; at < text.length; ) {
    const point = text.codePointAt(at) as number;
    const char = point > 0xffff && point <= 0x10ffff ? text.slice(at, at + 2) : text.charAt(at);
    const piece = shown(char);
    if (body.length + piece.length > limit) {
      clipped = true;
      break;
    }
    body += piece;
    at += char.length;
  }
  return `${OPEN}${defang(body)}${clipped ? '\u2026' : ''}${CLOSE}`;
}

/** A measure's name ahead of its fingerprint (`cmd:`, `exact:`, `file:`, `prog:`): the breaker's word, not the model's. */
const MEASURE_NAME = /^([a-z][a-z-]{0,15}):/;

/**
 * A fingerprint as an operator's text names it: the measure, then the rest as
 * a quotation (`cmd “true # retry …”`). `measure` names a quote that carries
 * none; `cut` says the text is already a head of a longer one.
 */
export function measureQuote(fp: string, measure?: string, cut = false): string {
  if (measure !== undefined) return `${measure} ${quoted(fp, QUOTE_CHARS, cut)}`;
  const name = MEASURE_NAME.exec(fp);
  if (name === null) return quoted(fp, QUOTE_CHARS, cut);
  return `${name[1] as string} ${quoted(fp.slice(name[0].length), QUOTE_CHARS, cut)}`;
}

/** What `preview` appends to a cut text. */
const PREVIEW_MARK = /\u2026 \(\+\d+ more chars\)$/;

/** What an operator's text needs of a hit to quote it: its quote, and its track's words when known (a cycle names its measure). */
export type QuotedHit = Pick<HitFacts, 'quote'> & { readonly words?: Pick<HitWords, 'measure'> };

/** A hit's quote (a `preview` of its fingerprint) as an operator's text names it: the ask's, the log's. */
export function hitQuote(hit: QuotedHit): string {
  const mark = PREVIEW_MARK.exec(hit.quote);
  return measureQuote(mark === null ? hit.quote : hit.quote.slice(0, mark.index), hit.words?.measure, mark !== null);
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
    return joinedHead(resultBlocks(result, 'shown', member, limit), limit);
  } catch {
    return '';
  }
}

/**
 * A result as a denial quotes it: its first `limit` characters, and when more
 * was cut, the same marker a cut fingerprint carries. Its blocks are read once
 * for both; a result that cannot be read whole is quoted by the head it has.
 */
export function quoteResult(result: unknown, limit: number): string {
  let head: string;
  let total: number;
  try {
    const texts = resultBlocks(result, 'shown');
    head = joinedHead(texts, limit);
    total = joinedLength(texts);
  } catch {
    // Unreadable past its head: none of it counts beyond what the head shows.
    head = renderHead(result, limit);
    total = 0;
  }
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

/** The tracks that blocked, named as a denial names them. */
function tracksOf(hits: readonly HitFacts[]): string {
  const named = [...new Set(hits.map((hit) => hit.words))].sort((a, b) => a.listed - b.listed).map((words) => words.track);
  if (named.length < 2) return `the ${named[0] ?? 'repeat'} track`;
  return `the ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]} tracks`;
}

/** Each track's words once, in the order its hits come (failure, repeat, sequence). */
function wordsOf(hits: readonly HitFacts[]): HitWords[] {
  return [...new Set(hits.map((hit) => hit.words))];
}

/** Longest tool name a first line quotes: the reason must stay on the one line a blocked row shows. */
const NAME_CHARS = 40;

/** A tool name as a sentence names it: cut when long, never tool-call markup. */
function toolName(name: string): string {
  return defang(name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}\u2026` : name);
}

/** The previous result as the model is reminded of it (already cut and marked by `quoteResult`). */
function previousResult(lastResult: string): string {
  return lastResult === '' ? 'The previous result is already in the conversation history.' : `Previous result:\n${defang(lastResult)}`;
}

export interface Denial {
  readonly name: string;
  readonly hits: readonly HitFacts[];
  /** The last result of the agent's calls, as `quoteResult` cut it; `''` when there is none. */
  readonly lastResult: string;
  /** Every blocking measure was put to the operator this turn and not approved. */
  readonly refused: boolean;
  /** This very call was put to the operator and not approved (P13): its own result carries the denial. */
  readonly asked?: boolean;
}

/**
 * The guard's denial: the model's only new information, so it says what to do
 * next. The host shows a blocked call as one line, so the first says what was
 * blocked and why. The call the operator was asked about and did not approve
 * gets the same text on its own result (P13), after the host's line.
 */
export function denyMessage(denial: Denial): string {
  const { name, hits, lastResult, refused } = denial;
  const asked = denial.asked === true;
  const first = hits[0];
  const reason = first === undefined ? 'it repeats a loop' : first.words.why(first);
  const lines = [
    // A refusal is the news: it goes first, before the numbers the model has seen already.
    // Declined, cancelled or unattended alike: "did not approve" is true of all three.
    `REPEAT_TOOL_BLOCKED: ${toolName(name)} call not run: ${refused || asked ? `the operator did not approve it; ${reason}` : reason}. ` +
      (asked
        ? `The loop breaker's ${tracksOf(hits).slice('the '.length)} put it to the operator, for:`
        : `It was stopped before it ran, by ${tracksOf(hits)} of the loop breaker:`),
    ...hits.map((hit) => `- ${hit.words.line(hit)}`),
    'Changing the description, timeoutMs, --max-time or the spelling of the host does not make it a new action.',
  ];
  if (refused || asked) {
    lines.push('An exemption for these measures was asked of the operator and not granted; they stay blocked until the next human message.');
  }
  for (const words of wordsOf(hits)) if (words.note !== null) lines.push(words.note);
  lines.push(previousResult(lastResult));
  lines.push('Instead: use the result you already have, take a genuinely different action, or answer with what you know now.');
  return lines.join('\n');
}

/** What a denial at the exemption ceiling says in its first line; the replay reads it to name the ceiling. */
export const CEILING_HEADLINE = "the operator's approval is used up";

/** The denial once an approved exemption has covered `ceiling` calls (the exemption ceiling). */
export function ceilingMessage(name: string, quotes: readonly string[], ceiling: number, lastResult: string): string {
  const calls = `${ceiling} ${ceiling === 1 ? 'call' : 'calls'}`;
  return [
    `REPEAT_TOOL_BLOCKED: ${toolName(name)} call not run: ${CEILING_HEADLINE} (it allowed ${calls} like it).`,
    ...quotes.map((quote) => `- ${defang(quote)}`),
    `The approved allowance of ${calls} is spent; these measures are denied without asking again until the next human message resets it.`,
    previousResult(lastResult),
    'Instead: use the result you already have, take a genuinely different action, or answer with what you know now.',
  ].join('\n');
}


/**
 * A hit as an operator's text shows it (P15): its measure quoted and cut, and
 * the failure it quotes (an error code, an exception's name: the result's
 * text) quoted as well. The tracks' `detail` words then carry no model text
 * of their own.
 */
function operatorHit(hit: HitFacts): HitFacts {
  const quote = hitQuote(hit);
  const failure = hit.failure;
  if (failure === undefined || failure === null) return { ...hit, quote };
  const folded = failure.detail.replace(/\s+/g, ' ').trim();
  // A number (an exit status, an HTTP code, a time-out) carries no sentence; a code or a name is quoted like any result text.
  if (folded === '' || /^-?\d+(?:ms)?$/.test(folded)) return { ...hit, quote };
  const shownDetail = quoted(folded);
  // The detail is the last thing the failure's words quote ("… status 1", "… error (E_X)").
  const at = hit.detail.lastIndexOf(folded);
  const detail = at === -1 ? hit.detail : `${hit.detail.slice(0, at)}${shownDetail}${hit.detail.slice(at + folded.length)}`;
  return { ...hit, quote, detail, failure: { reason: failure.reason, detail: shownDetail } };
}

/** The details of an ask: each track's heading, then its hits, `;` between them and `end` after the last. */
function detailLines(hits: readonly HitFacts[], wordsFor: (words: HitWords) => AskWords, end: string, between: string): string[] {
  const lines: string[] = [];
  for (const words of wordsOf(hits)) {
    const own = wordsFor(words);
    const details = hits.filter((hit) => hit.words === words).map((hit) => own.detail(hit));
    lines.push(own.heading, ...details.map((detail, at) => `${detail}${at === details.length - 1 ? end : between}`));
  }
  return lines;
}

/**
 * The operator's prompt at the gate, the headline of DSH's approval panel.
 * rc.8 renders it as plain text in one block whose line breaks collapse to
 * spaces (`white-space: normal`), above the command box and the Reject and
 * Allow once buttons. So it is a short list of sentences, each ending with its
 * own stop and starting with its label (Allow once:, Still applies:,
 * Reject:), that reads as a list either way; the model's text comes only at
 * the end, as bounded quotations (P15), after every sentence of ours, and the
 * tool's name last of all.
 *
 * Allow once exempts the hit measures on every track for the rest of the
 * turn (gate.ts: not counted, not gated, not advised); the call's other
 * measures and every other call keep their limits, and one reaching its own
 * limit asks again. The list says exactly that.
 */
export function askMessage(name: string, hits: readonly HitFacts[], ceiling: number | null = null, locale: Locale = 'en'): string {
  const shown = hits.map(operatorHit);
  if (locale === 'zh') return askMessageZh(name, shown, ceiling);
  const first = shown[0];
  const many = shown.length > 1;
  const these = many ? `these ${shown.length} measures` : 'this measure';
  const until =
    ceiling === null
      ? 'until your next message'
      : `for ${ceiling} more ${ceiling === 1 ? 'call' : 'calls'} this turn (the one after that is blocked without asking)`;
  return [
    `Loop breaker: this call ${first === undefined ? 'would continue a loop' : first.words.asking(first)}${many ? `; ${shown.length} measures are at their limits` : ''}.`,
    `Allow once: the call runs, and ${these} (listed at the end) ${many ? 'are' : 'is'} lifted on every track ${until}: not counted, not gated, not advised.`,
    "Still applies: the call's other measures and every other call keep their limits; one that reaches its limit is asked about again.",
    `Reject: the call is blocked, and so is every call with ${many ? 'these measures' : 'this measure'}, until your next message.`,
    ...detailLines(shown, (words) => words, '.', ';'),
    `Tool: ${quoted(name)}.`,
  ].join('\n');
}

/** A track's ask words in Chinese, or its English ones. */
function zhWords(words: HitWords): AskWords {
  return words.zh ?? words;
}

/**
 * The same ask for an operator who reads Chinese: the same list in the same
 * order, the buttons named as DSH's Chinese panel names them (允许一次 / 拒绝),
 * the quotations at the end. Its words follow the glossary.
 */
function askMessageZh(name: string, shown: readonly HitFacts[], ceiling: number | null): string {
  const first = shown[0];
  const many = shown.length > 1;
  const these = many ? `文末列出的这 ${shown.length} 个度量` : '文末列出的该度量';
  const until = ceiling === null ? '在你发送下一条消息之前' : `在本回合接下来的 ${ceiling} 次调用中`;
  const after = ceiling === null ? '' : '（再下一次不经询问直接阻止）';
  return [
    `重复调用断路器：这次调用${first === undefined ? '会让循环继续下去' : zhWords(first.words).asking(first)}${many ? `；共有 ${shown.length} 个度量达到上限` : ''}。`,
    `允许一次：调用会运行，${these}${until}在所有轨道上解除：不计数、不受闸门拦截、不发建议${after}。`,
    '仍然生效：这次调用的其他度量和其他所有调用照常受上限约束；达到上限时还会再次询问。',
    `拒绝：调用被阻止，之后带有${many ? '这些度量' : '该度量'}的调用也都被阻止，直到你发送下一条消息。`,
    ...detailLines(shown, zhWords, '。', '；'),
    `工具：${quoted(name)}。`,
  ].join('\n');
}

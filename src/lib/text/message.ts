/**
 * The gate's texts, what the model and the operator read when a call meets
 * the gate: the denial, the spent-allowance denial and the operator's ask;
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
import type { Locale } from '../config/locale.js';
import { member } from '../host/member.js';

/** A track's words in an ask, for an operator who reads another language than English. */
export interface AskWords {
  readonly heading: string;
  asking(hit: Hit): string;
  detail(hit: Hit): string;
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
  why(hit: Hit): string;
  /** The hit as a denial lists it, after `- `. */
  line(hit: Hit): string;
  /** What the call would do, as the first sentence of an ask says it. */
  asking(hit: Hit): string;
  /** The hit as an ask's details list it. */
  detail(hit: Hit): string;
  /** A line a denial adds when the track blocked: what will still run. */
  readonly note: string | null;
  /** `heading`, `asking` and `detail` in Chinese (glossary: client/locales/glossary.md); the English ones where absent. */
  readonly zh?: AskWords;
}

/** One blocking finding against the current call, as the gate's texts quote it. */
export interface Hit {
  readonly words: HitWords;
  /** The measure (or the cycle) as quoted, already cut by `preview`. */
  readonly quote: string;
  /** Occurrences including this call (repeat), the consecutive failures (failure), or the cycle's completed repetitions (sequence). */
  readonly count: number;
  readonly cap: number;
  /** What else the track says about the hit: the failure track's failure in words; `''` for the others. */
  readonly detail: string;
  /** The failure behind `detail` (read/failure.ts), for the tracks that quote one: an ask in another language words it anew. */
  readonly failure?: { readonly reason: string; readonly detail: string } | null;
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
      // Stryker disable next-line MethodExpression: the joined head is cut to the limit below; cutting each block first only spares joining a huge one
      parts.push(text.slice(0, limit));
      length += text.length;
    }
    return parts.join('\n').slice(0, limit);
  } catch {
    return '';
  }
}

/** Characters of a result's text as `renderResult` would join them, without joining them. */
function renderedLength(result: unknown): number {
  let length = -1;
  try {
    const content = member(result, 'content');
    if (!Array.isArray(content)) return 0;
    for (const block of content) {
      const text = member(block, 'text');
      if (typeof text === 'string' && text !== '') length += text.length + 1;
    }
  } catch {
    // An unreadable result renders as empty, so none of it counts.
    length = -1;
  }
  return Math.max(length, 0);
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

/** The tracks that blocked, named as a denial names them. */
function tracksOf(hits: readonly Hit[]): string {
  const named = [...new Set(hits.map((hit) => hit.words))].sort((a, b) => a.listed - b.listed).map((words) => words.track);
  if (named.length < 2) return `the ${named[0] ?? 'repeat'} track`;
  return `the ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]} tracks`;
}

/** Each track's words once, in the order its hits come (failure, repeat, sequence). */
function wordsOf(hits: readonly Hit[]): HitWords[] {
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
  const reason = first === undefined ? 'it repeats a loop' : first.words.why(first);
  const lines = [
    // A refusal is the news: it goes first, before the numbers the model has seen already.
    // Declined, cancelled or unattended alike: "did not approve" is true of all three.
    `REPEAT_TOOL_BLOCKED: ${toolName(name)} call not run: ${refused ? `the operator did not approve it; ${reason}` : reason}. ` +
      `It was stopped before it ran, by ${tracksOf(hits)} of the loop breaker:`,
    ...hits.map((hit) => `- ${hit.words.line(hit)}`),
    'Changing the description, timeoutMs, --max-time or the spelling of the host does not make it a new action.',
  ];
  if (refused) {
    lines.push('An exemption for these measures was asked of the operator and not granted; they stay blocked until the next human message.');
  }
  for (const words of wordsOf(hits)) if (words.note !== null) lines.push(words.note);
  lines.push(previousResult(lastResult));
  lines.push('Instead: use the result you already have, take a genuinely different action, or answer with what you know now.');
  return lines.join('\n');
}

/** What a spent-allowance denial says in its first line; the replay reads it to name the ceiling. */
export const SPENT_HEADLINE = "the operator's approval is used up";

/** The denial once an approved exemption's allowance is used up (exemption ceiling). */
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

/**
 * The operator's prompt at the gate. DSH's approval panel shows it as one
 * paragraph with its line breaks dropped, above the Reject and Allow once
 * buttons: so it opens with one plain paragraph (what the call would do, how
 * often, the limit, what each button does, in the buttons' words), and the
 * fingerprints follow as details that read as sentences either way, which is
 * why the paragraph points to them as "named at the end", not "below".
 *
 * An approval exempts exactly the fingerprints that hit (gate.ts): the call's
 * other fingerprints keep counting, and one of them reaching its own limit
 * asks again. The paragraph says so rather than promise that calls like it
 * run unasked.
 */
export function askMessage(name: string, hits: readonly Hit[], ceiling: number | null = null, locale: Locale = 'en'): string {
  if (locale === 'zh') return askMessageZh(name, hits, ceiling);
  const first = hits[0];
  const others = hits.length - 1;
  const these = hits.length > 1 ? `the ${hits.length} limits` : 'the limit';
  const lifted =
    ceiling === null
      ? `lifts ${these} named at the end until the next human message`
      : `lifts ${these} named at the end for ${ceiling} more ${ceiling === 1 ? 'call' : 'calls'} this turn (the one after that is blocked without asking)`;
  const lines = [
    `Loop breaker: this ${toolName(name)} call ${first === undefined ? 'would continue a loop' : first.words.asking(first)}${others > 0 ? `, and it hits ${others} more ${others === 1 ? 'limit' : 'limits'}` : ''}. ` +
      `Allow once lets it run and ${lifted}; other limits still apply, so a call like it that reaches one is asked about again. ` +
      `Reject blocks it, and calls that hit ${hits.length > 1 ? 'those limits' : 'that limit'} again stay blocked until the next human message.`,
  ];
  for (const words of wordsOf(hits)) {
    const details = hits.filter((hit) => hit.words === words).map((hit) => words.detail(hit));
    lines.push(words.heading, ...details.map((detail, at) => `${detail}${at === details.length - 1 ? '.' : ';'}`));
  }
  return lines.join('\n');
}

/** A track's ask words in Chinese, or its English ones. */
function zhWords(words: HitWords): AskWords {
  return words.zh ?? words;
}

/**
 * The same ask for an operator who reads Chinese: the same parts in the same
 * order, the buttons named as DSH's Chinese panel names them (允许一次 / 拒绝),
 * and the details after the paragraph. Its words follow the glossary.
 */
function askMessageZh(name: string, hits: readonly Hit[], ceiling: number | null): string {
  const first = hits[0];
  const others = hits.length - 1;
  const these = hits.length > 1 ? `文末列出的这 ${hits.length} 个上限` : '文末列出的该上限';
  const lifted =
    ceiling === null
      ? `在下一条人类消息之前解除${these}`
      : `在本回合内为${these}再放行 ${ceiling} 次调用（再下一次不经询问直接阻止）`;
  const lines = [
    `重复调用断路器：这次 ${toolName(name)} 调用${first === undefined ? '会让循环继续下去' : zhWords(first.words).asking(first)}${others > 0 ? `，另外还触及 ${others} 个上限` : ''}。` +
      `“允许一次”会让它运行，并${lifted}；其他上限照常生效，类似的调用触及其中任何一个时还会再次询问。` +
      `“拒绝”会阻止它，之后再触及${hits.length > 1 ? '这些上限' : '该上限'}的调用都会被阻止，直到下一条人类消息。`,
  ];
  for (const words of wordsOf(hits)) {
    const own = zhWords(words);
    const details = hits.filter((hit) => hit.words === words).map((hit) => own.detail(hit));
    lines.push(own.heading, ...details.map((detail, at) => `${detail}${at === details.length - 1 ? '。' : '；'}`));
  }
  return lines.join('\n');
}

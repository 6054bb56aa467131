/**
 * The gate's texts for the model, what it reads when a call meets the gate:
 * the denial and the denial at the exemption ceiling; and how quoted text is
 * cut and cleaned for every text. Each starts with its protocol token
 * (REPEAT_TOOL_BLOCKED:) and carries the parts listed in §5 of the contract;
 * the wording is this project's own. A track brings its own words for its
 * hits (`HitWords`, in its file under tracks/), so these texts know no track
 * by name. The denials have one language, English. The operator's ask, in
 * the operator's language, is text/ask.ts's; the types its words take are
 * here, beside the tracks' other words.
 */
import type { FailureFacts } from './failure.js';
import { member } from '../host/member.js';
import { joinedHead, joinedLength, resultBlocks } from '../host/result.js';

/**
 * What the ask says of a hit (text/ask.ts makes it): the hit's facts, with
 * the model's text in them already shown as the operator sees it (P15).
 */
export interface AskHit extends HitFacts {
  /** The calls the hit is about, as the ask's language names them (`this command`, `calls to the host “x”`). */
  readonly subject: Subject;
  /** The hit's text after its measure as one bounded quotation (`“/repo/a.py”`, `“make → ls”`). */
  readonly shown: string;
  /** The failure behind the hit in the ask's language, its model text quoted; `''` for none. */
  readonly failed: string;
}

/** The calls a hit is about, in one language (text/ask.ts `subjectOf`). */
export interface Subject {
  /** One more of them, counted: `run of this command`, `call to the host “x”` (zh: 运行这条命令). */
  readonly one: string;
  /** All of them, as a sentence's subject: `this command`, `calls to the host “x”` (zh: 这条命令). */
  readonly it: string;
  /** Whether `it` takes a plural verb. */
  readonly many: boolean;
}

/**
 * A track's words in the operator's ask, in one language: the plain sentence
 * that says what the call would do and why it is stopped, and the few words
 * that add its evidence when another track's hit leads.
 */
export interface AskWords {
  /** The ask's first sentence, after `Loop breaker: `, for the hit that leads: lower case first, its own stop last. */
  what(hit: AskHit): string;
  /** The hit as a few words after `Also: ` (`the same result 5 times`), when another track's hit leads. */
  also(hit: AskHit): string;
}

/** How one track's hits read in the gate's texts. */
export interface HitWords {
  /** The track's name: a denial says "by the repeat track", a gate line of the log lists its hits under it. */
  readonly track: string;
  /** Where the track comes when a denial names several (lowest first). */
  readonly listed: number;
  /** Why the hit blocks, in a few words: the first line of a denial. */
  why(hit: HitFacts): string;
  /** The hit as a denial lists it, after `- `. */
  line(hit: HitFacts): string;
  /** A line a denial adds when the track blocked: what will still run. */
  readonly note: string | null;
  /** Its words in the operator's ask, in English (text/ask.ts). */
  readonly ask: AskWords;
  /** The same in Chinese (glossary: client/locales/glossary.md). */
  readonly zh: AskWords;
  /** What an operator's text names a quote by when it carries no measure of its own (a cycle's calls: `sequence`); fingerprints name theirs (`cmd:`…). */
  readonly measure?: string;
  /** `false`: its calls are file edits, which a description, a time-out or a host's spelling never respell, so a denial of them alone leaves that line out. */
  readonly respelled?: false;
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

/** Any character `shown` does not hand back as it is: the escapes, the hidden ones, a surrogate half. */
const SHOWN_OTHERWISE = /[\n\r\t\u201c\u201d\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]/;

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
  // The common text: short, nothing to escape (a surrogate goes the long way), so it is shown as it is.
  if (text.length <= limit && !SHOWN_OTHERWISE.test(text)) return `${OPEN}${defang(text)}${cut ? '\u2026' : ''}${CLOSE}`;
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
export type QuotedHit = Pick<HitFacts, 'quote'> & { readonly words?: Pick<HitWords, 'measure' | 'track'> };

/** A hit's quote (a `preview` of its fingerprint) as an operator's text names it: the log's, the terminal's. */
export function hitQuote(hit: QuotedHit): string {
  const mark = PREVIEW_MARK.exec(hit.quote);
  return measureQuote(mark === null ? hit.quote : hit.quote.slice(0, mark.index), hit.words?.measure, mark !== null);
}

/**
 * A quote's parts: its measure (`null` for none), the text after it, and
 * whether `preview` cut it. `named`: the quote carries no measure of its own
 * (a cycle's calls, which may start `read:`), its track names it.
 */
export function quoteParts(quote: string, named = false): { readonly measure: string | null; readonly body: string; readonly cut: boolean } {
  const mark = PREVIEW_MARK.exec(quote);
  const head = mark === null ? quote : quote.slice(0, mark.index);
  const name = named ? null : MEASURE_NAME.exec(head);
  return name === null ? { measure: null, body: head, cut: mark !== null } : { measure: name[1] as string, body: head.slice(name[0].length), cut: mark !== null };
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
  // Most texts hold no `<` at all: one scan, no regex.
  if (!text.includes('<')) return text;
  return text.replace(/<(\/?)(tool_call|function=)/g, '\u2039$1$2');
}

/** The tracks that blocked (each one's words once, `wordsOf`), named as a denial names them. */
function tracksOf(words: readonly HitWords[]): string {
  // One track (nearly every denial): nothing to put in order.
  if (words.length < 2) return `the ${words[0]?.track ?? 'repeat'} track`;
  const named = [...words].sort((a, b) => a.listed - b.listed).map((each) => each.track);
  return `the ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]} tracks`;
}

/** Each track's words once, in the order its hits come (failure, repeat, sequence). */
function wordsOf(hits: readonly HitFacts[]): HitWords[] {
  const words: HitWords[] = [];
  for (const hit of hits) if (!words.includes(hit.words)) words.push(hit.words);
  return words;
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

/**
 * How an ask that was not approved ended, where the host recorded it
 * (plugin/approvals.ts reads DSH's `approval/decided`): `rejected`, an operator
 * said no; `unattended`, no one could answer (no approval channel, approval
 * prompts turned off, or no approval service at all); `cancelled`, the ask was
 * withdrawn (the turn was stopped). `undefined` where the host does not say.
 */
export type AskOutcome = 'rejected' | 'unattended' | 'cancelled';

/** Which refusal of its loop a denial is, this turn (breaker/knocks.ts), and where the stop stands. */
export interface Knock {
  /** 1 for the loop's first refusal this turn. */
  readonly nth: number;
  /** Every measure it is refused under was refused before this turn: it points back to the first refusal instead of explaining again. */
  readonly seen: boolean;
  /** `stopAfter`: refusals of one loop after which the turn ends; `null`: never. */
  readonly stopAfter: number | null;
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
  /** For a refusal (`refused` or `asked`): how the ask ended, where the host said. */
  readonly outcome?: AskOutcome | undefined;
  /** Which refusal of its loop this is; absent: the first, with no stop set. */
  readonly knock?: Knock | undefined;
}

/** What became of the ask, as the first line of a refusal says it: true of the outcome the host recorded, and of any when it did not say. */
const ANSWER: Readonly<Record<AskOutcome | 'unknown', string>> = {
  rejected: 'the operator did not approve it',
  unattended: 'no operator is present to approve it',
  cancelled: 'its approval was withdrawn before anyone answered',
  unknown: 'it was not approved',
};

/** Why the measures stay refused, after the hit lines of a refusal. */
const STAYS: Readonly<Record<AskOutcome | 'unknown', string>> = {
  rejected: 'The operator was asked to let these measures through and said no; they stay blocked until the next human message.',
  unattended: 'No operator is present to approve them, so these measures stay blocked until the next human message.',
  cancelled: 'The ask was withdrawn before anyone answered; these measures stay blocked until the next human message.',
  unknown: 'An exemption for these measures was asked for and not granted; they stay blocked until the next human message.',
};

/** Where a later refusal sends the model for the why. */
const POINT_BACK = 'the first denial says why.';

const INSTEAD = 'Instead: use the result you already have, take a genuinely different action, or answer with what you know now.';

/** The line that says the stop is near, or here; `null` when it is neither (or off). */
function stopLine(knock: Knock | undefined): string | null {
  if (knock === undefined || knock.stopAfter === null) return null;
  const { nth, stopAfter } = knock;
  if (nth >= stopAfter) {
    return `The loop breaker ends this turn now, this loop blocked ${times(nth)}; the operator is told why.`;
  }
  return nth === stopAfter - 1 ? 'One more blocked call of this loop ends the turn.' : null;
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}

/** What a later refusal says to do instead: the full denial's advice, shorter. */
const INSTEAD_SHORT = 'Instead: use the result you have, or take a different action.';

/**
 * A later refusal of a loop in the turn, when it adds no hit the loop's
 * earlier refusals did not have: two lines that still say what is refused and
 * what to do instead (a compaction may have dropped the first refusal), and
 * point back to it. No hit lines and no previous result: the first refusal
 * carried them. The loop is named by one bounded quotation (P15's).
 */
function laterRefusal(name: string, what: QuotedHit | undefined, knock: Knock, answer: string | null): string {
  const loop = what === undefined ? 'a loop blocked before' : `a loop blocked before (${hitQuote(what)})`;
  const text =
    `REPEAT_TOOL_BLOCKED: ${toolName(name)} call not run: ${loop}, ${knock.nth} of its calls blocked this turn with this one` +
    `${answer === null ? '' : `; ${answer}`}; ${POINT_BACK}\n${INSTEAD_SHORT}`;
  const stop = stopLine(knock);
  return stop === null ? text : `${text}\n${stop}`;
}

/** What a model tries first when a call is refused; 0.5.2's line. */
const RESPELLED = 'Changing the description, timeoutMs, --max-time or the spelling of the host does not make it a new action.';

/**
 * The guard's denial: the model's only new information, so it says what to do
 * next. The host shows a blocked call as one line, so the first says what was
 * blocked and why. The call the operator was asked about and did not approve
 * gets the same text on its own result (P13), after the host's line. The
 * loop's first refusal in a turn explains in full; the later ones are short
 * (P17), and a refusal never says an operator refused where none could answer.
 */
export function denyMessage(denial: Denial): string {
  const { name, hits, lastResult, refused } = denial;
  const asked = denial.asked === true;
  const answer = denial.outcome ?? 'unknown';
  const first = hits[0];
  const reason = first === undefined ? 'it repeats a loop' : first.words.why(first);
  const { knock } = denial;
  // A refusal is the news: it goes first, before the numbers the model has seen already.
  const headline = refused || asked ? `${ANSWER[answer]}; ${reason}` : reason;
  if (knock !== undefined && knock.nth > 1 && knock.seen) return laterRefusal(name, first, knock, refused || asked ? ANSWER[answer] : null);
  const words = wordsOf(hits);
  const lines = [
    `REPEAT_TOOL_BLOCKED: ${toolName(name)} call not run: ${headline}. ` +
      (asked
        ? `The loop breaker's ${tracksOf(words).slice('the '.length)} asked for approval to run it, for:`
        : `It was stopped before it ran, by ${tracksOf(words)} of the loop breaker:`),
  ];
  for (const hit of hits) lines.push(`- ${hit.words.line(hit)}`);
  if (hits.some((hit) => hit.words.respelled !== false)) lines.push(RESPELLED);
  if (refused || asked) lines.push(STAYS[answer]);
  for (const each of words) if (each.note !== null) lines.push(each.note);
  lines.push(previousResult(lastResult), INSTEAD);
  const stop = stopLine(denial.knock);
  if (stop !== null) lines.push(stop);
  return lines.join('\n');
}

/** What a denial at the exemption ceiling says in its first line; the replay reads it to name the ceiling. */
export const CEILING_HEADLINE = "the operator's approval is used up";

/**
 * The denial once an approved exemption has covered `ceiling` calls (the
 * exemption ceiling): in full for the loop's first refusal this turn, short
 * for the later ones (P17).
 */
export function ceilingMessage(name: string, quotes: readonly string[], ceiling: number, lastResult: string, knock?: Knock): string {
  const calls = `${ceiling} ${ceiling === 1 ? 'call' : 'calls'}`;
  const headline = `REPEAT_TOOL_BLOCKED: ${toolName(name)} call not run: ${CEILING_HEADLINE} (it allowed ${calls} like it)`;
  const lines =
    knock !== undefined && knock.nth > 1 && knock.seen
      ? [
          `${headline}; a loop blocked before${quotes[0] === undefined ? '' : ` (${hitQuote({ quote: quotes[0] })})`}, ${knock.nth} of its calls blocked this turn with this one; ${POINT_BACK}`,
          INSTEAD_SHORT,
        ]
      : [
          `${headline}.`,
          ...quotes.map((quote) => `- ${defang(quote)}`),
          `The approved allowance of ${calls} is spent; these measures are denied without asking again until the next human message resets it.`,
          previousResult(lastResult),
          INSTEAD,
        ];
  const stop = stopLine(knock);
  if (stop !== null) lines.push(stop);
  return lines.join('\n');
}

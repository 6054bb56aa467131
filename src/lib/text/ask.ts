/**
 * The operator's ask: the headline of DSH's approval panel (P16). rc.8 shows
 * it as one paragraph (its line breaks collapse) above DSH's own box with the
 * command, and the Reject and Allow once buttons. So it says three things in
 * three sentences, in words an operator uses: what the call would do and why
 * it is stopped; what Allow once does; what Reject does. The fingerprints,
 * the tracks and the caps are where a curious operator looks for them (the
 * notice rows, the terminal and log lines: text/log-line.ts).
 *
 * The command is in DSH's box, so the ask names it as "this command"; it
 * quotes only what the box does not show (a host, a file, a program, the
 * calls of a cycle), once, as it ran, as a bounded quotation (P15). The hit
 * that leads is the first track's (gate order: failure, repeat, sequence …);
 * another track's hit adds a few words after `Also:`.
 *
 * The ask comes in the operator's language (`locale.preference`, read on the
 * host by plugin/settings.ts), English where there is none; the buttons are
 * named as DSH names them (允许一次 / 拒绝 in Chinese).
 */
import { briefFailure } from './failure.js';
import type { Locale } from './locale.js';
import { quoted, quoteParts, type AskHit, type AskWords, type HitFacts, type HitWords, type Subject } from './message.js';

/** The call an ask is about: its tool, and whether it is a shell command (DSH's box shows the command). */
export interface AskedCall {
  readonly name: string;
  readonly shell: boolean;
}

/** Most characters of a quotation in the ask: P15's bound. */
const ASK_QUOTE_CHARS = 60;

/** What `preview` marks inside a joined quote (a cycle's calls each cut on their own). */
const INNER_CUTS = /\u2026 \(\+\d+ more chars\)/g;

/** The measures that are the call itself: DSH's box shows it, so the ask says "this command". */
const ITSELF: ReadonlySet<string> = new Set(['exact', 'cmd', 'act']);

type Named = (shown: string) => Subject;

/** The calls a measure counts, by measure, in each language; `shown` is its text as a quotation. */
const SUBJECTS: Readonly<Record<Locale, Readonly<Record<string, Named>>>> = {
  en: {
    host: (q) => ({ one: `call to the host ${q}`, it: `calls to the host ${q}`, many: true }),
    site: (q) => ({ one: `call to the site ${q}`, it: `calls to the site ${q}`, many: true }),
    net: (q) => ({ one: `request for ${q}`, it: `requests for ${q}`, many: true }),
    sink: (q) => ({ one: `command writing to ${q}`, it: `commands writing to ${q}`, many: true }),
    verb: (q) => ({ one: `${q} command`, it: `${q} commands`, many: true }),
    family: () => ({ one: 'HTTP fetch', it: 'HTTP fetches', many: true }),
  },
  zh: {
    host: (q) => ({ one: `调用主机 ${q}`, it: `对主机 ${q} 的调用`, many: true }),
    site: (q) => ({ one: `访问站点 ${q}`, it: `对站点 ${q} 的访问`, many: true }),
    net: (q) => ({ one: `请求 ${q}`, it: `对 ${q} 的请求`, many: true }),
    sink: (q) => ({ one: `写入 ${q}`, it: `写入 ${q} 的命令`, many: true }),
    verb: (q) => ({ one: `运行 ${q} 命令`, it: `${q} 命令`, many: true }),
    family: () => ({ one: '发起 HTTP 请求', it: 'HTTP 请求', many: true }),
  },
};

/** The call itself: a shell command, or another tool's call by its name. */
function itself(call: AskedCall, locale: Locale): Subject {
  const tool = quoted(call.name, ASK_QUOTE_CHARS);
  if (locale === 'zh') return call.shell ? { one: '运行这条命令', it: '这条命令', many: false } : { one: `以相同参数调用 ${tool}`, it: `这个 ${tool} 调用`, many: false };
  return call.shell ? { one: 'run of this command', it: 'this command', many: false } : { one: `identical ${tool} call`, it: `this ${tool} call`, many: false };
}

/** The calls a hit's measure counts, as the ask names them. */
export function subjectOf(quote: string, call: AskedCall, locale: Locale = 'en'): Subject {
  const { measure, body, cut } = quoteParts(quote);
  const named = measure === null || ITSELF.has(measure) ? undefined : SUBJECTS[locale][measure];
  if (named === undefined) return itself(call, locale);
  return named(quoted(body, ASK_QUOTE_CHARS, cut));
}

/** A hit as the ask says it: what it names quoted (P15), its failure worded in the ask's language. */
function askHit(hit: HitFacts, call: AskedCall, locale: Locale): AskHit {
  const { body, cut } = quoteParts(hit.quote, hit.words.measure !== undefined);
  const failure = hit.failure;
  let failed = failure === undefined || failure === null ? '' : briefFailure(failure, locale);
  if (failure !== undefined && failure !== null) {
    const folded = failure.detail.replace(/\s+/g, ' ').trim();
    // A number (an exit status, an HTTP code, a time-out) carries no sentence; a code or a name is quoted like any result text.
    const at = folded === '' || /^-?\d+(?:ms)?$/.test(folded) ? -1 : failed.lastIndexOf(folded);
    if (at !== -1) failed = `${failed.slice(0, at)}${quoted(folded, ASK_QUOTE_CHARS)}${failed.slice(at + folded.length)}`;
  }
  // Only a text `preview` cut holds its mark: most bodies have no `…` to look for.
  const shown = quoted(body.includes('\u2026') ? body.replace(INNER_CUTS, '\u2026') : body, ASK_QUOTE_CHARS, cut);
  // The facts written out, not `{ ...hit, … }`: on Node 20 a key added to a spread copy takes a slow path (about 10 µs a hit).
  return { words: hit.words, quote: hit.quote, count: hit.count, cap: hit.cap, detail: hit.detail, failure: hit.failure, subject: subjectOf(hit.quote, call, locale), shown, failed };
}

/** Each track's hits, in the order its first hit comes (gate order). */
function byTrack(hits: readonly HitFacts[]): HitFacts[][] {
  const tracks = new Map<HitWords, HitFacts[]>();
  for (const hit of hits) {
    const mine = tracks.get(hit.words);
    if (mine === undefined) tracks.set(hit.words, [hit]);
    else mine.push(hit);
  }
  return [...tracks.values()];
}

/** A track's hit that speaks for it: one about the call itself when there is one (DSH shows it), else its first. */
function speaker(hits: readonly HitFacts[]): HitFacts {
  return hits.find((hit) => ITSELF.has(quoteParts(hit.quote).measure ?? '')) ?? (hits[0] as HitFacts);
}

/** The most other tracks whose evidence follows the first sentence. */
const ALSO_TRACKS = 2;

/** The sentences around the tracks' words, in each language. */
interface Frame {
  readonly head: string;
  readonly none: string;
  also(said: readonly string[]): string;
  allow(ceiling: number | null): string;
  readonly reject: string;
  readonly words: (words: HitWords) => AskWords;
}

const FRAMES: Readonly<Record<Locale, Frame>> = {
  en: {
    head: 'Loop breaker: ',
    none: 'this call would continue a loop.',
    also: (said) => `Also: ${said.join('; ')}.`,
    allow: (ceiling) =>
      ceiling === null
        ? 'Allow once runs it and stops counting calls like it until your next message.'
        : `Allow once runs it and up to ${ceiling} more like it; later ones are refused until your next message.`,
    reject: 'Reject blocks it and calls like it until then.',
    words: (words) => words.ask,
  },
  zh: {
    head: '重复调用断路器：',
    none: '这次调用会让循环继续下去。',
    also: (said) => `另外：${said.join('；')}。`,
    allow: (ceiling) =>
      ceiling === null
        ? '允许一次：放行这次调用，并在你发送下一条消息之前不再对同类调用计数。'
        : `允许一次：放行这次调用及之后至多 ${ceiling} 次同类调用；再往后的同类调用在你发送下一条消息之前都会被阻止。`,
    reject: '拒绝：阻止这次调用和同类调用，直到你发送下一条消息。',
    words: (words) => words.zh,
  },
};

/**
 * The operator's question at the gate: what and why, what Allow once does
 * (with an exemption ceiling, how many more such calls it lets run), what
 * Reject does. Allow once exempts the hit measures on every track until the
 * next human message (breaker/gate.ts), Reject refuses them as long.
 */
export function askMessage(call: AskedCall, hits: readonly HitFacts[], ceiling: number | null = null, locale: Locale = 'en'): string {
  const frame = FRAMES[locale];
  // Only the hits that speak for their tracks are worded: a call's other hits are not said, nor tracks past ALSO_TRACKS.
  const tracks = byTrack(hits);
  const first = tracks[0];
  const lead = first === undefined ? undefined : askHit(speaker(first), call, locale);
  const sentences = [`${frame.head}${lead === undefined ? frame.none : frame.words(lead.words).what(lead)}`];
  const also: AskHit[] = [];
  for (let at = 1; at < tracks.length && at <= ALSO_TRACKS; at += 1) also.push(askHit(speaker(tracks[at] as HitFacts[]), call, locale));
  if (also.length > 0) sentences.push(frame.also(also.map((hit) => frame.words(hit.words).also(hit))));
  sentences.push(frame.allow(ceiling), frame.reject);
  return sentences.join(locale === 'zh' ? '' : ' ');
}

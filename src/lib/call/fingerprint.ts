/**
 * Fingerprints: every call yields a list of measures, and a repeat must change
 * the real resource, not its spelling, to escape all of them. Decoys are dropped
 * first; the order of emission is part of the contract (it breaks ties).
 */
import { ACT_READ_LIMIT, actOf, RULES } from '../shell/act/index.js';
import type { CoreConfig } from '../setting/core.js';
import { argumentsJson, decoysFor } from './canonical.js';
import { isGenericSink, wordsSink, wordsStripped, wordsVerb } from '../shell/command.js';
import { withoutWrittenHeredocs } from '../shell/heredoc.js';
import { lex } from '../shell/lex.js';
import { ShellLine } from './line.js';
import { safeMember } from '../host/member.js';
import { dialectOf, isShell } from './read.js';
import { RECENT_TEXT_LIMIT, recentPer } from './recent.js';
import { tokenize } from '../shell/tokenize.js';
import { extractUrls, isLocalHost, normUrl, type NormalizedUrl } from './url.js';
import type { Mark } from './mark-type.js';

export interface Fingerprinted {
  /** Distinct fingerprints in emission order, `exact:` first. */
  readonly fps: string[];
  /** Whether the call targets only local hosts (and that policy did not already relax it). */
  readonly local: boolean;
}

type FingerprintConfig = Pick<CoreConfig, 'ignoreArgs' | 'hostAliases' | 'localHosts' | 'includeLocal' | 'limits'>;

// Exported for the tests' generators, which draw tool names and verbs from them.
export const HTTP_VERBS: ReadonlySet<string> = new Set(['curl', 'wget', 'http', 'httpie']);
export const URL_TOOL = /fetch|search|browse|web_/i;
/**
 * Distinct URLs of one shell command that get target fingerprints. Each adds up
 * to three keys to the window and a WHATWG parse, so a command listing 20,000
 * URLs would stall the guard and hold tens of MB per agent (P5, P6); a real
 * command names a handful. Beyond this, `exact:` and `cmd:` still see it all.
 */
export const URL_LIMIT = 64;
/**
 * The preference order when several measures tie: the most actionable first.
 * `act:` follows `cmd:`: when both count the same calls, `cmd:` quotes the
 * command closer to how the model wrote it.
 */
export const RANKED: readonly string[] = ['host', 'net', 'site', 'sink', 'cmd', 'act', 'exact'];

/** The measure a fingerprint belongs to: the text before its first `:`. */
export function measureOf(fp: string): string {
  const colon = fp.indexOf(':');
  return colon < 0 ? fp : fp.slice(0, colon);
}

/** Tie-break rank: host < net < site < sink < cmd < act < exact < anything else. */
export function measureRank(fp: string): number {
  const rank = RANKED.indexOf(measureOf(fp));
  return rank < 0 ? RANKED.length : rank;
}

/**
 * The cap of a fingerprint: a full-fingerprint key (`verb:curl`) wins, else its
 * measure's entry; absent or `null` means uncapped (`Infinity`), invisible to both tracks.
 */
export function limitFor(fp: string, limits: Readonly<Record<string, number | null>>): number {
  if (Object.hasOwn(limits, fp)) return limits[fp] ?? Number.POSITIVE_INFINITY;
  const measure = measureOf(fp);
  return Object.hasOwn(limits, measure) ? (limits[measure] ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
}

/**
 * Whether any cap of a measure is set (`limits.act`, or a full key such as
 * `limits['act:make test']`). An opt-in measure with none is not computed at all.
 */
export function isMeasured(measure: string, limits: Readonly<Record<string, number | null>>): boolean {
  const cap = Object.hasOwn(limits, measure) ? limits[measure] : undefined;
  if (cap !== null && cap !== undefined) return true;
  const prefix = `${measure}:`;
  for (const key in limits) {
    if (key.startsWith(prefix) && limits[key] !== null && limits[key] !== undefined) return true;
  }
  return false;
}

/**
 * What a call's target adds after `exact:`: its fingerprints in emission order,
 * and whether it is purely local. Readings are shared between calls of the same
 * text (recent.ts), so they are never changed.
 */
export interface TargetReading {
  readonly fps: readonly string[];
  readonly local: boolean;
  /** A shell command's other readings, from the same split (line.ts), when the configuration reads them; none for other tools. */
  readonly line?: ShellLine | undefined;
}

/**
 * A target reading as the calls of its text share it, with the marks of `fps`
 * (call/mark.ts `markTarget`) and the configuration they were made under, `null`
 * until first made. Fields the reading is made with, so every reading has one
 * shape (a property added later gave each a second one).
 */
export interface SharedReading extends TargetReading {
  markedFor: object | null;
  marks: readonly Mark[] | null;
}

const actMeasured = new WeakMap<object, boolean>();

/** `isMeasured('act', limits)`, once per `limits` table. */
function isActMeasured(limits: FingerprintConfig['limits']): boolean {
  let measured = actMeasured.get(limits);
  // Stryker disable next-line ConditionalExpression: a cache: asking again gives the same answer
  if (measured === undefined) actMeasured.set(limits, (measured = isMeasured('act', limits)));
  return measured;
}

const NOTHING: SharedReading = Object.freeze({ fps: Object.freeze([]), local: false, line: undefined, markedFor: null, marks: null });

/** A URL's `net:`, `site:` and `host:` fingerprints, in that order (no `host:` for a local host unless included); addTargets writes them alike. */
function targetsOf(url: NormalizedUrl, includeLocal: boolean): string[] {
  const fps = [`net:${url.href}`, `site:${url.site}`];
  if (includeLocal || !isLocalHost(url.host)) fps.push(`host:${url.host}`);
  return fps;
}

/**
 * Appends the URLs' target fingerprints, each once, in order of first appearance
 * (two URLs of one site share `site:`). The other measures cannot collide with
 * them or with each other, so only the targets need the check: a scan of those
 * appended when a command names a few URLs (as nearly all do), a set past that,
 * where comparing each with each would cost quadratic time in long URLs.
 */
function addTargets(fps: string[], urls: readonly NormalizedUrl[], includeLocal: boolean): void {
  const from = fps.length;
  const seen = urls.length > FEW_URLS ? new Set<string>() : null;
  for (const url of urls) {
    addTarget(fps, from, seen, `net:${url.href}`);
    addTarget(fps, from, seen, `site:${url.site}`);
    if (includeLocal || !isLocalHost(url.host)) addTarget(fps, from, seen, `host:${url.host}`);
  }
}

/** URLs whose targets are told apart by a scan (at most three each). */
const FEW_URLS = 4;

/** Appends `fp` unless already appended: `seen` holds the targets when given, else they are `fps` from `from` on. */
function addTarget(fps: string[], from: number, seen: Set<string> | null, fp: string): void {
  if (seen === null ? fps.indexOf(fp, from) >= 0 : seen.has(fp)) return;
  seen?.add(fp);
  fps.push(fp);
}

/**
 * The last few URLs normalized, per alias table: a loop that respells its
 * command (another flag, another order) names the same URL again. A URL and its
 * parts are slices of the command, so only a short command's are kept (P6).
 */
const urlsNormalized = recentPer<NormalizedUrl | null>();

function normalized(spelled: string, command: string, cfg: FingerprintConfig): NormalizedUrl | null {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: which URLs are remembered changes memory, not a fingerprint; the short-warm heap probe in memory.test.ts pins it (P6)
  if (command.length > RECENT_TEXT_LIMIT) return normUrl(spelled, cfg.hostAliases);
  const recent = urlsNormalized(cfg.hostAliases);
  const known = recent.known(spelled);
  return known !== undefined ? known : recent.keep(spelled, normUrl(spelled, cfg.hostAliases));
}

/** Whether every URL's host is local (a loop: the check runs on every new command with a URL). */
function allLocal(urls: readonly NormalizedUrl[]): boolean {
  for (const url of urls) if (!isLocalHost(url.host)) return false;
  return true;
}

/**
 * A shell command's verb, command, action, target and sink fingerprints. With
 * `keepLine` (a track the configuration turns on reads the line beyond its
 * fingerprints: changes, polls, programs; breaker/record.ts asks), the line is
 * kept with the reading; the defaults hold no words past the call.
 */
function readShell(name: string, command: string, cfg: FingerprintConfig, keepLine: boolean): SharedReading {
  const fps: string[] = [];
  const urls: NormalizedUrl[] = [];
  const heredocs = command.includes('<<');
  const acts = isActMeasured(cfg.limits);
  const dialect = dialectOf(name);
  // One reading of the shell syntax serves the here-documents and act:, when either needs it.
  const lexed = heredocs || (acts && dialect === 'posix' && command.length <= ACT_READ_LIMIT) ? lex(command) : undefined;
  // P10, P12: a URL inside a here-document that is only written out or recorded is no target of this call.
  const spelled = extractUrls(heredocs ? withoutWrittenHeredocs(command, lexed) : command);
  for (let at = 0; at < spelled.length && at < URL_LIMIT; at += 1) {
    const url = normalized(spelled[at] as string, command, cfg);
    if (url !== null) urls.push(url);
  }
  const local = urls.length > 0 && allLocal(urls);
  // localHosts: allow relaxes a purely local call to its action identity (exact:, cmd:).
  const relaxed = local && cfg.localHosts === 'allow';
  // One split serves the three readers: on a 10 MB command it is most of the cost.
  const words = tokenize(command);
  const verb = wordsVerb(words);
  if (verb !== '' && !relaxed) {
    fps.push(`verb:${verb}`);
    if (HTTP_VERBS.has(verb)) fps.push('family:http-fetch');
  }
  const stripped = wordsStripped(words, verb, command);
  if (verb !== '' && stripped !== '') fps.push(`cmd:${verb}:${stripped}`);
  // Opt-in (off by default, so the reference's fingerprints are untouched); like cmd:, kept when relaxed.
  if (acts) {
    const action = actOf(command, dialect, RULES, dialect === 'posix' ? lexed : undefined);
    if (action !== '') fps.push(`act:${action}`);
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: with no URLs addTargets adds nothing; the test only spares the call
  if (!relaxed && urls.length > 0) addTargets(fps, urls, cfg.includeLocal);
  const sink = wordsSink(words);
  // Stryker disable next-line ConditionalExpression: isGenericSink(null) is true, so the null test only spares the call
  if (sink !== null && !isGenericSink(sink) && !relaxed) fps.push(`sink:${sink}`);
  // Made as its calls share it (SharedReading), with room for its marks: one object a reading.
  return { fps, local: local && cfg.localHosts !== 'allow', line: keepLine ? new ShellLine(command, words, sink) : undefined, markedFor: null, marks: null };
}

/** A fetch, search or browse tool's target fingerprints; `null` when its URL does not parse. */
function readUrl(raw: string, cfg: FingerprintConfig): SharedReading | null {
  const url = normUrl(raw, cfg.hostAliases);
  if (url === null) return null;
  const local = isLocalHost(url.host);
  if (local && cfg.localHosts === 'allow') return NOTHING;
  const fps = targetsOf(url, cfg.includeLocal);
  fps.push('family:http-fetch');
  return { fps, local, line: undefined, markedFor: null, marks: null };
}

/**
 * The target readings of the last few commands and URLs, per configuration: a
 * loop reads the same text again. Only pwsh reads differently (its act:
 * dialect), so the other shells share one memory; the text itself is the key.
 */
const posixReadings = recentPer<SharedReading>();
const pwshReadings = recentPer<SharedReading>();
const urlReadings = recentPer<SharedReading>();

/** A call's `exact:` fingerprint: its tool and its arguments, decoys aside. Read before `targetOf`: the arguments are read for `exact:` first. */
export function exactOf(name: string, args: unknown, cfg: FingerprintConfig): string {
  return `exact:${name}:${argumentsJson(args, decoysFor(name, cfg.ignoreArgs))}`;
}

/**
 * What a call's target adds after `exact:`, shared with the calls of the same
 * text. `keepLine`: the reading of a shell command keeps its line (line.ts)
 * for the tracks that read it; one configuration always asks the same.
 */
export function targetOf(name: string, args: unknown, cfg: FingerprintConfig, keepLine: boolean): SharedReading {
  if (isShell(name)) {
    const raw = safeMember(args, 'command');
    const command = typeof raw === 'string' ? raw : '';
    // Stryker disable next-line EqualityOperator: swapping the two memories keeps each dialect in one of them; readShell is given the name either way
    const recent = (name === 'pwsh' ? pwshReadings : posixReadings)(cfg);
    return recent.known(command) ?? recent.keep(command, readShell(name, command, cfg, keepLine));
  }
  if (URL_TOOL.test(name)) {
    // Stryker disable next-line StringLiteral: any text with a space is no URL either: both read as no target
    const raw = safeMember(args, 'url') ?? safeMember(args, 'href') ?? safeMember(args, 'uri') ?? '';
    // File tools and everything else: identified by exact: alone, which sees position.
    // Stryker disable next-line ConditionalExpression: a non-string normalizes to no URL, so it reads as no target either way
    if (typeof raw === 'string') {
      const recent = urlReadings(cfg);
      return recent.known(raw) ?? recent.keep(raw, readUrl(raw, cfg) ?? NOTHING);
    }
  }
  return NOTHING;
}

/** Every fingerprint of one call (§2.3 of the contract), `exact:` first, with `act:` after `cmd:` when it is measured. */
export function fingerprints(call: { readonly name: string; readonly args: unknown }, cfg: FingerprintConfig): Fingerprinted {
  const exact = exactOf(call.name, call.args, cfg);
  const target = targetOf(call.name, call.args, cfg, false);
  return { fps: [exact, ...target.fps], local: target.local };
}

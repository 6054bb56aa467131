/**
 * The duplicated-context track (opt-in, keyed `duplicateText`): the same large
 * text entering one agent's conversation again and again. It reads the
 * messages `agent/pre-step` has claimed for the step (inbox input: human
 * prompts, steering, plugin contexts such as the `additionalContexts` of tool
 * results, subagent relays), and when one text reaches the threshold within
 * the window it appends one notice to the step. It never rewrites or drops a message.
 *
 * Texts are held as a SHA-256 digest of the normalised text, a short preview
 * and the times and sources of their last `threshold` occurrences; the book per
 * agent is bounded (TEXT_LIMIT texts, ID_LIMIT message ids, oldest out first).
 */
import { createHash } from 'node:crypto';
import type { Notice, PreStepPayload } from '../host/types.js';
import { safeMember } from '../host/member.js';
import { own } from '../host/own.js';
import { defang, quoted } from '../text/message.js';
import { createNotice, PLUGIN_NAME } from '../text/notice.js';
import { DUPLICATE_TEXT, duplicateTextMeta, type DuplicateTextConfig } from './duplicate-text.meta.js';
import type { MessageTrackModule } from './track.js';

/** What its notices' summaries say, and its name: `duplicated context × 3: “…”`. */
const SUMMARY = duplicateTextMeta.summary;

/** Distinct texts one agent's book follows; the least recently seen goes first. */
export const TEXT_LIMIT = 512;
/** Message ids one agent's book remembers, to tell replayed history from new input. */
export const ID_LIMIT = 4096;
/** Longest message id kept as it is; a longer (hostile) one is kept as its digest. */
const ID_CHARS = 128;
/** Characters of a text quoted in its notice: enough to recognise it, never the text. */
export const PREVIEW_CHARS = 80;
/** Texts listed in one notice; more are counted, not listed. */
const LISTED = 3;
/** Longest source label kept (a plugin name is short; a hostile one is cut). */
const LABEL_CHARS = 60;

interface Occurrence {
  readonly at: number;
  readonly source: string;
  /** Serial number of the message it came in, to count messages apart from repeats inside one. */
  readonly message: number;
}

interface Text {
  readonly preview: string;
  readonly length: number;
  /** The last `threshold` occurrences within the window, oldest first. */
  occurrences: Occurrence[];
  /** The text is silent until this time (its notice's cooldown). */
  silentUntil: number;
}

interface Book {
  readonly texts: Map<string, Text>;
  readonly ids: Set<string>;
  /** One stored copy per source label, shared by its occurrences (bounded like the texts). */
  readonly labels: Map<string, string>;
  messages: number;
}

/** One text that reached the threshold in this step, as its notice reports it. */
export interface Duplicate {
  readonly preview: string;
  readonly length: number;
  readonly count: number;
  readonly messages: number;
  /** Source labels with their occurrence counts, most frequent first. */
  readonly sources: readonly (readonly [string, number])[];
}

export interface DuplicateText {
  /**
   * `agent/pre-step`, once the rest of the waterfall has decided: records the
   * claimed messages and returns the decision, with one notice appended when a
   * text reached the threshold. Anything but an `enter` decision passes untouched.
   * `cfg` is the agent's own when settings changed while the plugin runs.
   */
  review(payload: PreStepPayload, decision: unknown, cfg?: DuplicateTextConfig): unknown;
}

/**
 * Line ends as `\n`, spaces and tabs at line ends dropped, trailing blank lines
 * dropped. Hand-written so that a long run of spaces stays linear.
 */
export function normalizeText(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  // Most injected texts are already clean: no copy at all.
  if (
    // Stryker disable next-line ConditionalExpression,StringLiteral: a fast path (the whole test false, or indexOf('') = 0); the general path gives a clean text back unchanged
    text.indexOf('\r') === -1 &&
    last !== 10 &&
    last !== 32 &&
    last !== 9 &&
    !/[ \t]\n/.test(text)
  )
    return text;
  const lines = text.split(/\r\n|\r|\n/);
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at] as string;
    let end = line.length;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: charCodeAt(-1) is NaN, which ends the loop as `end > 0` does
    while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end -= 1;
    lines[at] = line.slice(0, end);
  }
  // An empty list's last line is undefined, which ends the loop.
  while (lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

export function fingerprintText(normalized: string): string {
  return createHash('sha256').update(normalized).digest('base64');
}

/** The head of a text on one line, for a notice. */
export function previewText(normalized: string): string {
  const head = normalized
    .slice(0, PREVIEW_CHARS * 2)
    .replace(/\s+/g, ' ')
    .trim();
  return own(head.length > PREVIEW_CHARS || normalized.length > PREVIEW_CHARS * 2 ? `${head.slice(0, PREVIEW_CHARS)}\u2026` : head);
}

/** Who put a message in: its source kind, and the plugin or name that produced it when there is one. */
export function sourceLabel(message: unknown): string {
  const source = safeMember(message, 'source');
  const kind = safeMember(source, 'kind');
  const label = typeof kind === 'string' && kind !== '' ? kind : 'unknown';
  const plugin = safeMember(source, 'plugin');
  const name = safeMember(source, 'name');
  const detail = typeof plugin === 'string' && plugin !== '' ? plugin : typeof name === 'string' ? name : '';
  const full = detail === '' ? label : `${label}:${detail}`;
  return own(full.length > LABEL_CHARS ? `${full.slice(0, LABEL_CHARS - 1)}\u2026` : full);
}

/** This plugin's own notices come back through the inbox; they are never counted. */
function isOwn(message: unknown): boolean {
  const source = safeMember(message, 'source');
  return safeMember(source, 'kind') === 'plugin' && safeMember(source, 'plugin') === PLUGIN_NAME;
}

/** The text parts of a message: each `text` content block, or a bare string content. */
function textsOf(message: unknown): string[] {
  const content = safeMember(message, 'content');
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const block of content) {
    if (safeMember(block, 'type') !== 'text') continue;
    const text = safeMember(block, 'text');
    if (typeof text === 'string') texts.push(text);
  }
  return texts;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** What the model reads: which texts repeat, how often and from where, and what to do about it. */
export function duplicateMessage(found: readonly Duplicate[], windowMs: number): string {
  const lines = [
    `DUPLICATED_CONTEXT: ${found.length === 1 ? 'a text has' : `${found.length} texts have`} entered this conversation repeatedly within ${seconds(windowMs)}. Nothing was removed or blocked.`,
  ];
  for (const text of found.slice(0, LISTED)) {
    const sources = text.sources.map(([label, count]) => `${label} \u00d7${count}`).join(', ');
    lines.push(
      `- "${defang(text.preview)}" (${plural(text.length, 'character', 'characters')}): ${text.count} times in ${plural(text.messages, 'message', 'messages')}, from ${sources}`,
    );
  }
  if (found.length > LISTED) lines.push(`- and ${found.length - LISTED} more`);
  lines.push(
    'The copies are identical: use the one already in your context instead of reading it as new information, and do not fetch or request it again.',
  );
  return lines.join('\n');
}

export function duplicateSummary(found: readonly Duplicate[]): string {
  const first = found[0];
  if (first === undefined) return SUMMARY;
  const more = found.length > 1 ? ` (+${found.length - 1})` : '';
  return `${SUMMARY} \u00d7 ${first.count}${more}: ${quoted(first.preview)}`;
}

/**
 * Past its limit, a book loses its oldest eighth (Maps and Sets iterate in
 * insertion order). In batches: a fresh iterator walks over the slots of
 * earlier deletions, so evicting one entry per insert would cost a walk each.
 */
export function trimOldest(book: Map<string, unknown> | Set<string>, limit: number): void {
  if (book.size <= limit) return;
  const keep = limit - (limit >> 3);
  for (const key of book.keys()) {
    if (book.size <= keep) return;
    book.delete(key);
  }
}

/** The book's stored copy of a source label, so that occurrences share one string. */
function intern(book: Book, label: string): string {
  const stored = book.labels.get(label) ?? label;
  book.labels.delete(stored);
  book.labels.set(stored, stored);
  trimOldest(book.labels, TEXT_LIMIT);
  return stored;
}

function withNotice(decision: unknown, notice: Notice): unknown {
  const messages = safeMember(decision, 'messages');
  if (!Array.isArray(messages)) return decision;
  return { ...(decision as object), messages: [...messages, notice] };
}

/** Counts one occurrence; returns the text when this occurrence earns its notice. */
function record(cfg: DuplicateTextConfig, book: Book, digest: string, normalized: string, seen: Occurrence): Duplicate | null {
  let text = book.texts.get(digest);
  if (text === undefined) {
    // Stryker disable next-line ArrayDeclaration: occurrences are filtered by time before use, and a string has none
    text = { preview: previewText(normalized), length: normalized.length, occurrences: [], silentUntil: Number.NEGATIVE_INFINITY };
  }
  // Re-inserted so that the map's order is least recently seen first.
  book.texts.delete(digest);
  book.texts.set(digest, text);
  trimOldest(book.texts, TEXT_LIMIT);
  const recent = text.occurrences.filter((earlier) => seen.at - earlier.at < cfg.windowMs);
  recent.push(seen);
  // Stryker disable next-line EqualityOperator: slicing a list of exactly `threshold` keeps it whole
  text.occurrences = recent.length > cfg.threshold ? recent.slice(recent.length - cfg.threshold) : recent;
  if (text.occurrences.length < cfg.threshold || seen.at < text.silentUntil) return null;
  const tally = new Map<string, number>();
  for (const earlier of text.occurrences) tally.set(earlier.source, (tally.get(earlier.source) ?? 0) + 1);
  const found: Duplicate = {
    preview: text.preview,
    length: text.length,
    count: text.occurrences.length,
    messages: new Set(text.occurrences.map((earlier) => earlier.message)).size,
    sources: [...tally].sort((x, y) => y[1] - x[1]),
  };
  // The notice accounts for these occurrences; the next one needs `threshold` new ones.
  // Stryker disable next-line ArrayDeclaration: occurrences are filtered by time before use, and a string has none
  text.occurrences = [];
  text.silentUntil = seen.at + cfg.cooldownMs;
  return found;
}

/** Whether the message was counted already (replayed history or a resumed session); remembers it when not. */
function isReplayed(book: Book, message: unknown): boolean {
  const id = safeMember(message, 'id');
  if (typeof id !== 'string') return false;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: which form an id is kept in changes memory, not which ids match (hosts do not name messages by `#` and a digest)
  const key = id.length <= ID_CHARS ? id : `#${fingerprintText(id)}`;
  if (book.ids.has(key)) return true;
  book.ids.add(own(key));
  trimOldest(book.ids, ID_LIMIT);
  return false;
}

/** Counts the texts of one new message into `found`. */
function reviewMessage(cfg: DuplicateTextConfig, book: Book, message: unknown, at: number, found: Map<string, Duplicate>): void {
  // Stryker disable next-line AssignmentOperator: a serial number; counting down tells messages apart as well
  book.messages += 1;
  let source: string | undefined;
  for (const raw of textsOf(message)) {
    // Normalising never lengthens a text, so a short one is skipped without copying it.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; the test after normalising skips the same texts
    if (raw.length < cfg.minChars) continue;
    const normalized = normalizeText(raw);
    if (normalized.length < cfg.minChars) continue;
    const digest = fingerprintText(normalized);
    // The step's notice already covers every further copy of a text it names.
    if (found.has(digest)) continue;
    source ??= intern(book, sourceLabel(message));
    const hit = record(cfg, book, digest, normalized, { at, source, message: book.messages });
    if (hit !== null) found.set(digest, hit);
  }
}

export function createDuplicateText(fixed: DuplicateTextConfig, now: () => number): DuplicateText {
  const books = new WeakMap<object, Book>();
  const bookOf = (agent: object): Book => {
    let book = books.get(agent);
    if (book === undefined) {
      book = { texts: new Map(), ids: new Set(), labels: new Map(), messages: 0 };
      books.set(agent, book);
    }
    return book;
  };
  return {
    review(payload, decision, cfg = fixed) {
      if (safeMember(decision, 'kind') !== 'enter') return decision;
      const agent = safeMember(payload, 'agent');
      const messages = safeMember(payload, 'messages');
      if (typeof agent !== 'object' || agent === null || !Array.isArray(messages)) return decision;
      const book = bookOf(agent);
      const at = now();
      const found = new Map<string, Duplicate>();
      for (const message of messages) {
        if (!isOwn(message) && !isReplayed(book, message)) reviewMessage(cfg, book, message, at, found);
      }
      if (found.size === 0) return decision;
      const listed = [...found.values()];
      return withNotice(decision, createNotice(duplicateMessage(listed, cfg.windowMs), duplicateSummary(listed)));
    },
  };
}

export const duplicateTextTrack = {
  meta: duplicateTextMeta,
  create(now) {
    // Made with the first configuration that turns the track on; each review reads the agent's own.
    let track: DuplicateText | null = null;
    return {
      review(payload, decision, cfg) {
        const own = DUPLICATE_TEXT.of(cfg);
        if (own === null) return decision;
        return (track ??= createDuplicateText(own, now)).review(payload, decision, own);
      },
    };
  },
} satisfies MessageTrackModule;

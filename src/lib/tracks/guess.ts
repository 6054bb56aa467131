/**
 * The guess track (opt-in): a value enumerated by hand. A model that
 * cannot find a password, a port, a path or a version tries one after another:
 * the same program, the same subcommand, one word different each time, and the
 * same error each time. Every call is new to the repeat track and every
 * failure is a different call's first to the failure track, so nothing adds
 * up, for hundreds of calls.
 *
 * Two failing calls that differ in exactly one word (not the program's) set a
 * template: the call with that word left open. A failure that fits the
 * template (an environment variable's name guessed in front of the same run
 * is one such word) and fails as the others did (its text compared with the call's own
 * words masked, so `cannot access '/a/x'` and `cannot access '/b/x'` read
 * alike) is one more guess; at `warnAt` guesses the model is told to find the
 * value instead, and past `limit` the next call that fits meets the gate. A
 * success that fits ends the guessing (the value was found), and so does a
 * different error (the guesses are getting somewhere). A call that differs in
 * two words, or repeats one exactly, is not a guess.
 */
import type { Agent, Notice } from '../host/types.js';
import { own } from '../host/own.js';
import { identityKey } from '../call/identity.js';
import { linesDigest } from '../result/digest.js';
import { isAssignment } from '../shell/command.js';
import { tokenize } from '../shell/tokenize.js';
import { defang, preview, renderHead, type HitWords } from '../text/message.js';
import { countedSummary, createNotice, summaryLabel } from '../text/notice.js';
import { GUESS, guessMeta } from './guess.meta.js';
import { keep } from '../memory/book.js';
import { NO_HITS, readOf, slot, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';

/** Longest command read for guesses: a guess is a short line, a script is not. */
const COMMAND_LIMIT = 1024;
/** Most words a guessed command has. */
const WORDS_LIMIT = 32;
/** Shortest word masked in the error text: shorter ones (`1`, `-n`) would mask what is not the word. */
const MASK_MIN = 3;
/** Head of the error text compared: an error says what it is near its start. */
const ERROR_HEAD = 1024;
/** Failing calls remembered per agent, to find the next guess's template among. */
const RECENT_KEPT = 8;
/** Templates remembered per agent. */
export const GUESS_BOOK_LIMIT = 32;
/** Longest template quoted in a message (the model's), its open word marked. */
const TEMPLATE_CHARS = 120;
/** Where the open word of a template reads. */
const OPEN = '\u2026';

/** A recent failure: its words, and its error as it came (digested only when a later failure differs from it in one word). */
interface Failed {
  readonly words: readonly string[];
  readonly reason: string;
  readonly head: string;
  /** Its error (`errorOf`), once a later failure asked: digested once, however many later ones differ from it in one word. */
  error: string | undefined;
}

interface Template {
  readonly words: readonly string[];
  readonly open: number;
  readonly error: string;
  count: number;
}

interface Book {
  readonly recent: Failed[];
  /** Per template key (`guess:` + the words with the open one left out), its guesses. */
  readonly templates: Map<string, Template>;
}

/** The words a call is guessed in: a short one-line shell command's, or a file read's tool and path (a path guessed by hand); an edit is no guess. */
function wordsOf(call: TrackedCall): readonly string[] | null {
  if (call.command !== undefined) {
    if (call.command.length > COMMAND_LIMIT || call.command.includes('\n')) return null;
    const words = call.line?.words() ?? tokenize(call.command);
    return words.length >= 2 && words.length <= WORDS_LIMIT ? words : null;
  }
  return !call.reads || call.file === undefined || call.file.length > COMMAND_LIMIT ? null : [call.name, call.file];
}

/** Each call's words (`wordsOf`), read when first asked. */
const WORDS = slot<readonly string[] | null>();

/** Where the program is: the first word past the environment assignments in front of it (`DEBUG_SQL=1 pytest …`). */
function programAt(words: readonly string[]): number {
  let at = 0;
  while (at < words.length - 1 && isAssignment(words[at] as string)) at += 1;
  return at;
}

/**
 * The one position two calls' words differ at, the program's aside; -1 for
 * none or several. An assignment in front may be the open word: a variable's
 * name (or value) guessed by hand in front of the same failing run is a guess.
 */
function openAt(a: readonly string[], b: readonly string[]): number {
  // Most words differ in length: no program is looked for.
  if (a.length !== b.length) return -1;
  const program = programAt(a);
  if (programAt(b) !== program || a[program] !== b[program]) return -1;
  let open = -1;
  for (let at = 0; at < a.length; at += 1) {
    if (at === program || a[at] === b[at]) continue;
    if (open !== -1) return -1;
    open = at;
  }
  return open;
}

function templateKey(words: readonly string[], open: number): string {
  return identityKey(`guess:${words.map((word, at) => (at === open ? OPEN : word)).join(' ')}`);
}

function quoteOf(template: Template): string {
  return `guess:${preview(template.words.map((word, at) => (at === template.open ? OPEN : word)).join(' '), TEMPLATE_CHARS)}`;
}

/**
 * A failure as it is kept: its words and the head of its text, copied out of
 * the call (they outlive it in the book, P6); a call that does not fail is never
 * copied. The head is read without joining a huge result first.
 */
function failedOf(settled: Settled, words: readonly string[]): Failed | null {
  if (settled.failure === null) return null;
  return { words: words.map(own), reason: settled.failure.reason, head: own(renderHead(settled.result, ERROR_HEAD)), error: undefined };
}

/** The parts of a word a program may echo: an assignment's name and value apart (`unknown setting 'APP_DEBUG'`), any other word whole. */
function echoed(word: string): readonly string[] {
  if (!isAssignment(word)) return [word];
  const eq = word.indexOf('=');
  return [word, word.slice(0, eq), word.slice(eq + 1)];
}

/** A failure's text with the call's own words masked, digested with its reason; made once a failure. */
function errorOf(failed: Failed): string {
  return (failed.error ??= maskedError(failed));
}

function maskedError(failed: Failed): string {
  let head = failed.head;
  const program = programAt(failed.words);
  const spoken = failed.words.filter((_, at) => at !== program).flatMap(echoed);
  const masks = [...new Set(spoken)].filter((word) => word.length >= MASK_MIN).sort((a, b) => b.length - a.length);
  // Every occurrence, left to right, as a split and a join would (OPEN holds no `$` a replacement would read): no list of the pieces.
  for (const mask of masks) head = head.replaceAll(mask, OPEN);
  return `${failed.reason}|${linesDigest(head)}`;
}

/** Guess stage 1: one word enumerated by hand, failing the same way. */
export function guessMessage(quote: string, count: number): string {
  return (
    `CONVERGENCE_CHECK: you have tried ${count} values in the same place of ${defang(quote)}, and each failed the same way. ` +
    'Guessing another will fail too. Find the value instead: read the documentation, the configuration or the source that sets it, list what exists, or ask for it.'
  );
}

/** The operator's ask (text/ask.ts): the command with the guessed word left open (…). */
const ask: HitWords['ask'] = {
  what: (hit) => `the agent has tried ${hit.count} values by hand in ${hit.shown}, and all failed the same way.`,
  also: (hit) => `${hit.count} values guessed by hand in one place`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `agent 已在 ${hit.shown} 中手工尝试了 ${hit.count} 个取值，都以同样方式失败。`,
  also: (hit) => `在同一位置手工尝试了 ${hit.count} 个取值`,
};

const words: HitWords = {
  track: 'guess',
  listed: 7,
  why: (hit) => `${hit.count} values tried in one place failed the same way (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 ${hit.count} values tried, each failing the same way (limit ${hit.cap})`,
  note: 'Only further guesses in that place are blocked: a command that looks the value up, or any other call, will run.',
  ask,
  zh,
};

/** The templates a call fits, by their keys. */
function fitting(book: Book, words: readonly string[]): [string, Template][] {
  const found: [string, Template][] = [];
  for (const [key, template] of book.templates) if (sameBut(template, words)) found.push([key, template]);
  return found;
}

/** Whether the words equal the template's everywhere but its open place (the same value again fits too). */
function sameBut(template: Template, words: readonly string[]): boolean {
  const mine = template.words;
  if (mine.length !== words.length) return false;
  for (let at = 0; at < mine.length; at += 1) if (at !== template.open && mine[at] !== words[at]) return false;
  return true;
}

function judge(books: WeakMap<Agent, Book>, shared: Shared, call: TrackedCall, callWords: readonly string[] | null): Judgement {
  // Stryker disable next-line OptionalChaining: the track is called only for a policy that turns it on (breaker.ts)
  const limit = GUESS.of(call.cfg)?.limit ?? null;
  const book = books.get(call.agent);
  if (limit === null || book === undefined || callWords === null) return NO_HITS;
  let hits: Hit[] | null = null;
  // Judging changes no template: they are looked at where they stand, no list of the fitting ones made.
  book.templates.forEach((template, key) => {
    if (template.count < limit || !sameBut(template, callWords) || shared.isExempt(call.agent, key)) return;
    (hits ??= []).push({ key, words, quote: quoteOf(template), count: template.count, cap: limit, detail: '' });
  });
  return hits === null ? NO_HITS : { hits };
}

/** A failure: one more guess for each template it fits and fails like, or a new template with a recent failure. */
function guessed(book: Book, shared: Shared, agent: Agent, now: Failed): Template | null {
  const callWords = now.words;
  let grown: Template | null = null;
  // Listed first: a template that grows moves to the end of the book, and one that fails otherwise leaves it.
  for (const [key, template] of book.templates.size === 0 ? [] : fitting(book, callWords)) {
    if (shared.isExempt(agent, key)) continue;
    if (template.error === errorOf(now)) {
      template.count += 1;
      keep(book.templates, key, template, GUESS_BOOK_LIMIT);
      if (grown === null || template.count > grown.count) grown = template;
    } else book.templates.delete(key);
  }
  if (grown !== null) return grown;
  for (let at = 0; at < book.recent.length; at += 1) {
    const before = book.recent[at] as Failed;
    const open = openAt(before.words, callWords);
    if (open === -1 || errorOf(before) !== errorOf(now)) continue;
    const key = templateKey(callWords, open);
    if (book.templates.has(key) || shared.isExempt(agent, key)) continue;
    const template: Template = { words: callWords, open, error: errorOf(now), count: 2 };
    keep(book.templates, own(key), template, GUESS_BOOK_LIMIT);
    return template;
  }
  return null;
}

function learn(books: WeakMap<Agent, Book>, shared: Shared, call: TrackedCall, callWords: readonly string[] | null, settled: Settled): Notice | null {
  if (callWords === null) return null;
  let book = books.get(call.agent);
  if (settled.failure === null) {
    // A value that worked ends the guessing in its place, and the failures it would have been guessed with.
    if (book === undefined) return null;
    // Deleting while iterating is safe: a Map visits no deleted entry, and sameBut reads none of the others.
    book.templates.forEach((template, key, templates) => {
      if (sameBut(template, callWords)) templates.delete(key);
    });
    // In place: a success ends no guess on most calls, and nothing is copied then.
    let kept = 0;
    for (let at = 0; at < book.recent.length; at += 1) {
      const failed = book.recent[at] as Failed;
      if (openAt(failed.words, callWords) !== -1) continue;
      book.recent[kept] = failed;
      kept += 1;
    }
    book.recent.length = kept;
    return null;
  }
  const failed = failedOf(settled, callWords);
  if (failed === null) return null;
  if (book === undefined) books.set(call.agent, (book = { recent: [], templates: new Map() }));
  const template = guessed(book, shared, call.agent, failed);
  book.recent.push(failed);
  if (book.recent.length > RECENT_KEPT) book.recent.shift();
  // Stryker disable next-line OptionalChaining: as in judge, the policy turns the track on
  if (template === null || template.count !== GUESS.of(call.cfg)?.warnAt) return null;
  const quote = quoteOf(template);
  return createNotice(guessMessage(quote, template.count), countedSummary(summaryLabel(quote), SUMMARY, template.count));
}

/** What its notices' summaries say: `guess “ssh -p … host” guessed x4`. */
const SUMMARY = guessMeta.summary;

/** A call's words, read once a call, on first use. */
const callWords = (call: TrackedCall): readonly string[] | null => readOf(call, WORDS, wordsOf);

/** The guess track's books: each agent's templates and recent failing words, and the shared memory. */
interface GuessBooks {
  readonly books: WeakMap<Agent, Book>;
  readonly shared: Shared;
}

export const guessTrack = {
  meta: guessMeta,
  words,
  create: (shared) => ({ books: new WeakMap<Agent, Book>(), shared }),
  // An agent with no book has no guess to judge and no template to end: its calls' words are not read.
  hooks: {
    // Stryker disable next-line ConditionalExpression: a shortcut: judge finds no book, or no template, either
    judge: ({ books, shared }, call) => ((books.get(call.agent)?.templates.size ?? 0) > 0 ? judge(books, shared, call, callWords(call)) : NO_HITS),
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut: learn keeps no success without a book either
    learn: ({ books, shared }, call, settled) => (settled.failure === null && !books.has(call.agent) ? null : learn(books, shared, call, callWords(call), settled)),
    clear: ({ books }, agent) => void books.delete(agent),
  },
} satisfies CallTrackModule<GuessBooks>;

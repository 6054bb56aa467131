/**
 * The one reader of shell text. A single forward pass splits a command into
 * words, operators and redirections as the shell does, and reads its quotes,
 * escapes, line continuations, command substitutions (`$(…)`, backticks,
 * `<(…)`, `>(…)`), comments and here-documents. The readings of a command's
 * syntax are built on its result: `act:`'s line (act/line.ts) and the
 * here-documents that are only written out or recorded (heredoc.ts, P10, P12).
 *
 * One view is not derived from it: 0.5.2's word splitting (tokenize.ts, §2.11),
 * which reads quotes where the shell reads none (in a here-document's body, in a
 * comment), pairs a `"` before `$(` with the next `"` inside it, and splits at
 * characters the shell keeps in a word (`\r`, no-break spaces).
 *
 * The result is a flat list. A substitution's tokens come between an `open` and
 * a `close` token, before the word (or redirection) that holds it, which is
 * complete only after them. Never throws on a string; linear: each character is
 * read once, a body is passed over line by line, and past MAX_DEPTH nested
 * substitutions, or at anything left open, the reading stops and says so.
 */

import { isDigitCode } from './tokenize.js';

/** `posix` for bash and sh; `pwsh` reads no escapes, and stops at syntax PowerShell reads otherwise than sh. */
export type Dialect = 'posix' | 'pwsh';

/** One word. */
export interface Word {
  /** As written. */
  readonly text: string;
  /**
   * After quote removal, or `null` when the shell would expand it (`$`, a
   * substitution, globs, `~`, braces): such a word is never read as a literal.
   */
  readonly value: string | null;
}

/** What joins or separates commands. */
export type ControlOperator = '&&' | '||' | '|' | '|&' | ';' | ';;' | '&' | '\n' | '(' | ')';

export type Token =
  | { readonly kind: 'word'; readonly word: Word }
  /** `2>&1` is fd `2`, op `>&`, target `1`; `target` is `null` when no word follows. A here-document's target is its delimiter word. */
  | { readonly kind: 'redirect'; readonly fd: string; readonly op: string; readonly target: Word | null }
  | { readonly kind: 'operator'; readonly op: ControlOperator }
  /** A substitution opens: its tokens follow, up to the matching `close`. */
  | { readonly kind: 'open'; readonly by: '$(' | '`' | '<(' | '>(' }
  | { readonly kind: 'close' }
  | { readonly kind: 'comment' };

export interface HereDocument {
  /** Index in `tokens` of its `<<` or `<<-` redirection. */
  readonly operator: number;
  /** Index in `tokens` of the newline after which its body starts. */
  readonly line: number;
  readonly delimiter: string;
  /** Its body: from the line after `line` to the start of the delimiter's line, or to the end of the text. */
  readonly start: number;
  readonly end: number;
  /** Whether the delimiter's line was found. */
  readonly terminated: boolean;
}

export interface Lexed {
  readonly tokens: readonly Token[];
  /** In the order of their operators, which is the order of their bodies. */
  readonly hereDocuments: readonly HereDocument[];
  /** Whether every quote, substitution, `${…}` and body closed, within MAX_DEPTH, in syntax the dialect shares with sh. */
  readonly complete: boolean;
}

/** Substitutions nested deeper than this are no command anyone writes: the reading stops there. */
export const MAX_DEPTH = 32;

const TAB = 0x09;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const DOUBLE = 0x22;
const HASH = 0x23;
const DOLLAR = 0x24;
const AMP = 0x26;
const STAR = 0x2a;
const SINGLE = 0x27;
const OPEN = 0x28;
const CLOSE = 0x29;
const SEMI = 0x3b;
const LESS = 0x3c;
const GREATER = 0x3e;
const AT = 0x40;
const BACKSLASH = 0x5c;
const TICK = 0x60;
const BRACE = 0x7b;
const UNBRACE = 0x7d;
const PIPE = 0x7c;

/** Characters that end a word outside quotes. */
const ENDS_WORD: Uint8Array = table([' ', '\t', '\n', '|', '&', ';', '<', '>', '(', ')']);
/** Unquoted, these make the shell expand the word (globs, braces, tilde). */
const EXPANDS: Uint8Array = table(['*', '?', '[', '{', '}', '~']);
/** Inside double quotes a backslash escapes only these (POSIX); before anything else it stays. */
const DOUBLE_ESCAPES: Uint8Array = table(['$', '`', '"', '\\', '\n']);
/**
 * Printable ASCII characters that are only themselves inside a word: a run of
 * them is stepped over in one loop; every other character takes the full path.
 */
// Stryker disable all: a shortcut table: a character it leaves out takes the full path, which reads it the same
const PLAIN: Uint8Array = (() => {
  const plain = new Uint8Array(128);
  for (let code = 0x21; code < 0x7f; code += 1) plain[code] = 1;
  for (const c of ['|', '&', ';', '<', '>', '(', ')', '#', '`', '\\', "'", '"', '$', '*', '?', '[', '{', '}', '~', '@']) plain[c.charCodeAt(0)] = 0;
  return plain;
})();
// Stryker restore all

function table(chars: readonly string[]): Uint8Array {
  const marks = new Uint8Array(128);
  for (const c of chars) marks[c.charCodeAt(0)] = 1;
  return marks;
}

// Stryker disable next-line ConditionalExpression,EqualityOperator: past the table an index reads undefined, no mark; the bound keeps the read in it
const is = (marks: Uint8Array, code: number): boolean => code < 128 && marks[code] === 1;

interface Pending {
  readonly operator: number;
  readonly delimiter: string;
  readonly stripTabs: boolean;
}

/** The reading in progress: one per text, so no closure is made per word. */
interface Reader {
  readonly text: string;
  readonly pwsh: boolean;
  i: number;
  depth: number;
  /** What closes the innermost substitution: `)`, a backtick, or nothing (-1) at top level. */
  closer: number;
  readonly tokens: Token[];
  readonly documents: HereDocument[];
  readonly pending: Pending[];
  complete: boolean;
}

/**
 * A word being read: the pieces of its value so far, and where the pending run
 * of plain characters began. Most words that take this path (`"a b"`, `'x'`)
 * have one piece: it is held alone, and a list is made only for a second.
 */
interface Piece {
  /** The first piece, `''` while there is none. */
  first: string;
  /** Every piece, once there are two or more. */
  parts: string[] | null;
  run: number;
  expands: boolean;
}

/** Adds a piece to the word's value (an empty one adds nothing, and nothing is kept for a word that expands: it has no value). */
function add(w: Piece, part: string): void {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: shortcuts: an empty piece joins to nothing, and an expanding word's value is never read
  if (part === '' || w.expands) return;
  if (w.parts !== null) {
    w.parts.push(part);
    return;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a first piece held in a list of two with an empty one joins the same
  if (w.first === '') w.first = part;
  else w.parts = [w.first, part];
}

/** Stops the reading: what follows cannot be read (left open, too deep, or not the dialect's sh syntax). */
function stop(r: Reader): void {
  r.complete = false;
  r.i = r.text.length;
}

/** Ends the pending run of plain characters at `end`. */
function flush(r: Reader, w: Piece, end: number): void {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty run adds nothing
  if (end > w.run) add(w, r.text.slice(w.run, end));
}

/** The text of a shell command read into tokens and here-documents (see the module comment). */
// Stryker disable next-line StringLiteral: any dialect but 'pwsh' reads as posix
export function lex(text: string, dialect: Dialect = 'posix'): Lexed {
  const r: Reader = { text, pwsh: dialect === 'pwsh', i: 0, depth: 0, closer: -1, tokens: [], documents: [], pending: [], complete: true };
  readList(r);
  // An operator whose body never began (no newline after it) leaves the text open.
  if (r.pending.length > 0) r.complete = false;
  return { tokens: r.tokens, hereDocuments: r.documents, complete: r.complete };
}

/** Tokens up to the end of the text or the innermost substitution's closer; whether the closer was met. */
function readList(r: Reader): boolean {
  const { text } = r;
  let parens = 0;
  while (r.i < text.length) {
    const c = text.charCodeAt(r.i);
    if (c === SPACE || c === TAB) {
      r.i += 1;
    } else if (c === BACKSLASH && !r.pwsh && text.charCodeAt(r.i + 1) === NEWLINE) {
      // A line continuation between words: it joins the lines and separates nothing.
      r.i += 2;
    } else if (c === r.closer && (c === TICK || parens === 0)) {
      return true;
    } else if (c === NEWLINE) {
      r.tokens.push({ kind: 'operator', op: '\n' });
      r.i += 1;
      readBodies(r);
    } else if (c === HASH) {
      // A word that starts with `#` starts a comment; it runs to the end of its line.
      const end = text.indexOf('\n', r.i);
      r.i = end === -1 ? text.length : end;
      r.tokens.push({ kind: 'comment' });
    } else if (c === OPEN || c === CLOSE) {
      if (c === OPEN) {
        parens += 1;
      } else {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: only the closer's level reads the count, and there a ) at 0 closes before it is counted
        if (parens > 0) parens -= 1;
      }
      r.tokens.push({ kind: 'operator', op: c === OPEN ? '(' : ')' });
      r.i += 1;
    } else if (is(ENDS_WORD, c)) {
      readOperator(r, '');
    } else {
      readWordOrRedirect(r);
    }
  }
  return false;
}

/** Digits glued to `<` or `>` name a file descriptor (`2>`): the length of the digits, or 0. */
function descriptorAt(text: string, at: number): number {
  let end = at;
  // Past the end a code is NaN, no digit.
  while (isDigitCode(text.charCodeAt(end))) end += 1;
  const next = text.charCodeAt(end);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: every caller stands on a character that ends no word, so with no digit `next` is no < or >
  return end > at && (next === LESS || next === GREATER) ? end - at : 0;
}

function readWordOrRedirect(r: Reader): void {
  // PowerShell's `*>&1`, `*>`, `*>>`: every stream at once, as a descriptor.
  if (r.pwsh && r.text.charCodeAt(r.i) === STAR && r.text.charCodeAt(r.i + 1) === GREATER) {
    r.i += 1;
    readOperator(r, '*');
    return;
  }
  const digits = descriptorAt(r.text, r.i);
  if (digits > 0) {
    const fd = r.text.slice(r.i, r.i + digits);
    r.i += digits;
    readOperator(r, fd);
    return;
  }
  r.tokens.push({ kind: 'word', word: readWord(r) });
}

/** A control operator or a redirection at the cursor (`fd`: the descriptor before it, `''` when none). */
function readOperator(r: Reader, fd: string): void {
  const { text } = r;
  const c = text.charCodeAt(r.i);
  const next = text.charCodeAt(r.i + 1);
  if (c === PIPE) {
    if (next === PIPE) return control(r, '||');
    // PowerShell has no `|&`, and its lone `&` is the call operator, not a background job.
    if (next === AMP) return r.pwsh ? stop(r) : control(r, '|&');
    return control(r, '|');
  }
  if (c === AMP) {
    if (next === AMP) return control(r, '&&');
    if (r.pwsh) return stop(r);
    if (next === GREATER) return redirect(r, fd, text.charCodeAt(r.i + 2) === GREATER ? '&>>' : '&>');
    return control(r, '&');
  }
  // A case arm's `;&` is read as `;` and `&`, as its `;;&` is `;;` and `&`: no reading needs them told apart.
  if (c === SEMI) return control(r, next === SEMI ? ';;' : ';');
  if (c === LESS) return readLess(r, fd, next);
  // c === GREATER
  if (next === OPEN && fd === '') return substitution(r, '>(');
  if (next === GREATER) return redirect(r, fd, '>>');
  if (next === AMP) return redirect(r, fd, '>&');
  if (next === PIPE) return redirect(r, fd, '>|');
  return redirect(r, fd, '>');
}

/** `<`, `<&`, `<>`, here-documents, here-strings and `<(…)`; PowerShell reserves `<`. */
function readLess(r: Reader, fd: string, next: number): void {
  if (r.pwsh) return stop(r);
  const { text } = r;
  if (next === OPEN && fd === '') return substitution(r, '<(');
  if (next === AMP) return redirect(r, fd, '<&');
  if (next === GREATER) return redirect(r, fd, '<>');
  if (next !== LESS) return redirect(r, fd, '<');
  const third = text.charCodeAt(r.i + 2);
  if (third === LESS) return redirect(r, fd, '<<<');
  const stripTabs = third === 0x2d;
  redirect(r, fd, stripTabs ? '<<-' : '<<');
  // The redirection just read, with its delimiter word, if one followed.
  const { target } = r.tokens[r.tokens.length - 1] as Extract<Token, { kind: 'redirect' }>;
  if (target !== null) r.pending.push({ operator: r.tokens.length - 1, delimiter: delimiterOf(target), stripTabs });
}

/** A here-document's delimiter: its word after quote removal, never expanded (`<<$X` ends at a line `$X`). */
function delimiterOf(w: Word): string {
  return w.value ?? w.text.replace(/["'\\]/g, '');
}

function control(r: Reader, op: ControlOperator): void {
  r.tokens.push({ kind: 'operator', op });
  r.i += op.length;
}

/** A redirection and the word it takes, if one follows (a descriptor glued to the next operator is none). */
function redirect(r: Reader, fd: string, op: string): void {
  const { text } = r;
  r.i += op.length;
  for (;;) {
    const c = text.charCodeAt(r.i);
    if (c === SPACE || c === TAB) r.i += 1;
    else if (c === BACKSLASH && !r.pwsh && text.charCodeAt(r.i + 1) === NEWLINE) r.i += 2;
    else break;
  }
  const c = text.charCodeAt(r.i);
  const readable = r.i < text.length && !is(ENDS_WORD, c) && c !== HASH && !(c === TICK && r.closer === TICK) && descriptorAt(text, r.i) === 0;
  const target = readable ? readWord(r) : null;
  r.tokens.push({ kind: 'redirect', fd, op, target });
}

/** A substitution at the cursor, opened by `by`: its tokens between `open` and `close`. */
function substitution(r: Reader, by: '$(' | '`' | '<(' | '>('): void {
  if (r.depth >= MAX_DEPTH) return stop(r);
  r.tokens.push({ kind: 'open', by });
  r.i += by.length;
  const outer = r.closer;
  r.closer = by === '`' ? TICK : CLOSE;
  r.depth += 1;
  const closed = readList(r);
  r.depth -= 1;
  r.closer = outer;
  if (!closed) return stop(r);
  r.i += 1;
  r.tokens.push({ kind: 'close' });
}

/** The bodies of the here-documents whose operators the newline just read ends the line of, in order. */
function readBodies(r: Reader): void {
  const { text, pending } = r;
  const line = r.tokens.length - 1;
  for (const doc of pending) {
    const start = r.i;
    let at = start;
    for (;;) {
      const next = text.indexOf('\n', at);
      const end = next === -1 ? text.length : next;
      if (isDelimiterLine(text, at, end, doc)) {
        r.documents.push({ operator: doc.operator, line, delimiter: doc.delimiter, start, end: at, terminated: true });
        r.i = next === -1 ? text.length : next + 1;
        break;
      }
      if (next === -1) {
        r.documents.push({ operator: doc.operator, line, delimiter: doc.delimiter, start, end: text.length, terminated: false });
        pending.length = 0;
        return stop(r);
      }
      at = next + 1;
    }
  }
  pending.length = 0;
}

/** Whether the line `[at, end)` is the delimiter (`<<-`: after its leading tabs). */
function isDelimiterLine(text: string, at: number, end: number, doc: Pending): boolean {
  let from = at;
  if (doc.stripTabs) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: at the line's end stands a newline or nothing, no tab
    while (from < end && text.charCodeAt(from) === TAB) from += 1;
  }
  return end - from === doc.delimiter.length && text.startsWith(doc.delimiter, from);
}

/** The word at the cursor: quotes removed, its value `null` when the shell would expand it. */
function readWord(r: Reader): Word {
  const { text } = r;
  const n = text.length;
  const start = r.i;
  // Most words are one run of plain characters: the word is its slice, with nothing to join.
  r.i = plainRun(text, start);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: a shortcut: the full path reads a plain word the same
  if (r.i === n || is(ENDS_WORD, text.charCodeAt(r.i))) {
    const plain = text.slice(start, r.i);
    return { text: plain, value: plain };
  }
  const w: Piece = { first: '', parts: null, run: start, expands: false };
  // Stryker disable next-line EqualityOperator: at the end the run below ends there too, and the loop stops
  while (r.i < n) {
    // The plain run first: the full path would step over each of these one by one.
    r.i = plainRun(text, r.i);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: at the end a code is NaN: stepped past as a character, it adds nothing to the word's text or value
    if (r.i >= n) break;
    const c = text.charCodeAt(r.i);
    if (is(ENDS_WORD, c) || (c === TICK && r.closer === TICK)) break;
    if (c === BACKSLASH && !r.pwsh) readEscape(r, w);
    else if (c === SINGLE) readSingleQuoted(r, w);
    else if (c === DOUBLE) readDoubleQuoted(r, w);
    else if (c === DOLLAR || c === TICK) readExpansion(r, w, c);
    else readOther(r, w, c, start);
  }
  flush(r, w, r.i);
  return { text: text.slice(start, r.i), value: w.expands ? null : (w.parts?.join('') ?? w.first) };
}

/** Where the run of PLAIN characters from `at` ends. */
function plainRun(text: string, at: number): number {
  let i = at;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut (PLAIN's), and past the table an index reads undefined
  for (let code = text.charCodeAt(i); code < 128 && PLAIN[code] === 1; code = text.charCodeAt(i)) i += 1;
  return i;
}

/** An unquoted backslash (POSIX): `\<newline>` joins lines, any other escaped character is itself, a last one is kept. */
function readEscape(r: Reader, w: Piece): void {
  flush(r, w, r.i);
  const next = r.text.charCodeAt(r.i + 1);
  if (Number.isNaN(next)) {
    add(w, '\\');
    r.i += 1;
  } else {
    if (next !== NEWLINE) add(w, r.text[r.i + 1] as string);
    r.i += 2;
  }
  w.run = r.i;
}

function readSingleQuoted(r: Reader, w: Piece): void {
  const { text } = r;
  flush(r, w, r.i);
  const close = text.indexOf("'", r.i + 1);
  if (close === -1) return stop(r);
  // PowerShell doubles a quote to escape it, where sh joins two strings.
  if (r.pwsh && text.charCodeAt(close + 1) === SINGLE) return stop(r);
  add(w, text.slice(r.i + 1, close));
  r.i = close + 1;
  w.run = r.i;
}

/** `"…"`: `$` expands inside, substitutions open, and a backslash escapes only DOUBLE_ESCAPES (POSIX). */
function readDoubleQuoted(r: Reader, w: Piece): void {
  const { text } = r;
  flush(r, w, r.i);
  r.i += 1;
  w.run = r.i;
  // Stryker disable next-line EqualityOperator: at the end a code is NaN, stepped past, and the quote is left open all the same
  while (r.i < text.length) {
    const c = text.charCodeAt(r.i);
    if (c === DOUBLE) {
      flush(r, w, r.i);
      r.i += 1;
      w.run = r.i;
      if (r.pwsh && text.charCodeAt(r.i) === DOUBLE) stop(r);
      return;
    }
    // Inside backticks the next backtick closes them, quotes or not.
    if (c === TICK && r.closer === TICK) {
      flush(r, w, r.i);
      w.run = r.i;
      return;
    }
    if (c === DOLLAR || c === TICK) {
      readExpansion(r, w, c);
    } else if (c === BACKSLASH && !r.pwsh && is(DOUBLE_ESCAPES, text.charCodeAt(r.i + 1))) {
      flush(r, w, r.i);
      if (text.charCodeAt(r.i + 1) !== NEWLINE) add(w, text[r.i + 1] as string);
      r.i += 2;
      w.run = r.i;
    } else {
      r.i += 1;
    }
  }
  stop(r);
}

/**
 * `$…`, `$(…)` or a backtick, and `${…}`, read to its first `}` in double quotes
 * too: quotes inside it are its own (`"${A:-"b c"}"` is one word): the word expands.
 */
function readExpansion(r: Reader, w: Piece, c: number): void {
  const { text } = r;
  w.expands = true;
  const next = text.charCodeAt(r.i + 1);
  if (c === DOLLAR && next !== OPEN && next !== BRACE) {
    r.i += 1;
    return;
  }
  flush(r, w, r.i);
  if (c === TICK || next === OPEN) {
    substitution(r, c === TICK ? '`' : '$(');
  } else {
    const close = text.indexOf('}', r.i + 2);
    if (close === -1) return stop(r);
    r.i = close + 1;
  }
  w.run = r.i;
}

/** A character of no meaning to sh but globs and braces; PowerShell's braces and a leading `@` are its own syntax. */
function readOther(r: Reader, w: Piece, c: number, start: number): void {
  if (r.pwsh && (c === BRACE || c === UNBRACE || (c === AT && r.i === start))) return stop(r);
  if (is(EXPANDS, c)) w.expands = true;
  r.i += 1;
}

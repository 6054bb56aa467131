/**
 * Reading a command line for `act:` as the shell reads it: words with their
 * quotes removed, operators (`&&`, `|`, `;`, redirections) split from the words
 * around them, and every word that the shell would expand marked as such.
 *
 * `tokenize` (§2.11) cannot serve here: it mirrors the reference's splitter,
 * which glues `a|b` into one word, drops a backslash inside double quotes
 * (`"a\b"` and `"ab"` read alike, the shell prints them differently) and
 * forgets which words were quoted (`'*.ts'` is a file name, `*.ts` a glob).
 * Folding on that reading would merge different actions.
 *
 * Anything this reader does not model returns `null` (the caller then keeps the
 * command as written): command substitution, backquotes, subshells and groups,
 * here-documents, process substitution, comments, compound commands
 * (`if`, `for`, `while`, `case`, …), unterminated quotes, syntax errors.
 * One pass over the text; no backtracking.
 */
import { isAssignment } from '../command.js';
import type { Command, Connector, Line, Redirect, Word } from './syntax.js';

/** `posix` for bash and shell; `pwsh` reads quotes and escapes the PowerShell way, or gives up. */
export type Dialect = 'posix' | 'pwsh';

interface WordToken {
  readonly kind: 'word';
  readonly word: Word;
  readonly raw: string;
  /** Digits glued to the `<` or `>` after them: a file descriptor, not a word. */
  readonly fd: boolean;
}

type Operator = '&&' | '||' | '|' | '|&' | ';' | '&' | '\n';

type Token =
  | WordToken
  | { readonly kind: 'op'; readonly op: Operator }
  | { readonly kind: 'redirect'; readonly fd: string; readonly op: string };

/** Thrown inside the reader only, caught at its entry: the line is not one we model. No stack is captured. */
const UNMODELLED: unique symbol = Symbol('unmodelled');

function give(): never {
  throw UNMODELLED;
}

// Words that open or close compound commands: such a line is kept as written.
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'function', 'select', 'coproc', '!', '{', '}', '[[', ']]']);

const ENDS_WORD = new Set([' ', '\t', '\n', '|', '&', ';', '<', '>', '(', ')']);
// Unquoted, these make the shell expand the word (globs, braces, tilde).
const EXPANDS = new Set(['*', '?', '[', '{', '}', '~']);
// Inside double quotes a backslash escapes only these (POSIX); before anything else, or at the end of the text, it stays.
const DOUBLE_ESCAPES: ReadonlySet<string | undefined> = new Set(['$', '`', '"', '\\', '\n']);

/** The reader's position in the text; one per line read, so no closure is made per word. */
interface Cursor {
  readonly text: string;
  readonly pwsh: boolean;
  i: number;
}

/** A word being read: the pieces of its value so far, and where the pending run of plain characters began. */
interface Piece {
  readonly parts: string[];
  /** Start of the pending run of plain characters: runs are sliced, not copied character by character. */
  run: number;
  expands: boolean;
}

/** Ends the pending run of plain characters at `end` (an empty run adds nothing to the joined value). */
function flush(text: string, w: Piece, end: number): void {
  w.parts.push(text.slice(w.run, end));
}

/** Where the quote or brace opened before `from` closes: the next `char` from there; an unclosed one is not read. */
function closing(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? give() : at;
}

/** An unquoted backslash (POSIX): `\<newline>` joins lines, any other escaped character is itself. */
function readEscape(r: Cursor, w: Piece): void {
  const { text } = r;
  flush(text, w, r.i);
  const next = text[r.i + 1];
  if (next === undefined) {
    // A lone trailing backslash is itself.
    w.parts.push('\\');
    r.i += 1;
  } else {
    if (next !== '\n') w.parts.push(next);
    r.i += 2;
  }
  w.run = r.i;
}

function readSingleQuoted(r: Cursor, w: Piece): void {
  const { text } = r;
  flush(text, w, r.i);
  const close = closing(text, "'", r.i + 1);
  // PowerShell doubles a quote to escape it; we do not model that.
  if (r.pwsh && text[close + 1] === "'") give();
  w.parts.push(text.slice(r.i + 1, close));
  r.i = close + 1;
  w.run = r.i;
}

/** `"…"`: `$` expands inside, and a backslash escapes only `DOUBLE_ESCAPES` (POSIX). */
function readDoubleQuoted(r: Cursor, w: Piece): void {
  const { text, pwsh } = r;
  flush(text, w, r.i);
  let i = r.i + 1;
  w.run = i;
  for (;;) {
    const d = text[i];
    if (d === undefined) give();
    if (d === '"') {
      flush(text, w, i);
      i += 1;
      if (pwsh && text[i] === '"') give();
      break;
    }
    if (d === '`') give();
    if (d === '$') {
      if (text[i + 1] === '(') give();
      w.expands = true;
    }
    if (d === '\\' && !pwsh && DOUBLE_ESCAPES.has(text[i + 1])) {
      flush(text, w, i);
      const next = text[i + 1] as string;
      if (next !== '\n') w.parts.push(next);
      i += 2;
      w.run = i;
      continue;
    }
    i += 1;
  }
  r.i = i;
  w.run = i;
}

/** One unquoted character that is not a quote or an escape; `$…` and glob characters make the word expand. */
function readPlain(r: Cursor, w: Piece, c: string): void {
  const { text } = r;
  if (c === '$') {
    // `$(…)` needs no check of its own: its `(` ends the word, and a `(` is not read (readOperator).
    w.expands = true;
    if (text[r.i + 1] === '{') {
      r.i = closing(text, '}', r.i + 2) + 1;
      return;
    }
  } else if (EXPANDS.has(c)) {
    w.expands = true;
  }
  r.i += 1;
}

/**
 * Printable ASCII characters that are only themselves inside a word: not a word
 * end, quote, escape, `$`, glob or brace, backquote, `#` or `@` (which matter at
 * a word's start). A run of them is stepped over in one loop; every other
 * character takes the reader's full path.
 */
const PLAIN: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (let code = 0x21; code < 0x7f; code += 1) table[code] = 1;
  for (const c of ['|', '&', ';', '<', '>', '(', ')', '#', '`', '\\', "'", '"', '$', '*', '?', '[', '{', '}', '~', '@']) table[c.charCodeAt(0)] = 0;
  return table;
})();

/** The word at the cursor; quotes removed, and its value `null` when the shell would expand it. */
function readWord(r: Cursor): WordToken {
  const { text, pwsh } = r;
  const n = text.length;
  const start = r.i;
  const w: Piece = { parts: [], run: start, expands: false };
  // Stryker disable next-line EqualityOperator: at the end of the text the character is undefined, which readPlain only steps over, so one more turn leaves the same word
  while (r.i < n) {
    // The plain run first: readPlain would step over each of these one by one.
    while (r.i < n && PLAIN[text.charCodeAt(r.i)] === 1) r.i += 1;
    if (r.i >= n) break;
    const c = text[r.i] as string;
    if (ENDS_WORD.has(c)) break;
    if ((c === '#' && r.i === start) || c === '`') give();
    if (pwsh && (c === '{' || c === '}' || (c === '@' && r.i === start))) give();
    if (c === '\\' && !pwsh) readEscape(r, w);
    else if (c === "'") readSingleQuoted(r, w);
    else if (c === '"') readDoubleQuoted(r, w);
    else readPlain(r, w, c);
  }
  flush(text, w, r.i);
  const raw = text.slice(start, r.i);
  const value = w.expands ? null : w.parts.join('');
  // Digits glued to `<` or `>` name a file descriptor (`2>`), not a word.
  const fd = (text[r.i] === '<' || text[r.i] === '>') && /^\d+$/.test(raw);
  return { kind: 'word', word: { text: raw, value }, raw, fd };
}

function take(r: Cursor, length: number, token: Token): Token {
  r.i += length;
  return token;
}

/** The operator `op`, `length` characters long, at the cursor. */
function operator(r: Cursor, length: number, op: Operator): Token {
  // Stryker disable next-line StringLiteral: parse reads every token that is neither a word nor a redirection as an operator, so this kind is never compared
  return take(r, length, { kind: 'op', op });
}

/** The operator at the cursor, with the fd that precedes it (`''` when none). */
function readOperator(r: Cursor, fd: string): Token {
  const { text, pwsh } = r;
  const c = text[r.i] as string;
  const next = text[r.i + 1];
  if (c === '(' || c === ')') give();
  // A case arm's `;;` or `;&` needs no check: the empty command between its two operators is not read.
  if (c === '\n' || c === ';') return operator(r, 1, c);
  if (c === '|') {
    if (next === '|') return operator(r, 2, '||');
    if (next === '&') return pwsh ? give() : operator(r, 2, '|&');
    return operator(r, 1, '|');
  }
  if (c === '&') {
    if (next === '&') return operator(r, 2, '&&');
    // PowerShell's lone `&` is the call operator, not a background job.
    if (pwsh) give();
    if (next === '>') return text[r.i + 2] === '>' ? take(r, 3, { kind: 'redirect', fd: '', op: '&>>' }) : take(r, 2, { kind: 'redirect', fd: '', op: '&>' });
    return operator(r, 1, '&');
  }
  // Here-documents and here-strings (`<<`, `<<<`), read-write opens (`<>`) and process substitution (`<(`, `>(`) need
  // no check: the redirection is left without a word after it, or the `(` is not read.
  if (c === '<') {
    // PowerShell reserves `<`.
    if (pwsh) give();
    if (next === '&') return take(r, 2, { kind: 'redirect', fd, op: '<&' });
    return take(r, 1, { kind: 'redirect', fd, op: '<' });
  }
  // c === '>'
  if (next === '>') return take(r, 2, { kind: 'redirect', fd, op: '>>' });
  if (next === '&') return take(r, 2, { kind: 'redirect', fd, op: '>&' });
  if (next === '|') return take(r, 2, { kind: 'redirect', fd, op: '>|' });
  return take(r, 1, { kind: 'redirect', fd, op: '>' });
}

function lex(text: string, dialect: Dialect): Token[] {
  const r: Cursor = { text, pwsh: dialect === 'pwsh', i: 0 };
  const tokens: Token[] = [];
  const n = text.length;
  while (r.i < n) {
    const c = text[r.i] as string;
    if (c === ' ' || c === '\t') {
      r.i += 1;
      continue;
    }
    if (c === '\\' && !r.pwsh && text[r.i + 1] === '\n') {
      r.i += 2;
      continue;
    }
    if (ENDS_WORD.has(c)) {
      tokens.push(readOperator(r, ''));
      continue;
    }
    const token = readWord(r);
    if (token.fd) tokens.push(readOperator(r, token.raw));
    else tokens.push(token);
  }
  return tokens;
}

interface Building {
  assigns: Word[];
  words: Word[];
  redirects: Redirect[];
}

const empty = (): Building => ({ assigns: [], words: [], redirects: [] });
const isEmpty = (b: Building): boolean => b.assigns.length === 0 && b.words.length === 0 && b.redirects.length === 0;

function parse(tokens: readonly Token[], dialect: Dialect): Line {
  const pipelines: Command[][] = [];
  const connectors: Connector[] = [];
  let pipeline: Command[] = [];
  let command = empty();
  let background = false;

  const endCommand = (): void => {
    if (isEmpty(command)) give();
    const first = command.words[0];
    if (first !== undefined && RESERVED.has(first.text)) give();
    pipeline.push(command);
    command = empty();
  };
  const endPipeline = (connector: Connector | null): void => {
    endCommand();
    pipelines.push(pipeline);
    pipeline = [];
    // Stryker disable next-line ConditionalExpression: the null pushed after the line's last pipeline is the connector the final pop takes back
    if (connector !== null) connectors.push(connector);
  };

  for (let at = 0; at < tokens.length; at += 1) {
    const token = tokens[at] as Token;
    if (token.kind === 'word') {
      if (dialect === 'posix' && command.words.length === 0 && isAssignment(token.raw)) command.assigns.push(token.word);
      else command.words.push(token.word);
      continue;
    }
    if (token.kind === 'redirect') {
      const target = tokens[at + 1];
      if (target === undefined || target.kind !== 'word') give();
      command.redirects.push({ fd: token.fd, op: token.op, target: (target as { word: Word }).word });
      at += 1;
      continue;
    }
    const op = token.op;
    if (op === '|' || op === '|&') {
      // `a |& b` is `a 2>&1 | b`.
      if (op === '|&') command.redirects.push({ fd: '2', op: '>&', target: { text: '1', value: '1' } });
      endCommand();
    } else if (op === '\n') {
      // A newline ends a command like `;`; after `&&`, `||`, `|` or another separator it is only a line break.
      if (!isEmpty(command)) endPipeline(';');
    } else {
      // An `&` or `;` with nothing after it ends the line; the last connector is taken back below.
      endPipeline(op);
    }
  }
  if (!isEmpty(command)) endPipeline(null);
  else if (pipeline.length > 0) give();
  const last = connectors.length >= pipelines.length ? connectors.pop() : undefined;
  if (last === '&&' || last === '||') give();
  if (last === '&') background = true;
  if (pipelines.length === 0) give();
  return { pipelines, connectors, background };
}

/** The line as the shell would read it, or `null` when it uses syntax `act:` does not model. */
export function readLine(command: string, dialect: Dialect): Line | null {
  try {
    return parse(lex(command, dialect), dialect);
  } catch (error) {
    if (error === UNMODELLED) return null;
    throw error;
  }
}

/**
 * The line `act:` rewrites, read from the lexer's tokens (../lex.ts): pipelines
 * of simple commands, each with its assignments, words and redirections.
 *
 * `tokenize` (§2.11) cannot serve here: it mirrors the reference's splitter,
 * which glues `a|b` into one word, drops a backslash inside double quotes
 * (`"a\b"` and `"ab"` read alike, the shell prints them differently) and
 * forgets which words were quoted (`'*.ts'` is a file name, `*.ts` a glob).
 * Folding on that reading would merge different actions.
 *
 * Anything this reading does not model returns `null` (the caller then keeps
 * the command as written): command and process substitution, backquotes,
 * subshells and groups, here-documents and here-strings, comments, compound
 * commands (`if`, `for`, `while`, `case`, …), anything left open, syntax errors.
 */
import { isAssignment } from '../command.js';
import { lex, type Dialect, type Lexed, type Token } from '../lex.js';
import { unescapeOperators } from './entities.js';
import type { Command, Connector, Line, Redirect, Word } from './syntax.js';

// Words that open or close compound commands: such a line is kept as written.
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'function', 'select', 'coproc', '!', '{', '}', '[[', ']]']);

/** The redirections a line may hold: here-documents, here-strings, `<>` and process substitution are not read. */
const REDIRECTIONS: ReadonlySet<string> = new Set(['<', '<&', '>', '>>', '>&', '>|', '&>', '&>>']);

/** Thrown inside the reading only, caught at its entry: the line is not one we model. No stack is captured. */
const UNMODELLED: unique symbol = Symbol('unmodelled');

function give(): never {
  throw UNMODELLED;
}

interface Building {
  assigns: Word[];
  words: Word[];
  redirects: Redirect[];
}

const empty = (): Building => ({ assigns: [], words: [], redirects: [] });
const isEmpty = (b: Building): boolean => b.assigns.length === 0 && b.words.length === 0 && b.redirects.length === 0;

/** The line's commands, built token by token. */
interface Reading {
  readonly pipelines: Command[][];
  readonly connectors: Connector[];
  pipeline: Command[];
  command: Building;
}

function endCommand(a: Reading): void {
  if (isEmpty(a.command)) give();
  const first = a.command.words[0];
  if (first !== undefined && RESERVED.has(first.text)) give();
  a.pipeline.push(a.command);
  a.command = empty();
}

function endPipeline(a: Reading, connector: Connector | null): void {
  endCommand(a);
  a.pipelines.push(a.pipeline);
  a.pipeline = [];
  // Stryker disable next-line ConditionalExpression: the null pushed after the line's last pipeline is the connector the final pop takes back
  if (connector !== null) a.connectors.push(connector);
}

/** One token into the line being built. */
function take(a: Reading, token: Token, dialect: Dialect): void {
  if (token.kind === 'word') {
    if (dialect === 'posix' && a.command.words.length === 0 && isAssignment(token.word.text)) a.command.assigns.push(token.word);
    else a.command.words.push(token.word);
    return;
  }
  if (token.kind === 'redirect') {
    if (token.target === null || !REDIRECTIONS.has(token.op)) give();
    a.command.redirects.push({ fd: token.fd, op: token.op, target: token.target });
    return;
  }
  if (token.kind !== 'operator') give();
  const op = token.op;
  if (op === '|' || op === '|&') {
    // `a |& b` is `a 2>&1 | b`.
    if (op === '|&') a.command.redirects.push({ fd: '2', op: '>&', target: { text: '1', value: '1' } });
    endCommand(a);
  } else if (op === '\n') {
    // A newline ends a command like `;`; after `&&`, `||`, `|` or another separator it is only a line break.
    if (!isEmpty(a.command)) endPipeline(a, ';');
  } else if (op === '&&' || op === '||' || op === ';' || op === '&') {
    // An `&` or `;` with nothing after it ends the line; the last connector is taken back below.
    endPipeline(a, op);
  } else {
    // Subshells and groups, and a case arm's `;;` (its `;&` is `;` and an empty command).
    give();
  }
}

function parse(lexed: Lexed, dialect: Dialect): Line {
  if (!lexed.complete) give();
  const a: Reading = { pipelines: [], connectors: [], pipeline: [], command: empty() };
  for (const token of lexed.tokens) take(a, token, dialect);
  if (!isEmpty(a.command)) endPipeline(a, null);
  else if (a.pipeline.length > 0) give();
  const last = a.connectors.length >= a.pipelines.length ? a.connectors.pop() : undefined;
  if (last === '&&' || last === '||') give();
  if (a.pipelines.length === 0) give();
  return { pipelines: a.pipelines, connectors: a.connectors, background: last === '&' };
}

/** The line of a lexed command, or `null` when it uses syntax `act:` does not model. */
export function lineOf(lexed: Lexed, dialect: Dialect): Line | null {
  try {
    return parse(lexed, dialect);
  } catch (error) {
    if (error === UNMODELLED) return null;
    throw error;
  }
}

/** The line as the shell would read it (unquoted HTML-escaped operators as the operators they spell, entities.ts), or `null` when it uses syntax `act:` does not model. */
export function readLine(command: string, dialect: Dialect): Line | null {
  return lineOf(lex(dialect === 'posix' ? unescapeOperators(command) : command, dialect), dialect);
}

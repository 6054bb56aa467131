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
import { commandOf, lineWith, type Command, type Connector, type Line, type Redirect, type Word } from './syntax.js';

// Words that open or close compound commands: such a line is kept as written.
const RESERVED: ReadonlySet<string> = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'function', 'select', 'coproc', '!', '{', '}', '[[', ']]']);
// PowerShell has no `select` loop: `select` is Select-Object's alias (`… | select -Last 20`).
const PWSH_RESERVED: ReadonlySet<string> = new Set([...RESERVED].filter((w) => w !== 'select'));

/** The redirections a line may hold: here-documents, here-strings, `<>` and process substitution are not read. */
const REDIRECTIONS: ReadonlySet<string> = new Set(['<', '<&', '>', '>>', '>&', '>|', '&>', '&>>']);

// A command with no assignment or no redirection shares this list: most commands have neither, and
// no one adds to a read command's parts.
const NONE: readonly never[] = [];

/**
 * The line's commands, built token by token. Each step says whether the line
 * is still one we model (`false`: it is not); a thrown value would cost the
 * one line in seven that is not more than reading it. The command being read
 * is its three parts, each list made on its first member.
 */
interface Reading {
  readonly reserved: ReadonlySet<string>;
  readonly pipelines: Command[][];
  readonly connectors: Connector[];
  pipeline: Command[];
  assigns: Word[] | null;
  words: Word[] | null;
  redirects: Redirect[] | null;
}

const isEmpty = (a: Reading): boolean => a.assigns === null && a.words === null && a.redirects === null;

function endCommand(a: Reading): boolean {
  if (isEmpty(a)) return false;
  const first = a.words === null ? undefined : a.words[0];
  if (first !== undefined && a.reserved.has(first.text)) return false;
  a.pipeline.push(commandOf(a.assigns ?? NONE, a.words ?? NONE, a.redirects ?? NONE));
  a.assigns = null;
  a.words = null;
  a.redirects = null;
  return true;
}

function endPipeline(a: Reading, connector: Connector | null): boolean {
  if (!endCommand(a)) return false;
  a.pipelines.push(a.pipeline);
  a.pipeline = [];
  // Stryker disable next-line ConditionalExpression: the null pushed after the line's last pipeline is the connector the final pop takes back
  if (connector !== null) a.connectors.push(connector);
  return true;
}

function addRedirect(a: Reading, r: Redirect): void {
  if (a.redirects === null) a.redirects = [r];
  else a.redirects.push(r);
}

/** One token into the line being built. */
function take(a: Reading, token: Token, dialect: Dialect): boolean {
  if (token.kind === 'word') {
    const w = token.word;
    // An assignment holds a `=`: most command names are passed by with one native search, not read character by character.
    // Stryker disable next-line StringLiteral: a shortcut: isAssignment reads no word without a `=` as one
    if (dialect === 'posix' && a.words === null && w.text.includes('=') && isAssignment(w.text)) {
      if (a.assigns === null) a.assigns = [w];
      else a.assigns.push(w);
    } else if (a.words === null) a.words = [w];
    else a.words.push(w);
    return true;
  }
  if (token.kind === 'redirect') {
    if (token.target === null || !REDIRECTIONS.has(token.op)) return false;
    addRedirect(a, { fd: token.fd, op: token.op, target: token.target });
    return true;
  }
  // Stryker disable next-line ConditionalExpression: an opening, a closing or a comment has no operator, and no operator test below holds for it
  if (token.kind !== 'operator') return false;
  const op = token.op;
  if (op === '|' || op === '|&') {
    // `a |& b` is `a 2>&1 | b`.
    if (op === '|&') addRedirect(a, { fd: '2', op: '>&', target: { text: '1', value: '1' } });
    return endCommand(a);
  }
  // A newline ends a command like `;`; after `&&`, `||`, `|` or another separator it is only a line break.
  if (op === '\n') return isEmpty(a) || endPipeline(a, ';');
  // An `&` or `;` with nothing after it ends the line; the last connector is taken back below.
  if (op === '&&' || op === '||' || op === ';' || op === '&') return endPipeline(a, op);
  // Subshells and groups, and a case arm's `;;` (its `;&` is `;` and an empty command).
  return false;
}

/** The line of a lexed command, or `null` when it uses syntax `act:` does not model. */
export function lineOf(lexed: Lexed, dialect: Dialect): Line | null {
  if (!lexed.complete) return null;
  const a: Reading = { reserved: dialect === 'pwsh' ? PWSH_RESERVED : RESERVED, pipelines: [], connectors: [], pipeline: [], assigns: null, words: null, redirects: null };
  for (const token of lexed.tokens) if (!take(a, token, dialect)) return null;
  if (!isEmpty(a)) {
    if (!endPipeline(a, null)) return null;
  } else if (a.pipeline.length > 0) {
    return null;
  }
  const last = a.connectors.length >= a.pipelines.length ? a.connectors.pop() : undefined;
  if (last === '&&' || last === '||' || a.pipelines.length === 0) return null;
  return lineWith(a.pipelines, a.connectors, last === '&');
}

/** The line as the shell would read it (unquoted HTML-escaped operators as the operators they spell, entities.ts), or `null` when it uses syntax `act:` does not model. */
export function readLine(command: string, dialect: Dialect): Line | null {
  return lineOf(lex(dialect === 'posix' ? unescapeOperators(command) : command, dialect), dialect);
}

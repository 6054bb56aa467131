/**
 * A run with the shell's plumbing around it aside: what the line puts around
 * the command, not what the command runs. `(cd /repo && pytest t.py)` runs
 * what `cd /repo && pytest t.py` runs (a subshell changes only what comes
 * after the line); `pytest t.py >/dev/stdout 2>&1` writes where `pytest t.py`
 * writes; `pytest t.py || true`, `pytest t.py; echo $?` and `pytest t.py ||
 * echo failed` run it and then say how it ended (the status or a line of the
 * echo's own). So the stale track's back-to-back run reads each of them as
 * the run it wraps, between two calls that gave the same answer.
 *
 * The run's context (a `cd D` in front, an environment assignment `A=1 P`,
 * `export A=1; P`) is read apart from the run: two calls in one context are
 * one run, as they were; a call in no context joins a run in one, and one in
 * a context joins a run in none, as a persistent shell keeps the directory
 * and the variable of the call before (likely, not certain: joined only with
 * the same answer, as every reading of respelled.ts is). Two contexts never
 * join, nor does a context other than the one the run named: `cd pkg-a && npm
 * test` and `cd pkg-b && npm test` are two runs, whatever they print.
 *
 * A status-setting suffix (`|| true`, `; echo $?`) changes the answer's
 * status, and an echo adds its line: the answers are then compared with the
 * echo's own last line aside and the status unread (`suffixOf`, `echoedAside`).
 */
import { ACT_READ_LIMIT, type Dialect } from '../shell/act/index.js';
import { readLine } from '../shell/act/line.js';
import { mayEndWithStatus, pwshContextOf, pwshStatusEcho } from './pwsh-plumbing.js';
import { copiesDescriptor, lineWith, mapList, nameOf, renderLine, valueOf, type Command, type Line, type Redirect } from '../shell/act/syntax.js';

/** Between a run's context and the run in a reading (a character no line `act:` writes holds). */
export const CONTEXT_MARK = '\u0001';

/** `>/dev/stdout`, `1>/dev/stdout`, `2>/dev/stderr`: a stream written where it goes anyway. */
function writesItself(r: Redirect): boolean {
  if (r.op !== '>' && r.op !== '>>') return false;
  return ((r.fd === '' || r.fd === '1') && r.target.value === '/dev/stdout') || (r.fd === '2' && r.target.value === '/dev/stderr');
}

/** A command without the streams written where they go anyway; on the line's last command `2>&1` too, once no file is written. */
function withoutSelfWrites(command: Command, last: boolean): Command {
  if (!command.redirects.some(writesItself)) return command;
  const kept = command.redirects.filter((r) => !writesItself(r));
  const merged = (r: Redirect): boolean => r.fd === '2' && r.op === '>&' && r.target.value === '1';
  const writes = kept.some((r) => !merged(r) && (r.op.includes('>') && !copiesDescriptor(r)));
  return { assigns: command.assigns, words: command.words, redirects: last && !writes ? kept.filter((r) => !merged(r)) : kept };
}

/** `true`, `:`, or `echo` of literal words and `$?` (in PowerShell, `$LASTEXITCODE` printed): a command that only says how the run before it ended. */
function saysHowItEnded(pipeline: readonly Command[] | undefined, dialect: Dialect): boolean {
  const command = pipeline?.length === 1 ? pipeline[0] : undefined;
  if (command === undefined || command.assigns.length > 0 || command.redirects.length > 0) return false;
  if (dialect === 'pwsh' && pwshStatusEcho(command) !== null) return true;
  const name = nameOf(command);
  if (name === 'true' || name === ':') return command.words.length === 1;
  return name === 'echo' && echoPattern(command) !== null;
}

const ASSIGNMENT = /^[A-Za-z_]\w*=/;

/** The context a leading pipeline sets (`cd D`, `export A=1`, `A=1`; PowerShell's own spellings too), written one way; `null`: none. */
function contextOf(pipeline: readonly Command[] | undefined, dialect: Dialect): string | null {
  const command = pipeline?.length === 1 ? pipeline[0] : undefined;
  if (command === undefined || command.redirects.length > 0) return null;
  const pwsh = dialect === 'pwsh' ? pwshContextOf(command) : null;
  if (pwsh !== null) return pwsh;
  const values = command.words.map(valueOf);
  if (values.length === 0) return command.assigns.length > 0 ? command.assigns.map((w) => w.text).join(' ') : null;
  if (command.assigns.length > 0) return null;
  if (values[0] === 'cd' && values.length === 2 && values[1] !== null && values[1] !== '-') return command.words.map((w) => w.text).join(' ');
  const exported = command.words.slice(1);
  return values[0] === 'export' && exported.length > 0 && exported.every((w) => w.value !== null && ASSIGNMENT.test(w.value)) ? exported.map((w) => w.text).join(' ') : null;
}

/**
 * The reading of a line (already read with its options aside, `;` as `&&`):
 * its context apart (`context` + `CONTEXT_MARK` + the run, or the run alone),
 * the streams written where they go anyway and a trailing status-setting
 * suffix aside.
 */
export function plumbingAside(line: Line, dialect: Dialect = 'posix'): string {
  let { pipelines, connectors } = line;
  // A suffix that only says how the run ended, after `&&` or `||` (`;` is read as `&&` here).
  const before = connectors[connectors.length - 1];
  if ((before === '&&' || before === '||') && !line.background && saysHowItEnded(pipelines[pipelines.length - 1], dialect)) {
    pipelines = pipelines.slice(0, -1);
    connectors = connectors.slice(0, -1);
  }
  const context: string[] = [];
  let from = 0;
  for (let part = contextOf(pipelines[0], dialect); part !== null && from < pipelines.length - 1 && connectors[from] === '&&'; part = contextOf(pipelines[from], dialect)) {
    context.push(part);
    from += 1;
  }
  // Sliced once, past every context: a line of a thousand `cd`s is read in one pass.
  pipelines = pipelines.slice(from);
  connectors = connectors.slice(from);
  const only = pipelines.length === 1 && pipelines[0]?.length === 1 ? pipelines[0][0] : undefined;
  // The assignments in front of a line's one command are its context as `export` would set them.
  if (only !== undefined && only.assigns.length > 0 && only.words.length > 0) {
    context.push(only.assigns.map((w) => w.text).join(' '));
    pipelines = [[{ assigns: [], words: only.words, redirects: only.redirects }]];
  }
  const last = pipelines.length - 1;
  const run = mapList(pipelines, (pipeline, at) => mapList(pipeline, (command, place) => withoutSelfWrites(command, at === last && place === pipeline.length - 1)));
  const written = renderLine(lineWith(run, connectors, line.background));
  return context.length === 0 ? written : `${context.join(' && ')}${CONTEXT_MARK}${written}`;
}

/** `$?` written bare or in double quotes among literal words: what `echo` prints of it is a number. */
const STATUS_WORD = /^"(?:[^"$`\\]|\$\?)*"$/;

/** What an `echo` of literal words and `$?` prints, as a pattern of its line; `null` for any other echo (an option, another expansion). */
function echoPattern(command: Command): RegExp | null {
  const words = command.words.slice(1);
  if (words.length === 0 || words.length > 16) return null;
  const parts: string[] = [];
  let statuses = 0;
  for (const w of words) {
    const literal = w.value ?? (w.text === '$?' ? '$?' : STATUS_WORD.test(w.text) ? w.text.slice(1, -1) : null);
    if (literal === null || literal.length > 256 || (w.value !== null && literal.startsWith('-'))) return null;
    const pieces = w.value !== null ? [literal] : literal.split('$?');
    statuses += pieces.length - 1;
    parts.push(pieces.map(escaped).join('\\d+'));
  }
  // Two numbers at most: the pattern's backtracking stays within a line's length squared.
  return statuses > 2 ? null : new RegExp(`^${parts.join(' ')}$`);
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A line that ends by saying how its run ended: the echo's line (`null`: `true`/`:` print none), and whether the suffix sets the line's status (after `;` or `||`). */
export interface Suffix {
  readonly echo: RegExp | null;
  readonly setsStatus: boolean;
}

/** The text after a line's last separator (`;`, `|`, `&`), trimmed: where a suffix would be. */
function tailOf(command: string): { tail: string; connector: string } {
  const at = Math.max(command.lastIndexOf(';'), command.lastIndexOf('|'), command.lastIndexOf('&'));
  return { tail: command.slice(at + 1).trim(), connector: at < 1 ? '' : command.slice(at - 1, at + 1) };
}

/** The suffix a line ends with (`; echo $?`, `|| true`, `|| echo failed`, `&& echo done`); `null`: none, or a line not read. */
export function suffixOf(command: string, dialect: Dialect): Suffix | null {
  // Most lines end with no such suffix: a look at their end first (no line is read for them).
  if (dialect === 'pwsh' ? !mayEndWithStatus(command) : command.lastIndexOf('echo') < 0 && !/(?:true|:)\s*$/.test(command.slice(-16))) return null;
  const { tail, connector } = tailOf(command);
  if (!(connector.endsWith(';') || connector === '||' || connector === '&&') || (dialect === 'posix' && !/^(?:true|:|echo)(?:\s|$)/.test(tail))) return null;
  const line = command.length > ACT_READ_LIMIT ? null : readLine(command, dialect);
  const last = line === null || line.background ? undefined : line.pipelines[line.pipelines.length - 1];
  const joined = line?.connectors[line.connectors.length - 1];
  if (last === undefined || joined === undefined || joined === '&' || !saysHowItEnded(last, dialect)) return null;
  const ending = last[0] as Command;
  // In PowerShell, only a printed `$LASTEXITCODE` is read as a suffix (pwsh-plumbing.ts).
  const echo = dialect === 'pwsh' ? pwshStatusEcho(ending) : nameOf(ending) === 'echo' ? echoPattern(ending) : null;
  return dialect === 'pwsh' && echo === null ? null : { echo, setsStatus: joined !== '&&' };
}

/** The longest last line read as an echo's. */
const ECHO_LINE_LIMIT = 1024;

/** The host's own last line for a status that is not 0 (DSH's bash: `[exit code: 1]`), which a suffix that sets the status takes away. */
const EXIT_MARK = /\n\[exit code: -?\d+\]\s*$/;

/**
 * A result's text without what the line's ending printed: the host's exit
 * marker (the status is compared apart, or not at all when a suffix set it),
 * then the line the suffix's echo printed last. A last line the echo could
 * not have printed stays.
 */
export function endingAside(text: string, echo: RegExp | null): string {
  const end = text.replace(EXIT_MARK, '').trimEnd();
  if (echo === null) return end;
  const from = end.lastIndexOf('\n') + 1;
  const last = end.slice(from).trimEnd();
  // An echo's line is short: a longer last line is the run's own.
  return last.length <= ECHO_LINE_LIMIT && echo.test(last) ? end.slice(0, from) : end;
}

/** `( … )`: a line that is one subshell, its inside (read as the line it runs: `null` when it is none). */
export function subshellInside(command: string): string | null {
  const text = command.trim();
  return text.length > 2 && text.startsWith('(') && text.endsWith(')') && !text.startsWith('((') ? text.slice(1, -1) : null;
}

/** A reading's context and run (`''`: no context). */
function apart(reading: string): [context: string, run: string] {
  const at = reading.indexOf(CONTEXT_MARK);
  return at < 0 ? ['', reading] : [reading.slice(0, at), reading.slice(at + 1)];
}

/**
 * Whether a reading runs what one of a run's readings runs, their contexts
 * apart: one of the two in no context, and every context the run named the
 * reading's (a call never joins a run in another directory or environment).
 */
export function joinsOutOfContext(reading: string, readings: readonly (string | null)[]): boolean {
  const [context, run] = apart(reading);
  let joins = false;
  for (const other of readings) {
    if (other === null) continue;
    const [named, ran] = apart(other);
    if (named !== '' && context !== '' && named !== context) return false;
    joins ||= ran === run;
  }
  return joins;
}

/**
 * The failure classifier. `isError` alone would miss the two commonest failures
 * (a non-zero exit and an HTTP error status), so the structured `value` a tool
 * declares is read first; the result text is evidence only for shell tools,
 * where an exit code of 0 proves nothing about a pipeline. A failure in words
 * (English and Chinese) is text/failure.ts's.
 */
import { member } from '../host/member.js';
import { resultText } from '../host/result.js';
import { persistentFailure } from './persistent.js';
import { isSpaceCode } from '../shell/tokenize.js';

export type FailureReason = 'error' | 'exit' | 'timeout' | 'signal' | 'http' | 'sandbox' | 'exception' | 'curl' | 'shell';

export interface Failure {
  readonly reason: FailureReason;
  readonly detail: string;
}

export interface ClassifyOptions {
  /** Whether the tool is a shell, whose text is read when the value says nothing. */
  readonly shell?: boolean;
  /** The shell command, for the curl write-out rule (decision P1). */
  readonly command?: string;
}

/** A detail quotes model-controlled text; this keeps a message readable whatever it holds. */
const DETAIL_LIMIT = 200;

function failure(reason: FailureReason, detail: string): Failure {
  return { reason, detail: detail.length > DETAIL_LIMIT ? `${detail.slice(0, DETAIL_LIMIT)}…` : detail };
}

/**
 * Whether a settled call failed, and how. Never throws: an unreadable result is
 * no verdict (`null`). Aborts and started background jobs are not failures.
 */
export function classifyFailure(result: unknown, options: ClassifyOptions = {}): Failure | null {
  try {
    return classify(result, options);
  } catch {
    return null;
  }
}

/** A result without a structured value reads as one that says nothing: shared, so that no object is made a call. */
const NO_VALUE: Readonly<Record<string, unknown>> = Object.freeze({});

function classify(result: unknown, options: ClassifyOptions): Failure | null {
  if (member(result, 'isError') === true) {
    const error = member(result, 'error');
    // The real host puts a thrown tool error's code at `error.info.code`.
    const code = member(error, 'code') ?? member(member(error, 'info'), 'code') ?? member(error, 'name') ?? member(member(error, 'info'), 'name');
    return failure('error', typeof code === 'string' ? code : '');
  }
  const raw = member(result, 'value');
  const value = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : NO_VALUE;
  if (value.kind === 'background') return null;
  const { exitCode, timedOut, timeoutMs, signal, statusCode, sandbox } = value;
  if (typeof exitCode === 'number' && exitCode !== 0) return failure('exit', String(exitCode));
  if (timedOut === true) return failure('timeout', timeoutMs ? `${String(timeoutMs)}ms` : '');
  if (typeof signal === 'string' && signal.length > 0) return failure('signal', signal);
  // A status code settles it both ways: a 200 page that mentions an error is not a failure.
  if (typeof statusCode === 'number') return statusCode >= 400 ? failure('http', String(statusCode)) : null;
  if (member(sandbox, 'denied') === true) return failure('sandbox', String(member(sandbox, 'mode') ?? ''));
  // Every block's text, one without text as an empty line (host/result.ts `all`).
  return options.shell === true ? classifyText(resultText(result, 'all'), options.command) : null;
}

const WRITE_OUT = /%\{(?:http_code|response_code)\}/;
const LEADING_STATUS = /^\s*([45]\d\d)(?!\d)/;
const EXIT_MARK = /\[exit code: (-?\d+)\]/;
const HTTP_MARK = /\(HTTP (\d{3})\)/;
const TIMEOUT_MARK = /\[timed out after (\d+)ms\]/;
const SIGNAL_MARK = '[killed by signal: ';
const SANDBOX_MARK = '[sandbox: file access denied';
const TRACEBACK = 'Traceback (most recent call last)';
const URLLIB_ERROR = /HTTP Error (\d{3})/;
const CURL_ERROR = /curl: \((\d+)\)/;

/**
 * The text evidence the fallback reads, in its order (the write-out status
 * aside, which needs the command): exported for the tests' generators.
 */
export const TEXT_MARKS: readonly (RegExp | string)[] = [EXIT_MARK, HTTP_MARK, TIMEOUT_MARK, SIGNAL_MARK, SANDBOX_MARK, TRACEBACK, URLLIB_ERROR, CURL_ERROR];

/** The shell text fallback, in the contract's order; first match wins. */
function classifyText(text: string, command: string | undefined): Failure | null {
  // Stryker disable next-line ConditionalExpression: an empty text matches none of the checks below either
  if (text.length === 0) return null;
  // curl -w '%{http_code}' prints the status first: a leading 4xx/5xx is the status (P1).
  // Stryker disable next-line ConditionalExpression,StringLiteral: WRITE_OUT.test(undefined) reads the text 'undefined', which holds no write-out; and a shortcut: every write-out holds `%{`, most commands none
  if (typeof command === 'string' && command.includes('%{') && WRITE_OUT.test(command)) {
    const status = LEADING_STATUS.exec(text);
    if (status?.[1] !== undefined) return failure('http', status[1]);
  }
  // The persistent shell's framing (P14) before the markers: it says what became of the whole call, as a value would.
  const persistent = persistentFailure(text);
  if (persistent !== null) return failure(persistent.reason, persistent.detail);
  // Most outputs hold no `[` or `(`: the markers that need one are not searched for (each `// shortcut` below).
  // Stryker disable next-line StringLiteral: a shortcut: always true, every marker is searched for and found as before
  const bracket = text.includes('[');
  // Stryker disable next-line StringLiteral: a shortcut, as above
  const paren = text.includes('(');
  // Stryker disable next-line ConditionalExpression: a shortcut
  const exit = bracket ? EXIT_MARK.exec(text) : null;
  if (exit?.[1] !== undefined && Number(exit[1]) !== 0) return failure('exit', exit[1]);
  // Stryker disable next-line ConditionalExpression: a shortcut
  const http = paren ? HTTP_MARK.exec(text) : null;
  if (http?.[1] !== undefined && Number(http[1]) >= 400) return failure('http', http[1]);
  // Stryker disable next-line ConditionalExpression: a shortcut
  const timeout = bracket ? TIMEOUT_MARK.exec(text) : null;
  if (timeout?.[1] !== undefined) return failure('timeout', `${timeout[1]}ms`);
  // Stryker disable next-line ConditionalExpression: a shortcut
  const signal = bracket ? signalName(text) : null;
  if (signal !== null) return failure('signal', signal);
  if (bracket && text.includes(SANDBOX_MARK)) return failure('sandbox', '');
  if (paren && text.includes(TRACEBACK)) {
    // After a traceback, the last exception line names it in full (module path kept).
    let last: string | null = null;
    forEachException(text, (dotted) => {
      last = dotted;
      return true;
    });
    return failure('exception', last ?? '');
  }
  let bare: string | null = null;
  // Every exception line holds `Error: ` or `Exception: `; most outputs hold neither, and the scan is skipped.
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut only: every line forEachException accepts holds `Error: ` or `Exception: `
  if (text.includes('Error: ') || text.includes('Exception: ')) {
    forEachException(text, (dotted) => {
      bare = dotted.slice(dotted.lastIndexOf('.') + 1);
      return false;
    });
  }
  if (bare !== null) return failure('exception', bare);
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut: most outputs hold no `HTTP Error `, and a look for it costs less than the search
  const urllib = text.includes('HTTP Error ') ? URLLIB_ERROR.exec(text) : null;
  if (urllib?.[1] !== undefined) return failure('http', urllib[1]);
  // Stryker disable next-line ConditionalExpression: a shortcut
  const curl = paren ? CURL_ERROR.exec(text) : null;
  // Stryker disable next-line ConditionalExpression,OptionalChaining: without a match `curl[1]` throws, and classifyFailure's catch gives the same null
  if (curl?.[1] !== undefined) return failure('curl', curl[1]);
  return null;
}

/**
 * `[killed by signal: NAME]`. A manual scan: a regex with `[^\]]+` would rescan
 * the rest of the text from every unclosed marker, which is quadratic.
 */
function signalName(text: string): string | null {
  let at = text.indexOf(SIGNAL_MARK);
  while (at >= 0) {
    const start = at + SIGNAL_MARK.length;
    const close = text.indexOf(']', start);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: with no `]` after this marker there is none after a later one either, so the loop ends in null too; close is never 0
    if (close < 0) return null;
    if (close > start) return text.slice(start, close);
    at = text.indexOf(SIGNAL_MARK, start);
  }
  return null;
}

function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

function isWordStart(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

function isWord(code: number): boolean {
  return isWordStart(code) || (code >= 0x30 && code <= 0x39);
}

/** `Name` ends in Error/Exception with at least one word character before it. */
function isExceptionClass(name: string): boolean {
  // Stryker disable next-line ConditionalExpression: an empty name fails isWordStart(NaN) just the same
  if (name.length === 0 || !isWordStart(name.charCodeAt(0))) return false;
  return (name.length > 5 && name.endsWith('Error')) || (name.length > 9 && name.endsWith('Exception'));
}

/**
 * Calls `visit` with each line whose first non-space token is a Python exception
 * (`[module.]NameError: `), in order, until `visit` returns false. One pass over
 * the text: this replaces a `^\s*…: ` /m regex whose backtracking over blank
 * lines and dotted names is quadratic.
 */
function forEachException(text: string, visit: (dotted: string) => boolean): void {
  const length = text.length;
  let at = 0;
  // Stryker disable next-line EqualityOperator: at the end no name starts, so one more turn visits nothing
  while (at < length) {
    // At a line start: skip spaces that do not end the line.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end reads NaN, which is not a space
    while (at < length && isSpaceCode(text.charCodeAt(at)) && !isLineBreak(text.charCodeAt(at))) at += 1;
    const start = at;
    // Stryker disable next-line EqualityOperator: past the end reads NaN, which is no word character
    while (at < length) {
      const code = text.charCodeAt(at);
      if (!isWord(code) && code !== 0x2e) break;
      at += 1;
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: `at > start` only saves work (an empty name is no exception class); the `: ` tests are pinned by edges-oracle.test.ts
    if (at > start && text.charCodeAt(at) === 0x3a && text.charCodeAt(at + 1) === 0x20) {
      const dotted = text.slice(start, at);
      const lastDot = dotted.lastIndexOf('.');
      const head = dotted.charCodeAt(0);
      // Stryker disable next-line ConditionalExpression: a name without a dot is checked from its own first character by isExceptionClass
      if ((lastDot < 0 || isWordStart(head)) && isExceptionClass(dotted.slice(lastDot + 1))) {
        if (!visit(dotted)) return;
      }
    }
    // Move to the next line start.
    // Stryker disable next-line EqualityOperator: past the end reads NaN, which is no line break, so the scan leaves the text all the same
    while (at < length && !isLineBreak(text.charCodeAt(at))) at += 1;
    at += 1;
  }
}

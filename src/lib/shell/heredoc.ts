/**
 * Here-documents whose text is only written out or recorded (decisions P10 and
 * P12). `cat > fetch.py <<'EOF' … EOF` writes a script to a file, and `git
 * commit -m "$(cat <<'EOF' … EOF)"` records a commit message: a URL in either
 * body is text, not a request this call makes, so it is no `net:`, `site:` or
 * `host:` target. A body fed to something that runs it (`python3 - <<EOF`,
 * `bash <<EOF`, `cat <<EOF | sh`, `bash -c "$(cat <<EOF …)"`) is left as it
 * is: its URLs may well be fetched.
 *
 * P10: `cat` and `tee` are writers when nothing after the operator on its line
 * pipes the text on. P12: inside a command substitution, such a writer's text
 * is an argument of the command around it, so it is text only when that command
 * records messages (message.ts); and a recorder reading its message from
 * standard input (`git commit -F - <<EOF`) takes the body as text too. Anything
 * unclear (an unterminated body, a delimiter that cannot be read, an operator
 * the scan saw in quotes) leaves the command as written, so the call is
 * fingerprinted as 0.5.2 would. One forward scan: linear in the command.
 */
import { firstVerb, segmentsOf } from './command.js';
import { readsMessageFromInput, recordsMessage } from './recorder.js';
import { Nesting } from './nesting.js';
import { tokenize } from './tokenize.js';

/** Commands that copy their input out and run nothing. */
const WRITERS: ReadonlySet<string> = new Set(['cat', 'tee']);
/** Characters that end an unquoted delimiter word. */
const DELIMITER_ENDS = new Set([' ', '\t', '\n', ';', '|', '&', '<', '>', '(', ')']);

interface Operator {
  /** Index just past the delimiter word. */
  readonly end: number;
  readonly delimiter: string;
  /** `<<-`: leading tabs of the body's lines, the last one included, are not part of them. */
  readonly stripTabs: boolean;
}

/** The operator at `at` (which holds `<<`), or `null` for `<<<` or a delimiter that cannot be read. */
function readOperator(command: string, at: number): Operator | null {
  let i = at + 2;
  if (command[i] === '<') return null;
  const stripTabs = command[i] === '-';
  if (stripTabs) i += 1;
  while (command[i] === ' ' || command[i] === '\t') i += 1;
  const quote = command[i];
  if (quote === "'" || quote === '"') {
    const close = command.indexOf(quote, i + 1);
    if (close < 0) return null;
    const delimiter = command.slice(i + 1, close);
    return delimiter === '' || delimiter.includes('\n') ? null : { end: close + 1, delimiter, stripTabs };
  }
  const start = i;
  while (i < command.length && !DELIMITER_ENDS.has(command[i] as string)) i += 1;
  // A backslash quotes the delimiter (`<<\EOF`); either way its body is not expanded.
  const delimiter = command.slice(start, i).replace(/\\/g, '');
  return delimiter === '' ? null : { end: i, delimiter, stripTabs };
}

/** Whether the command owning the operator (the last simple command before it on its line) only writes the text out. */
function writesOut(command: string, lineStart: number, at: number, rest: string): boolean {
  if (rest.includes('|')) return false;
  return WRITERS.has(firstVerb(segmentsOf(tokenize(command.slice(lineStart, at))).at(-1) ?? []));
}

/** Where the line that ends the body starts, or `-1` when the body never ends. */
function bodyEnd(command: string, from: number, operator: Operator): number {
  let line = from;
  while (line <= command.length) {
    const next = command.indexOf('\n', line);
    const end = next < 0 ? command.length : next;
    let text = command.slice(line, end);
    if (operator.stripTabs) text = text.replace(/^\t+/, '');
    if (text === operator.delimiter) return line;
    if (next < 0) return -1;
    line = next + 1;
  }
  return -1;
}

/**
 * P12: whether the body is a message. Its command (the simple command holding
 * the operator, in its substitution) reads it as one, or writes it out into a
 * substitution that is the argument of a command recording messages.
 */
function isMessage(command: string, nesting: Nesting, at: number, rest: string): boolean {
  if (!nesting.isPlain(at)) return false;
  const words = tokenize(command.slice(nesting.segment, at));
  if (readsMessageFromInput(words)) return true;
  if (nesting.depth === 0 || rest.includes('|') || !WRITERS.has(firstVerb(words))) return false;
  return nesting.judgeEnclosing((text) => recordsMessage(tokenize(text)));
}

/** The command with the bodies of the here-documents it only writes out or records taken away (their delimiter lines stay). */
export function withoutWrittenHeredocs(command: string): string {
  const nesting = new Nesting(command);
  let out = '';
  let copied = 0;
  let at = command.indexOf('<<');
  while (at >= 0) {
    const operator = readOperator(command, at);
    const lineEnd = command.indexOf('\n', at);
    if (operator === null || lineEnd < 0 || operator.end > lineEnd) {
      at = operator === null ? command.indexOf('<<', at + 3) : -1;
      continue;
    }
    const end = bodyEnd(command, lineEnd + 1, operator);
    if (end < 0) break;
    const lineStart = command.lastIndexOf('\n', at - 1) + 1;
    const rest = command.slice(operator.end, lineEnd);
    nesting.advance(at);
    const plain = nesting.isPlain(at);
    if (writesOut(command, lineStart, at, rest) || isMessage(command, nesting, at, rest)) {
      out += command.slice(copied, lineEnd + 1);
      copied = end;
    }
    // The shell reads no syntax in a body; an operator the scan saw in quotes leaves it unsure of what follows.
    if (plain) nesting.advance(lineEnd);
    else nesting.loseTrack();
    const after = command.indexOf('\n', end);
    nesting.resumeAt(after < 0 ? command.length : after + 1);
    // A body is not scanned for operators of its own.
    at = command.indexOf('<<', end);
  }
  return copied === 0 ? command : out + command.slice(copied);
}

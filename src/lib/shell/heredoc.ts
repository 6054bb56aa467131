/**
 * Here-documents whose text is only written out or recorded (decisions P10 and
 * P12). `cat > fetch.py <<'EOF' … EOF` writes a script to a file, and `git
 * commit -m "$(cat <<'EOF' … EOF)"` records a commit message: a URL in either
 * body is text, not a request this call makes, so it is no `net:`, `site:` or
 * `host:` target. A body fed to something that runs it (`python3 - <<EOF`,
 * `bash <<EOF`, `cat <<EOF | sh`, `bash -c "$(cat <<EOF …)"`) is left as it
 * is: its URLs may well be fetched.
 *
 * P10: `cat` and `tee` outside any substitution are writers when nothing after
 * the operator on its line pipes the text on. P12: inside a substitution, such
 * a writer's text is an argument of the command around it, so it is text only
 * when that command records messages (recorder.ts); and a recorder reading its
 * message from standard input (`git commit -F - <<EOF`) takes the body as text
 * too. Everything is read from the lexer's one pass (lex.ts), where a
 * backslash-newline joins lines wherever it stands: anything left open (an
 * unterminated body or quote, nesting past its depth) ends the reading there,
 * and what follows is read as written, as 0.5.2 would.
 */
import { firstVerb } from './command.js';
import { lex, type Lexed } from './lex.js';
import { readsMessageFromInput, recorderAt } from './recorder.js';

/** Commands that copy their input out and run nothing. */
const WRITERS: ReadonlySet<string> = new Set(['cat', 'tee']);

/** A simple command being read: its words so far, at its depth. */
interface Segment {
  words: string[];
  /** The here-documents whose operators it holds, by index. */
  documents: number[];
}

/** A substitution's place: its own segment, and the segment around it with the number of words it had when the substitution opened. */
interface Frame {
  segment: Segment;
  readonly outer: Segment | null;
  readonly before: number;
}

/** What the verdict on one here-document reads. */
interface Reading {
  words: readonly string[];
  /** The command whose argument its substitution is (none at top level): that command's words, and how many came before the substitution. */
  around: { readonly words: readonly string[]; readonly before: number } | null;
  pipesBefore: number;
  piped: boolean;
}

const newSegment = (): Segment => ({ words: [], documents: [] });

/** The here-documents' readings, from one walk over the tokens: the segments they sit in, and the pipes on their lines. */
function readDocuments(lexed: Lexed): Reading[] {
  const documents = lexed.hereDocuments;
  // Every terminated document's segment ends, at the latest at the newline its body starts after, and the values are set there.
  // Stryker disable next-line ObjectLiteral,ArrayDeclaration,BooleanLiteral: as above, the values only give the reading its shape
  const readings: Reading[] = documents.map(() => ({ words: [], around: null, pipesBefore: 0, piped: false }));
  const frames: Frame[] = [{ segment: newSegment(), outer: null, before: 0 }];
  let pipes = 0;
  // The next document whose operator, and whose line, the walk has yet to meet: both come in the documents' order.
  let operator = 0;
  let line = 0;
  const end = (frame: Frame): void => {
    for (const at of frame.segment.documents) {
      const reading = readings[at] as Reading;
      reading.words = frame.segment.words;
      reading.around = frame.outer === null ? null : { words: frame.outer.words, before: frame.before };
    }
    frame.segment = newSegment();
  };
  lexed.tokens.forEach((token, at) => {
    const frame = frames[frames.length - 1] as Frame;
    if (token.kind === 'word') frame.segment.words.push(token.word.value ?? token.word.text);
    else if (token.kind === 'open') frames.push({ segment: newSegment(), outer: frame.segment, before: frame.segment.words.length });
    else if (token.kind === 'close') end(frames.pop() as Frame);
    else if (token.kind === 'operator') {
      end(frame);
      if (token.op === '|' || token.op === '|&') pipes += 1;
    }
    if (documents[operator]?.operator === at) {
      frame.segment.documents.push(operator);
      (readings[operator] as Reading).pipesBefore = pipes;
      operator += 1;
    }
    // The documents whose bodies this newline starts: anything piped on their line, after their operator, counts.
    for (; documents[line]?.line === at; line += 1) (readings[line] as Reading).piped = pipes > (readings[line] as Reading).pipesBefore;
  });
  return readings;
}

/** What a simple command does with a here-document's text: records it from standard input, or copies it out. */
interface Verdict {
  readonly fromInput: boolean;
  readonly writer: boolean;
}

/**
 * The verdicts on the commands read so far, by their words: one per command
 * however many here-documents it holds (`cat <<A <<B …`), and one per command
 * around however many substitutions it holds, so the reading stays linear.
 */
interface Verdicts {
  readonly commands: Map<readonly string[], Verdict>;
  /** Where each command around a substitution becomes a recorder (recorder.ts `recorderAt`). */
  readonly recorders: Map<readonly string[], number>;
}

/** Whether a here-document's body is only written out (P10) or recorded as a message (P12). */
function isText(reading: Reading, verdicts: Verdicts): boolean {
  let command = verdicts.commands.get(reading.words);
  // Stryker disable next-line ConditionalExpression: a memory: the verdict made again is the same
  if (command === undefined) {
    command = { fromInput: readsMessageFromInput(reading.words), writer: WRITERS.has(firstVerb(reading.words)) };
    verdicts.commands.set(reading.words, command);
  }
  if (command.fromInput) return true;
  if (reading.piped || !command.writer) return false;
  const around = reading.around;
  if (around === null) return true;
  let recorder = verdicts.recorders.get(around.words);
  // Stryker disable next-line ConditionalExpression: a memory: the position read again is the same
  if (recorder === undefined) verdicts.recorders.set(around.words, (recorder = recorderAt(around.words)));
  // A message is an argument after the subcommand: `git -c "$(…)" commit` hands the text to -c.
  // Stryker disable next-line EqualityOperator: the subcommand's own word is a name (`commit`), never the substitution
  return recorder !== -1 && recorder < around.before;
}

/** The command with the bodies of the here-documents it only writes out or records taken away (their delimiter lines stay). */
export function withoutWrittenHeredocs(command: string, lexed: Lexed = lex(command)): string {
  const documents = lexed.hereDocuments;
  // Stryker disable next-line ConditionalExpression: a shortcut: with no document nothing is cut, and the command comes back whole
  if (documents.length === 0) return command;
  const readings = readDocuments(lexed);
  const verdicts: Verdicts = { commands: new Map(), recorders: new Map() };
  let out = '';
  let copied = 0;
  documents.forEach((doc, at) => {
    if (!doc.terminated || !isText(readings[at] as Reading, verdicts)) return;
    out += command.slice(copied, doc.start);
    copied = doc.end;
  });
  // Stryker disable next-line ConditionalExpression: a shortcut: with nothing cut, `out` is empty and the rest is the command
  return copied === 0 ? command : out + command.slice(copied);
}

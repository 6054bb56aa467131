/**
 * Where a place in a shell command sits (decision P12): at top level or inside
 * a command substitution (`$(…)`, backticks), in quotes or not, and where the
 * simple command around it starts. `git commit -m "$(cat <<'EOF'` puts the
 * here-document's `cat` inside a substitution whose text is `git commit`'s
 * message; the reader needs both commands.
 *
 * Not a shell parser: quotes, escapes, comments, `$(`, backticks and
 * parentheses, and the separators `;`, `&`, `|` and newline. The reader that
 * drives it advances it forward only and jumps over here-document bodies (the
 * shell reads no syntax in them), so a command is read once: linear. Past
 * MAX_DEPTH nested substitutions it is lost and says so: the caller then reads
 * the command as written.
 */

const BACKSLASH = 0x5c;
const SINGLE = 0x27;
const DOUBLE = 0x22;
const TICK = 0x60;
const DOLLAR = 0x24;
const OPEN = 0x28;
const CLOSE = 0x29;
const HASH = 0x23;
const NEWLINE = 0x0a;

/** A substitution nested deeper than this is no message anyone writes; the scan gives up there. */
const MAX_DEPTH = 32;

/** What opened a frame: nothing (top level), `$(`, a backtick. */
const TOP = 0;
const SUBSTITUTION = 1;
const BACKTICKS = 2;
type Kind = typeof TOP | typeof SUBSTITUTION | typeof BACKTICKS;

interface Frame {
  readonly kind: Kind;
  /** Index of the `$(` or backtick that opened it (-1 at top level). */
  readonly open: number;
  /** 0, or the quote character the scan is inside. */
  quote: number;
  /** Open `(` not yet closed (subshells, `$((`), so that their `)` does not close the frame. */
  parens: number;
  /** Where the frame's current simple command starts. */
  segment: number;
  /** The segment a verdict on this frame's command was cached for, and the verdict. */
  judged: number;
  verdict: boolean;
}

function frame(kind: Kind, open: number, segment: number): Frame {
  return { kind, open, quote: 0, parens: 0, segment, judged: -1, verdict: false };
}

/** A character after which `#` starts a comment. */
function startsWord(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === NEWLINE || code === 0x3b || code === 0x26 || code === 0x7c || code === OPEN;
}

export class Nesting {
  private readonly frames: Frame[] = [frame(TOP, -1, 0)];
  /** The next index to read. */
  private at = 0;
  private lost = false;

  constructor(private readonly command: string) {}

  /** Reads the command up to `to` (exclusive); a no-op for a place already read. */
  advance(to: number): void {
    const command = this.command;
    let i = this.at;
    while (i < to && !this.lost) {
      const current = this.frames[this.frames.length - 1] as Frame;
      const code = command.charCodeAt(i);
      if (current.quote === SINGLE) {
        if (code === SINGLE) current.quote = 0;
        i += 1;
        continue;
      }
      if (code === BACKSLASH) {
        i += 2;
        continue;
      }
      if (code === TICK) {
        if (current.kind === BACKTICKS) this.frames.pop();
        else this.push(BACKTICKS, i, i + 1);
        i += 1;
        continue;
      }
      if (code === DOLLAR && command.charCodeAt(i + 1) === OPEN) {
        this.push(SUBSTITUTION, i, i + 2);
        i += 2;
        continue;
      }
      if (current.quote === DOUBLE) {
        if (code === DOUBLE) current.quote = 0;
        i += 1;
        continue;
      }
      if (code === SINGLE || code === DOUBLE) {
        current.quote = code;
      } else if (code === OPEN) {
        current.parens += 1;
        current.segment = i + 1;
      } else if (code === CLOSE) {
        if (current.parens > 0) {
          current.parens -= 1;
          current.segment = i + 1;
        } else if (current.kind === SUBSTITUTION) {
          this.frames.pop();
        }
      } else if (code === 0x3b || code === 0x26 || code === 0x7c || code === NEWLINE) {
        current.segment = i + 1;
      } else if (code === HASH && (i === 0 || startsWord(command.charCodeAt(i - 1)))) {
        // A comment runs to the end of its line; its newline still ends the command.
        const end = command.indexOf('\n', i);
        i = end < 0 ? command.length : end;
        continue;
      }
      i += 1;
    }
    if (i > this.at) this.at = i;
  }

  /** Goes on reading at `to`, the start of a new command (the line after a here-document's body). */
  resumeAt(to: number): void {
    if (to > this.at) this.at = to;
    (this.frames[this.frames.length - 1] as Frame).segment = this.at;
  }

  /** Gives up: what follows cannot be placed (a here-document the scan saw in quotes). */
  loseTrack(): void {
    this.lost = true;
  }

  /** Whether `at` was read as syntax: not skipped (an escape, a comment), not in quotes, not lost. */
  isPlain(at: number): boolean {
    return !this.lost && this.at === at && (this.frames[this.frames.length - 1] as Frame).quote === 0;
  }

  /** Substitutions around the place read last (0 at top level). */
  get depth(): number {
    return this.frames.length - 1;
  }

  /** Where the simple command at the place read last starts. */
  get segment(): number {
    return (this.frames[this.frames.length - 1] as Frame).segment;
  }

  /**
   * A verdict on the command the innermost substitution is an argument of (its
   * text from its start to the substitution's opening), made once per command
   * however many substitutions it holds. False at top level.
   */
  judgeEnclosing(judge: (text: string) => boolean): boolean {
    const inner = this.frames[this.frames.length - 1] as Frame;
    const outer = this.frames[this.frames.length - 2];
    if (outer === undefined) return false;
    if (outer.judged !== outer.segment) {
      outer.judged = outer.segment;
      outer.verdict = judge(this.command.slice(outer.segment, inner.open));
    }
    return outer.verdict;
  }

  private push(kind: Kind, open: number, segment: number): void {
    if (this.frames.length > MAX_DEPTH) {
      this.lost = true;
      return;
    }
    this.frames.push(frame(kind, open, segment));
  }
}

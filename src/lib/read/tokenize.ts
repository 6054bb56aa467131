/**
 * The shell-ish word splitter every command rule reads (§2.11). It is not a
 * shell parser: operators stay glued to their neighbours, `;` splits nothing.
 */

/**
 * True for the UTF-16 code units that JavaScript's `\s` matches. Written out so
 * the splitter and the URL scanner agree with the reference without a regex.
 */
export function isSpaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

const BACKSLASH = 0x5c;
const SINGLE = 0x27;
const DOUBLE = 0x22;
// fromCharCode takes the buffer in slices of this many code units (an argument-count limit).
const CHUNK = 4096;

/**
 * Builds one word. A word with no quotes or escapes is a single slice of the
 * command; otherwise its code units are copied into a growable typed buffer, so
 * hostile input (thousands of escapes) costs one copy, not thousands of strings.
 */
class Word {
  // Made on the first copy: most words are plain slices and never need it.
  private buffer: Uint16Array | null = null;
  private used = 0;
  private sliceStart = -1;
  private copying = false;
  started = false;

  constructor(private readonly source: string) {}

  /** Append source[at], reached in order while the word is still a plain slice when possible. */
  take(at: number): void {
    if (!this.copying) {
      if (this.sliceStart < 0) this.sliceStart = at;
      return;
    }
    this.push(this.source.charCodeAt(at));
  }

  /** A quote or an escape dropped a character: from now on the word is copied. */
  breakSlice(at: number): void {
    if (this.copying) return;
    this.copying = true;
    if (this.sliceStart >= 0) for (let i = this.sliceStart; i < at; i += 1) this.push(this.source.charCodeAt(i));
  }

  /** The finished word; the builder is reset for the next one. */
  finish(end: number): string {
    let word: string;
    if (!this.copying) {
      word = this.sliceStart < 0 ? '' : this.source.slice(this.sliceStart, end);
    } else {
      const chunks: string[] = [];
      for (let i = 0; i < this.used; i += CHUNK) {
        chunks.push(String.fromCharCode(...(this.buffer as Uint16Array).subarray(i, Math.min(i + CHUNK, this.used))));
      }
      word = chunks.join('');
    }
    this.used = 0;
    this.sliceStart = -1;
    this.copying = false;
    this.started = false;
    return word;
  }

  private push(code: number): void {
    let buffer = this.buffer ?? (this.buffer = new Uint16Array(64));
    if (this.used === buffer.length) {
      const grown = new Uint16Array(buffer.length * 2);
      grown.set(buffer);
      this.buffer = buffer = grown;
    }
    buffer[this.used] = code;
    this.used += 1;
  }
}

/**
 * Split a command into words: whitespace separates outside quotes, quotes group
 * and vanish, a backslash keeps the next character (inside `'…'` it is literal).
 * Edge cases: `''` is one empty word, an unterminated quote runs to the end, a
 * trailing lone backslash is kept, and a non-string gives `[]`.
 */
export function tokenize(command: string): string[] {
  if (typeof command !== 'string') return [];
  const length = command.length;
  const tokens: string[] = [];
  const word = new Word(command);
  let quote = 0;
  for (let i = 0; i < length; i += 1) {
    const code = command.charCodeAt(i);
    if (quote !== 0) {
      if (code === quote) {
        quote = 0;
      } else if (code === BACKSLASH && quote === DOUBLE && i + 1 < length) {
        // Inside "…" the backslash goes and the next character stays, whatever it is.
        word.breakSlice(i);
        i += 1;
        word.take(i);
      } else {
        word.take(i);
      }
      continue;
    }
    if (code === SINGLE || code === DOUBLE) {
      word.breakSlice(i);
      quote = code;
      word.started = true;
    } else if (code === BACKSLASH && i + 1 < length) {
      word.breakSlice(i);
      i += 1;
      word.take(i);
      word.started = true;
    } else if (isSpaceCode(code)) {
      // A word that never started has nothing to reset.
      if (word.started) tokens.push(word.finish(i));
    } else {
      word.take(i);
      word.started = true;
    }
  }
  if (word.started) tokens.push(word.finish(length));
  return tokens;
}

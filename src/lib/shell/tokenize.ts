/**
 * 0.5.2's word splitter, which the verb, `cmd:`, `sink:` and the opt-in
 * tracks' line readings read (§2.11, pinned by parity). It is not a shell
 * reader, and cannot be derived from the one that is (lex.ts): operators stay
 * glued to their neighbours, and it reads quotes where the shell reads none. In
 * `git commit -m "$(cat <<'EOF'` + newline + `Fix "x" y` + … the `"` before
 * `$(` pairs with the first `"` of the here-document's body; `echo "$(printf
 * "a b")"` is two words here and one to the shell; a comment's words, a
 * here-document's body and `\r` or a no-break space split words here too.
 */

/**
 * True for the UTF-16 code units that JavaScript's `\s` matches. Written out so
 * the splitter and the URL scanner agree with the reference without a regex.
 */
export function isSpaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  // Stryker disable next-line ConditionalExpression: a shortcut: no code from 0x21 to 0x9f is in the list below, so reading on gives false as well
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

/** Printable ASCII but the quotes and the backslash: a character that only extends the run it is in, stepped over in one loop (NaN, past the end, is none). */
function isRunCode(code: number): boolean {
  return code > 0x20 && code < 0x7f && code !== SINGLE && code !== DOUBLE && code !== BACKSLASH;
}

/** True for the code units of the ASCII digits `0` to `9`. */
export function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

const BACKSLASH = 0x5c;
const SINGLE = 0x27;
const DOUBLE = 0x22;
// fromCharCode takes the buffer in slices of this many code units (an argument-count limit).
const CHUNK = 4096;
// Runs a word collects before they are copied out into its buffer: hostile input
// (an escape every other character) makes a run of every character.
const SPILL_RUNS = 32;
/**
 * The current word's runs, `[start, end)` pairs, for every call: tokenize calls
 * nothing that could split another command meanwhile, and a word holds at most
 * SPILL_RUNS of them before they are copied out (at most SPILL_RUNS - 1 after a
 * quote or an escape, and one more at the word's end): copying out sooner builds
 * the same word, later would overrun RUNS (the many-runs test in
 * normalize-oracle.test.ts crosses that size). One fixed table spares a list
 * per word (emptying a list gives up its storage, and the next push allocates it again).
 */
const RUNS = new Int32Array(2 * SPILL_RUNS);
/** How many entries of RUNS the current word holds. */
let runCount = 0;

/** Records the run `[start, end)` in RUNS. */
function addRun(start: number, end: number): void {
  RUNS[runCount] = start;
  RUNS[runCount + 1] = end;
  runCount += 2;
}

/** The characters of a word with many runs, copied out as they come; grows by doubling. */
interface Spill {
  buffer: Uint16Array;
  used: number;
}

/** Copies the characters of the runs in RUNS into the spill buffer, and empties RUNS. */
function spillRuns(command: string, spill: Spill | null): Spill {
  const into = spill ?? { buffer: new Uint16Array(256), used: 0 };
  let { buffer, used } = into;
  // Stryker disable next-line EqualityOperator: one step more reads a pair past the count: a stale one copies characters of no word, one past the table reads undefined and copies nothing
  for (let k = 0; k < runCount; k += 2) {
    const start = RUNS[k] as number;
    const end = RUNS[k + 1] as number;
    // Stryker disable next-line EqualityOperator,ArithmeticOperator: growing at an exact fit, or more often, or larger, changes how much room there is, never what is copied
    if (used + end - start > buffer.length) {
      // Stryker disable next-line ArithmeticOperator: half the old size loses to the room needed in the max, a larger need only grows more; the words stay the same
      const grown = new Uint16Array(Math.max(buffer.length * 2, used + end - start));
      grown.set(buffer);
      buffer = grown;
    }
    for (let at = start; at < end; at += 1) buffer[used++] = command.charCodeAt(at);
  }
  into.buffer = buffer;
  into.used = used;
  runCount = 0;
  return into;
}

/** A spilled word as a string, taken in slices the argument list of fromCharCode can hold. */
function spilledWord(spill: Spill): string {
  const chunks: string[] = [];
  // Stryker disable next-line EqualityOperator: one step more takes an empty slice at the end, which adds ''
  for (let at = 0; at < spill.used; at += CHUNK) chunks.push(String.fromCharCode(...spill.buffer.subarray(at, Math.min(at + CHUNK, spill.used))));
  return chunks.join('');
}

/**
 * One word from the runs in RUNS, `[start, end)` pairs of the command it
 * keeps (RUNS is emptied): quotes and escapes drop characters, so a word is one
 * or more stretches of the command. They are joined (one run is its slice); a
 * word with more runs than `SPILL_RUNS` has been copied out as it went.
 */
function wordOf(command: string, spill: Spill | null): string {
  // Stryker disable next-line ConditionalExpression: copying out a word of few runs gives the same word; the slices only spare the copy
  if (spill !== null) return spilledWord(spillRuns(command, spill));
  const count = runCount;
  runCount = 0;
  if (count === 2) return command.slice(RUNS[0], RUNS[1]);
  let word = '';
  for (let k = 0; k < count; k += 2) word += command.slice(RUNS[k], RUNS[k + 1]);
  return word;
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
  // The start of the current word's run still open (-1: none), and its spilled characters.
  runCount = 0;
  let open = -1;
  let spill: Spill | null = null;
  let started = false;
  let quote = 0;
  for (let i = 0; i < length; i += 1) {
    const code = command.charCodeAt(i);
    let cut = false;
    if (quote !== 0) {
      if (code === quote) {
        cut = true;
        quote = 0;
      } else if (code === BACKSLASH && quote === DOUBLE && i + 1 < length) {
        // Inside "…" the backslash goes and the next character stays, whatever it is.
        cut = true;
      } else if (open === -1) {
        open = i;
      }
    } else if (code === SINGLE || code === DOUBLE) {
      cut = true;
      quote = code;
      started = true;
    } else if (code === BACKSLASH && i + 1 < length) {
      cut = true;
      started = true;
    } else if (isSpaceCode(code)) {
      // A word that never started has nothing to reset.
      if (!started) continue;
      if (open >= 0) addRun(open, i);
      tokens.push(wordOf(command, spill));
      open = -1;
      spill = null;
      started = false;
    } else {
      if (open === -1) open = i;
      started = true;
      while (isRunCode(command.charCodeAt(i + 1))) i += 1;
    }
    if (!cut) continue;
    // A quote or an escape drops this character: the run before it ends here.
    if (open >= 0) addRun(open, i);
    open = -1;
    // Stryker disable next-line ArithmeticOperator: `2 / SPILL_RUNS` and `2 - SPILL_RUNS` copy out at every cut, which builds the same word
    if (runCount >= 2 * SPILL_RUNS) spill = spillRuns(command, spill);
    // An escape (a backslash only cuts as one) keeps the next character, whatever it is, as the start of a new run.
    if (code === BACKSLASH) {
      i += 1;
      open = i;
    }
  }
  if (open >= 0) addRun(open, length);
  if (started) tokens.push(wordOf(command, spill));
  return tokens;
}

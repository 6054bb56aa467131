/**
 * Reading a known command's arguments by its option table: which words are
 * switches, which are options with their values, which are operands, and which
 * operands name paths. Anything the table does not know gives `null`, and the
 * rules that need this reading then leave the command alone.
 */
import { quote, word, type Word } from './syntax.js';

/** What `act:` knows about one command's options. Only commands listed in commands.ts have one. */
export interface CommandSpec {
  /** Short flags that take no value: they may be bundled (`-la`) and come in any order. */
  readonly switches: string;
  /** Short flags that take a value, glued (`-n5`) or as the next word (`-n 5`). */
  readonly valued?: string;
  /** Long flags that take no value, each mapped to the short letter or the long spelling it stands for (`''`: itself). */
  readonly longSwitches?: Readonly<Record<string, string>>;
  /** Long flags whose value may be the next word (`--tb short` is `--tb=short`). */
  readonly longValued?: readonly string[];
  /** Which operands are paths: all, all but the first (a pattern or script text), only the first (a script), none. */
  readonly paths: 'all' | 'after-first' | 'first' | 'none';
  /** Short flags that give the pattern, after which every operand is a path (`grep -e`). */
  readonly patternFlags?: string;
  /** Short flags whose value is the program, after which the rest are its arguments (`python -c`, `-m`). */
  readonly terminal?: string;
  /** Options may follow operands (argparse). Other commands' options are read only before the first operand. */
  readonly permute?: boolean;
  /** `-5` is an option (a count or a context), kept in place. */
  readonly numeric?: boolean;
  /** An operand may carry a `::` suffix that is not part of its path (pytest node ids). */
  readonly nodeIds?: boolean;
}

export interface Operand {
  /** Index in the argument words. */
  readonly at: number;
  /** Whether the operand names a path (the path rule may respell it). */
  readonly path: boolean;
}

export interface Args {
  /** Switch letters in the order met, repeats kept (`-vv` is not `-v`). */
  readonly switches: string;
  /** Long switches in their canonical spelling, in the order met. */
  readonly longs: readonly string[];
  /** Options with their values (`-n`, `5`), `--x=y` words and `-5`, in the order met. */
  readonly options: readonly Word[];
  readonly operands: readonly Operand[];
  /** How many operands came before a `--`; `-1` when there was none. */
  readonly dashdash: number;
}

/** The arguments as they are read, word by word. */
interface Reading {
  readonly spec: CommandSpec;
  readonly words: readonly Word[];
  /** Index of the word being read. */
  i: number;
  // Slices of the clusters, joined once: adding letter by letter would build a string of a million pieces.
  readonly switches: string[];
  readonly longs: string[];
  readonly options: Word[];
  readonly operands: number[];
  dashdash: number;
  optionsDone: boolean;
  patternGiven: boolean;
  terminated: boolean;
}

/** An operand; for most commands the first one ends the options. */
function operand(a: Reading): true {
  a.operands.push(a.i);
  if (a.spec.permute !== true) a.optionsDone = true;
  return true;
}

/** `--name`, `--name=value` or `--name value`; `false` when the table does not know it. */
function readLong(a: Reading, w: Word, v: string): boolean {
  // `--x=y` is one option whatever `--x` is: it cannot take the next word.
  if (v.includes('=')) {
    a.options.push(w);
    return true;
  }
  const longSwitches = a.spec.longSwitches ?? {};
  if (Object.hasOwn(longSwitches, v)) {
    const meaning = longSwitches[v] as string;
    if (meaning.length === 1) a.switches.push(meaning);
    else a.longs.push(meaning === '' ? v : meaning);
    return true;
  }
  // A bare `--x` the table does not know might take the next word: the reading would be a guess.
  if (a.spec.longValued?.includes(v) !== true) return false;
  const value = a.words[a.i + 1];
  if (value === undefined) return false;
  a.options.push(value.value === null ? { text: `${v}=${value.text}`, value: null } : word(`${v}=${value.value}`));
  a.i += 1;
  return true;
}

/** A cluster of short flags (`-la`, `-n5`, `-n 5`); `false` when a letter is not in the table. */
function readCluster(a: Reading, w: Word, v: string): boolean {
  const { spec } = a;
  if (spec.numeric === true && /^-\d+$/.test(v)) {
    a.options.push(w);
    return true;
  }
  let k = 1;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: past the end `v[k]` is undefined, which no table lists.
  while (k < v.length && spec.switches.includes(v[k] as string)) k += 1;
  a.switches.push(v.slice(1, k));
  if (k === v.length) return true;
  const letter = v[k] as string;
  const terminal = spec.terminal ?? '';
  if (!(spec.valued ?? '').includes(letter) && !terminal.includes(letter)) return false;
  // The rest of the cluster is the value, or else the next word is.
  const rest = v.slice(k + 1);
  let value: Word | undefined = rest === '' ? a.words[a.i + 1] : word(rest);
  if (rest === '') a.i += 1;
  if (value === undefined) return false;
  if (value.value !== null) value = word(value.value);
  a.options.push(word(`-${letter}`), value);
  if (spec.patternFlags?.includes(letter) === true) a.patternGiven = true;
  if (terminal.includes(letter)) {
    a.terminated = true;
    a.optionsDone = true;
  }
  return true;
}

/** One word; `false` when the reading would be a guess. */
function readOne(a: Reading, w: Word): boolean {
  const v = w.value;
  if (a.optionsDone) return operand(a);
  if (v === null) {
    // `$FLAGS` may be an option: the reading would be a guess.
    if (w.text.startsWith('-') || w.text.startsWith('"-') || w.text.startsWith("'-")) return false;
    return operand(a);
  }
  if (v === '--') {
    a.dashdash = a.operands.length;
    a.optionsDone = true;
    return true;
  }
  if (v.startsWith('--')) return readLong(a, w, v);
  if (v.length > 1 && v.startsWith('-')) return readCluster(a, w, v);
  return operand(a);
}

/** Which operands name paths, by the table's `paths` and what the options said. */
function isPath(a: Reading, n: number): boolean {
  if (a.terminated) return false;
  if (a.spec.paths === 'all') return true;
  if (a.spec.paths === 'after-first') return a.patternGiven || n > 0;
  if (a.spec.paths === 'first') return n === 0;
  return false;
}

/**
 * The arguments (the words after the command name) read by `spec`, or `null`
 * when a word is not in the table, or a word the shell expands sits where an
 * option could be.
 */
export function readArgs(spec: CommandSpec, words: readonly Word[]): Args | null {
  const a: Reading = { spec, words, i: 0, switches: [], longs: [], options: [], operands: [], dashdash: -1, optionsDone: false, patternGiven: false, terminated: false };
  for (; a.i < words.length; a.i += 1) {
    if (!readOne(a, words[a.i] as Word)) return null;
  }
  return {
    switches: a.switches.join(''),
    longs: a.longs,
    options: a.options,
    operands: a.operands.map((at, n) => ({ at, path: isPath(a, n) })),
    dashdash: a.dashdash,
  };
}

/**
 * How many words of a reading's `options` the option at `at` spans: a short
 * option is listed with its value (`-n`, `5`; `-e`, `-5`), a count (`-5`) and
 * `--name=value` alone. A rule walking the options steps by it, so a value is
 * never read as an option.
 */
export function optionSpan(options: readonly Word[], at: number): 1 | 2 {
  const v = (options[at] as Word).value;
  // Stryker disable next-line ConditionalExpression: a word that expands fails the pattern too ("null" is no flag); the test is for the type
  return v !== null && /^-\D$/.test(v) ? 2 : 1;
}

/** An option's name: the word before its `=` (`--tb` of `--tb=short`), the word itself without one. */
export function nameBeforeValue(v: string): string {
  const eq = v.indexOf('=');
  return eq === -1 ? v : v.slice(0, eq);
}

/** The name of an option as read: `-r` for a short one, `--tb` for `--tb=short`; `null` for one whose value expands (`--tb=$STYLE`). */
export function optionName(option: Word): string | null {
  // Only a long option carries its value after `=`: the reader lists a short one and its value apart.
  return option.value === null ? null : nameBeforeValue(option.value);
}

/** Switch letters in one canonical order (code-unit order), repeats kept; linear in their number. */
export function sortedSwitches(letters: string): string {
  // Already in order (most clusters are one letter or two): the letters themselves. A shortcut: sorting them gives them back.
  // Stryker disable next-line BooleanLiteral: a shortcut (above)
  let sorted = true;
  // Stryker disable next-line LogicalOperator,ConditionalExpression,AssignmentOperator,EqualityOperator,ArithmeticOperator: a shortcut (above); past the end a comparison with NaN is false, and the letters are sorted
  for (let at = 1; at < letters.length && sorted; at += 1) sorted = letters.charCodeAt(at - 1) <= letters.charCodeAt(at);
  // Stryker disable next-line ConditionalExpression: a shortcut (above)
  if (sorted) return letters;
  // The letters are ASCII (each is in a table): sorted one by one, repeats fall together.
  return letters.split('').sort().join('');
}

/** What a rule keeps of a reading's flags, to write the command back with. */
export interface KeptFlags {
  /** Switch letters, written as one cluster. */
  readonly switches: string;
  readonly longs: readonly string[];
  readonly options: readonly Word[];
}

/**
 * A command's words written back from its reading: the program, the kept
 * switches as one cluster, the long switches, the options, then the operands
 * in order, with the `--` where it stood. `rest` is the words the reading was
 * made of (everything after the program).
 */
export function writeArgs(program: Word, rest: readonly Word[], args: Args, kept: KeptFlags): Word[] {
  const words: Word[] = [program];
  if (kept.switches !== '') words.push(word(`-${kept.switches}`));
  // Loops, not push(...): a spread of a huge list would overflow the call stack.
  for (const long of kept.longs) words.push(word(long));
  for (const option of kept.options) words.push(option);
  args.operands.forEach((operand, n) => {
    if (n === args.dashdash) words.push(word('--'));
    words.push(rest[operand.at] as Word);
  });
  if (args.dashdash === args.operands.length) words.push(word('--'));
  return words;
}

/**
 * Whether `writeArgs(words[0], words.slice(1), args, kept)` would give these
 * very words (each alike in text and value), asked without writing them: a
 * command already in its canonical form, the common case, allocates nothing.
 * It follows `writeArgs` step by step.
 */
export function writesBack(words: readonly Word[], args: Args, kept: KeptFlags): boolean {
  let at = 1;
  if (kept.switches !== '' && !isWord(words[at++], `-${kept.switches}`)) return false;
  for (const long of kept.longs) if (!isWord(words[at++], long)) return false;
  for (const option of kept.options) if (!alike(words[at++], option)) return false;
  for (let n = 0; n < args.operands.length; n += 1) {
    if (n === args.dashdash && !isWord(words[at++], '--')) return false;
    if (!alike(words[at++], words[(args.operands[n] as Operand).at + 1] as Word)) return false;
  }
  if (args.dashdash === args.operands.length && !isWord(words[at++], '--')) return false;
  return at === words.length;
}

/** Whether the word is `word(value)` in text and value. */
const isWord = (w: Word | undefined, value: string): boolean =>
  w !== undefined &&
  // Stryker disable next-line ConditionalExpression: a word whose text is quote(value) reads as value, so the text decides; the value is asked first as it is cheaper
  w.value === value &&
  w.text === quote(value);

/** Whether the word reads as `other`: the same text and value. */
const alike = (w: Word | undefined, other: Word): boolean =>
  w !== undefined &&
  // Stryker disable next-line ConditionalExpression: the same word passes the test after it too (a shortcut), and a word's value follows from its text
  (w === other || (w.text === other.text && w.value === other.value));

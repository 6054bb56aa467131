/**
 * Reading a known command's arguments by its option table: which words are
 * switches, which are options with their values, which are operands, and which
 * operands name paths. Anything the table does not know gives `null`, and the
 * rules that need this reading then leave the command alone.
 */
import { word, type Word } from './syntax.js';

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

/**
 * The arguments (the words after the command name) read by `spec`, or `null`
 * when a word is not in the table, or a word the shell expands sits where an
 * option could be.
 */
export function readArgs(spec: CommandSpec, words: readonly Word[]): Args | null {
  const valued = spec.valued ?? '';
  const terminal = spec.terminal ?? '';
  const longSwitches = spec.longSwitches ?? {};
  const longValued = spec.longValued ?? [];
  // Slices of the clusters, joined once: adding letter by letter would build a string of a million pieces.
  const switches: string[] = [];
  const longs: string[] = [];
  const options: Word[] = [];
  const operands: number[] = [];
  let dashdash = -1;
  let optionsDone = false;
  let patternGiven = false;
  let terminated = false;

  for (let i = 0; i < words.length; i += 1) {
    const w = words[i] as Word;
    const v = w.value;
    if (optionsDone) {
      operands.push(i);
      continue;
    }
    if (v === null) {
      // `$FLAGS` may be an option: the reading would be a guess.
      if (w.text.startsWith('-') || w.text.startsWith('"-') || w.text.startsWith("'-")) return null;
      operands.push(i);
      if (spec.permute !== true) optionsDone = true;
      continue;
    }
    if (v === '--') {
      dashdash = operands.length;
      optionsDone = true;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      if (eq < 0 && Object.hasOwn(longSwitches, name)) {
        const meaning = longSwitches[name] as string;
        if (meaning.length === 1) switches.push(meaning);
        else longs.push(meaning === '' ? name : meaning);
        continue;
      }
      if (longValued.includes(name)) {
        if (eq >= 0) {
          options.push(w);
          continue;
        }
        const value = words[i + 1];
        if (value === undefined) return null;
        options.push(value.value === null ? { text: `${name}=${value.text}`, value: null } : word(`${name}=${value.value}`));
        i += 1;
        continue;
      }
      // `--x=y` cannot take the next word, whatever `--x` is; a bare unknown `--x` might.
      if (eq >= 0) {
        options.push(w);
        continue;
      }
      return null;
    }
    if (v.length > 1 && v.startsWith('-')) {
      if (spec.numeric === true && /^-\d+$/.test(v)) {
        options.push(w);
        continue;
      }
      let k = 1;
      while (k < v.length && spec.switches.includes(v[k] as string)) k += 1;
      if (k > 1) switches.push(v.slice(1, k));
      if (k < v.length) {
        const letter = v[k] as string;
        if (!valued.includes(letter) && !terminal.includes(letter)) return null;
        // The rest of the cluster is the value, or else the next word is.
        const rest = v.slice(k + 1);
        let value: Word | undefined = rest === '' ? words[i + 1] : word(rest);
        if (rest === '') i += 1;
        if (value === undefined) return null;
        if (value.value !== null) value = word(value.value);
        options.push(word(`-${letter}`), value);
        if (spec.patternFlags?.includes(letter) === true) patternGiven = true;
        if (terminal.includes(letter)) {
          terminated = true;
          optionsDone = true;
        }
      }
      continue;
    }
    operands.push(i);
    if (spec.permute !== true) optionsDone = true;
  }

  const isPath = (n: number): boolean => {
    if (terminated) return false;
    if (spec.paths === 'all') return true;
    if (spec.paths === 'after-first') return patternGiven || n > 0;
    if (spec.paths === 'first') return n === 0;
    return false;
  };
  return {
    switches: switches.join(''),
    longs,
    options,
    operands: operands.map((at, n) => ({ at, path: isPath(n) })),
    dashdash,
  };
}

/** Switch letters in one canonical order (code-unit order), repeats kept; linear in their number. */
export function sortedSwitches(letters: string): string {
  const counts = new Map<string, number>();
  for (const letter of letters) counts.set(letter, (counts.get(letter) ?? 0) + 1);
  return [...counts.keys()]
    .sort()
    .map((letter) => letter.repeat(counts.get(letter) as number))
    .join('');
}

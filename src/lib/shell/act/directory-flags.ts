/**
 * The directory flags of tools that have one: make `-C`/`--directory`, git
 * `-C`, npm `--prefix`, pnpm `-C`/`--dir`, yarn `--cwd`, go `-C`, each as the
 * first argument (npm's `--prefix` anywhere before `--`). Not tar: its `-C`
 * moves only some of its file operands.
 */
import { nameOf, word, type Command, type Word } from './syntax.js';

/** Per tool, the flag spellings that take the directory as the next word, and the `flag=` prefixes that glue it. */
const DIRECTORY_FLAGS: Readonly<Record<string, { readonly separate: readonly string[]; readonly glued: readonly string[]; readonly anywhere?: boolean }>> = {
  make: { separate: ['-C', '--directory'], glued: ['-C', '--directory='] },
  // Stryker disable next-line ArrayDeclaration: git has no glued spelling; an invented one matches no word a command holds.
  git: { separate: ['-C'], glued: [] },
  npm: { separate: ['--prefix'], glued: ['--prefix='], anywhere: true },
  pnpm: { separate: ['-C', '--dir'], glued: ['--dir='] },
  yarn: { separate: ['--cwd'], glued: ['--cwd='] },
  go: { separate: ['-C'], glued: ['-C='] },
};

/** The tools that have a directory flag. */
export const DIRECTORY_TOOLS: ReadonlySet<string> = new Set(Object.keys(DIRECTORY_FLAGS));

/** The directory a flag at this word gives, and how many words the flag takes; `null` when it is not one. */
function flagAt(flags: (typeof DIRECTORY_FLAGS)[string], v: string, next: Word | undefined): { dir: Word; width: number } | null {
  if (flags.separate.includes(v)) return next === undefined ? null : { dir: next, width: 2 };
  const prefix = flags.glued.find((p) => v.startsWith(p) && v.length > p.length);
  return prefix === undefined ? null : { dir: word(v.slice(prefix.length)), width: 1 };
}

/** The directory and the words without the flag, or `null` when the tool has no directory flag in a place we trust. */
export function splitDirectory(command: Command): { dir: Word; words: readonly Word[] } | null {
  const name = nameOf(command);
  // Stryker disable next-line ConditionalExpression: `hasOwn` of a null name is false as well.
  if (name === null || !Object.hasOwn(DIRECTORY_FLAGS, name)) return null;
  const flags = DIRECTORY_FLAGS[name] as (typeof DIRECTORY_FLAGS)[string];
  const words = command.words;
  let found: { dir: Word; words: readonly Word[] } | null = null;
  for (let at = 1; at < words.length; at += 1) {
    const v = (words[at] as Word).value;
    if (v === '--') break;
    const hit = v === null ? null : flagAt(flags, v, words[at + 1]);
    if (hit !== null) {
      // Two directory flags combine (`make -C a -C b` is a/b): leave that alone.
      if (found !== null) return null;
      found = { dir: hit.dir, words: [...words.slice(0, at), ...words.slice(at + hit.width)] };
      at += hit.width - 1;
    }
    if (flags.anywhere !== true) break;
  }
  return found;
}

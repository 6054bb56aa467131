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
  // Stryker disable next-line ArrayDeclaration: a spelling no one types (`Stryker was here`) would change nothing that is tested or used.
  git: { separate: ['-C'], glued: [] },
  npm: { separate: ['--prefix'], glued: ['--prefix='], anywhere: true },
  pnpm: { separate: ['-C', '--dir'], glued: ['--dir='] },
  yarn: { separate: ['--cwd'], glued: ['--cwd='] },
  go: { separate: ['-C'], glued: ['-C='] },
};

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
    let hit: { dir: Word; width: number } | null = null;
    const next = words[at + 1];
    // Stryker disable next-line ConditionalExpression: no list of spellings holds null.
    if (v !== null && flags.separate.includes(v) && next !== undefined) hit = { dir: next, width: 2 };
    else if (v !== null) {
      const prefix = flags.glued.find((p) => v.startsWith(p) && v.length > p.length);
      if (prefix !== undefined) hit = { dir: word(v.slice(prefix.length)), width: 1 };
    }
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


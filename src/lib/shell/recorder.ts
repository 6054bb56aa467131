/**
 * Commands that record a text as a message and run nothing in it (decision
 * P12): a commit's or a tag's message, a pull request's, an issue's or a
 * release's body. A URL in such a text is something the model wrote about,
 * not a request the call makes. Only these few: a text handed to anything else
 * (`bash -c "$(cat …)"`, `curl "$(cat …)"`, `URLS=$(cat …)`) may be run or fetched.
 */
import { commandWordAt, firstVerb } from './command.js';

/** `git` subcommands that take a message (`-m`, `-F`). */
const GIT_RECORDS: ReadonlySet<string> = new Set(['commit', 'tag', 'notes', 'merge', 'stash']);
/** `git`'s own options that take a value before the subcommand (`git -C repo commit`). */
const GIT_VALUE_OPTIONS: ReadonlySet<string> = new Set(['-C', '-c']);
/** `gh` command groups whose create, edit and comment take a body. */
const GH_RECORDS: ReadonlySet<string> = new Set(['pr', 'issue', 'release']);
/** The options through which a recorder reads its message from a file, `-` being standard input. */
const MESSAGE_FILES: ReadonlySet<string> = new Set(['-F', '--file', '--body-file', '--notes-file']);

/**
 * Where the simple command of these words becomes a recorder: the position of
 * its subcommand (`commit` in `git -C /w commit`, `pr` in `gh pr create`), so
 * an argument after it is a message; -1 when it records no text. Only the words
 * up to that position are read, so a command cut short anywhere after it reads
 * the same.
 */
export function recorderAt(words: readonly string[]): number {
  const verb = firstVerb(words);
  let at = commandWordAt(words, 0) + 1;
  // Stryker disable next-line StringLiteral: past the last word, any text that names no group reads the same
  if (verb === 'gh') return GH_RECORDS.has(words[at] ?? '') ? at : -1;
  if (verb !== 'git') return -1;
  for (let word = words[at]; word?.startsWith('-') === true; word = words[at]) at += GIT_VALUE_OPTIONS.has(word) ? 2 : 1;
  // Stryker disable next-line StringLiteral: past the last word, any text that names no subcommand reads the same
  return GIT_RECORDS.has(words[at] ?? '') ? at : -1;
}

/** Whether the simple command of these words records a text as a message (`git commit`, `gh pr create`). */
export function recordsMessage(words: readonly string[]): boolean {
  return recorderAt(words) !== -1;
}

/** Whether a recorder reads its message from standard input: `git commit -F -`, `gh pr create --body-file -`. */
export function readsMessageFromInput(words: readonly string[]): boolean {
  if (!recordsMessage(words)) return false;
  for (let at = 0; at < words.length; at += 1) {
    const word = words[at] as string;
    if (MESSAGE_FILES.has(word) && words[at + 1] === '-') return true;
    if (word === '-F-' || (word.endsWith('=-') && MESSAGE_FILES.has(word.slice(0, -2)))) return true;
  }
  return false;
}

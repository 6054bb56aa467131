/**
 * SWE-agent's search commands with the place they search written out:
 * `find_file NAME [DIR]` and `search_dir TERM [DIR]` search `./` when no
 * directory is given, `search_file TERM [FILE]` the file open in the viewer.
 * `find_file X`, `find_file X .` and `find_file X ./` run one search, so the
 * place is read as a path (call/path.ts), its default written out when
 * omitted: one spelling of the same search (certain).
 *
 * Each of them answers with the place it searched resolved (`realpath`):
 * `No matches found for "X" in /repo`, `Found 2 matches for "X" in
 * /repo/app:`. Two spellings of a place no rule can tell apart (`.` and
 * `/repo`, `search_file X` and `search_file X app/auth.py`) are one place
 * when the very same answer names it: `answerNames` says so, and the stale
 * track's back-to-back run joins such a call only with the very same result.
 */
import { nameOf, withWords, word, type Command } from '../shell/act/syntax.js';

/** What each command searches when no place is given: SWE-agent's `${2:-./}` and `${2:-$CURRENT_FILE}`. */
const DEFAULT_PLACE: ReadonlyMap<string, string> = new Map([
  ['find_file', './'],
  ['search_dir', './'],
  ['search_file', '$CURRENT_FILE'],
]);

/** A search command read: its words with the place written out, and where the place is. */
export interface SearchPlace {
  readonly command: Command;
  readonly at: number;
}

/**
 * The search command with its place written out (`find_file X` as
 * `find_file X ./`); `null` for any other command, or a search given no term
 * or more than a place (SWE-agent answers those with its usage), or one whose
 * words expand.
 */
export function searchPlace(command: Command): SearchPlace | null {
  const { words } = command;
  if (words.length < 2 || words.length > 3) return null;
  const fallback = DEFAULT_PLACE.get(nameOf(command) ?? '');
  if (fallback === undefined || words.some((w) => w.value === null)) return null;
  if (words.length === 3) return { command, at: 2 };
  return { command: withWords(command, [...words, word(fallback)]), at: 2 };
}

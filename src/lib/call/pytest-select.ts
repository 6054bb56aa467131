/**
 * A pytest run with the way it selects tests aside: a node id
 * (`tests/test_api.py::test_login`) and a keyword (`-k test_login`, `-k
 * login`) may select the same test of the same file. `-k` matches the names
 * that contain it (any case), so a keyword that is part of a node id's name,
 * or of another keyword, may select what it selects; whether it did, only the
 * answer says (a keyword may select more tests: more lines, other counts).
 * The stale track's back-to-back run joins two such runs only when both fail
 * with the very same answer once pytest's report of the selection is aside
 * (result/pytest-report.ts): likely, not certain.
 */
import { ACT_READ_LIMIT, actOf, type Dialect } from '../shell/act/index.js';
import { readLine } from '../shell/act/line.js';
import { mapCommands, nameOf, renderLine, withWords, word, type Command, type Word } from '../shell/act/syntax.js';
import { lookupKey } from './identity.js';

export interface Selection {
  /** The run with its selection aside, by its lookup key: the same files, the same other options. */
  readonly rest: string;
  /** The names node ids select (`test_login`, `TestApi::test_login[a-1]`). */
  readonly names: readonly string[];
  /** The keywords `-k` selects by, each one plain word (an expression with `and`, `not` or spaces is not read). */
  readonly keywords: readonly string[];
}

/** A keyword read: one word of a test's name, as `-k` matches it. */
const KEYWORD = /^[\w.[\]-]+$/;

/** The pytest command with its selection aside, the names and keywords taken into `found` (`unread`: a `-k` expression, which is not read). */
function selectionAside(command: Command, found: { names: string[]; keywords: string[]; unread: boolean }): Command {
  if (nameOf(command) !== 'pytest') return command;
  const kept: Word[] = [];
  const { words } = command;
  let changed = false;
  for (let at = 0; at < words.length; at += 1) {
    const value = (words[at] as Word).value;
    const id = value === null || at === 0 ? -1 : value.indexOf('::');
    if (value === '-k') {
      const keyword = words[at + 1]?.value ?? '';
      if (KEYWORD.test(keyword)) found.keywords.push(keyword);
      else found.unread = true;
      at += 1;
      changed = true;
    } else if (value !== null && id > 0 && id + 2 < value.length) {
      found.names.push(value.slice(id + 2));
      kept.push(word(value.slice(0, id)));
      changed = true;
    } else kept.push(words[at] as Word);
  }
  return changed ? withWords(command, kept) : command;
}

/**
 * A shell line's pytest selection: the line with its node ids' names and its
 * `-k` keyword aside; `null` when it runs no pytest that selects, selects by
 * an expression, or is past `act:`'s read limit. `acted`: read from the
 * line's action (`act:`: `python -m pytest` and `py.test` as `pytest`).
 */
export function pytestSelection(command: string, dialect: Dialect, acted: boolean): Selection | null {
  // The cheap test first: a line that names no node id and no `-k` selects nothing to read.
  if (command.length > ACT_READ_LIMIT || !command.includes('test') || !(command.includes('::') || command.includes('-k'))) return null;
  const line = readLine(acted ? actOf(command, dialect) : command, dialect);
  if (line === null) return null;
  const found = { names: [] as string[], keywords: [] as string[], unread: false };
  const aside = mapCommands(line, (each) => selectionAside(each, found));
  if (found.unread || found.names.length + found.keywords.length === 0) return null;
  return { rest: lookupKey(renderLine(aside)), names: found.names, keywords: found.keywords };
}

/**
 * Whether two selections of the same run may select one test: every node id
 * names the same test, and each keyword is part of that name (any case); with
 * keywords alone, each is part of the longest.
 */
export function maySelectOneTest(a: Selection, b: Selection): boolean {
  if (a.rest !== b.rest) return false;
  const names = [...a.names, ...b.names];
  const keywords = [...a.keywords, ...b.keywords].map((keyword) => keyword.toLowerCase());
  const name = names[0] ?? keywords.reduce((longest, keyword) => (keyword.length > longest.length ? keyword : longest), '');
  if (names.some((other) => other !== name)) return false;
  const lower = name.toLowerCase();
  return keywords.every((keyword) => lower.includes(keyword));
}

/**
 * A file tool's path, respelled: `src/a.py`, `./src/a.py`, `src//a.py` and
 * `src/./a.py` name one file, and a call that asks the same of it in another
 * spelling asks the same thing. It is no identity of its own: the stale
 * track's back-to-back run reads it (tracks/stale.ts).
 *
 * Two strengths. The one spelling (`canonicalPath`, act's paths rule) is
 * certain: `.` and empty segments and a trailing slash name nothing. Other
 * spellings may name the same file or not: `a/../b` is `b` only when `a` is
 * no symbolic link, `/work/app/src/a.py` is `src/a.py` only when the tool
 * starts from `/work/app`, `src\a.py` is `src/a.py` only on Windows. Those are
 * read as the same file only where the answer says so (the run asks for the
 * very same result); the tool's own paths, not the shell's, so a `cd` is no
 * reason to doubt them.
 */
import { canonicalPath } from '../shell/act/rules/paths.js';
import { lookupKey } from './identity.js';
import { safeMember } from '../host/member.js';
import { isShell } from './read.js';

/** The members a file tool names its file by, in the order change.ts's `filePathOf` reads them. */
const PATH_KEYS = ['file_path', 'path', 'filePath'] as const;

/** A path longer than any file system takes (PATH_MAX is 4,096) is not read: a model's megabyte would be split on every call (P5). */
export const PATH_READ_LIMIT = 4096;

/** An identity longer than this (an edit's megabyte of text) is not read with its path aside either. */
const IDENTITY_READ_LIMIT = 65_536;

export interface PathReading {
  /** The call's `exact:` identity with its path aside, by its lookup key: the same tool asked the same of some file. */
  readonly rest: string;
  /** The path as written. */
  readonly path: string;
  /** The path in its one spelling: `./`, `.` and empty segments and a trailing slash aside; `..` kept. */
  readonly spelling: string;
}

/** A file tool's path reading, from its `exact:` identity; `null` for a shell call, no path, or a text past the limits. */
export function pathReading(name: string, args: unknown, exact: string): PathReading | null {
  if (isShell(name) || exact.length > IDENTITY_READ_LIMIT) return null;
  for (const key of PATH_KEYS) {
    const path = safeMember(args, key);
    if (path === undefined || path === null) continue;
    if (typeof path !== 'string' || path === '' || path.length > PATH_READ_LIMIT) return null;
    // The member as `exact:` writes it (JSON), its value emptied: the rest of the call.
    const member = `${JSON.stringify(key)}:${JSON.stringify(path)}`;
    const at = exact.indexOf(member);
    if (at < 0) return null;
    const rest = `${exact.slice(0, at)}${JSON.stringify(key)}:""${exact.slice(at + member.length)}`;
    return { rest: lookupKey(rest), path, spelling: canonicalPath(path) };
  }
  return null;
}

/** A path's segments read lexically: `\` as `/`, `.` and empty segments aside, `..` taking the segment before it. */
function segmentsOf(path: string): { absolute: boolean; segments: string[] } {
  const slashed = path.replace(/\\/g, '/');
  const drive = /^[A-Za-z]:\//.test(slashed);
  const absolute = drive || slashed.startsWith('/');
  const segments: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') segments.push(segment);
    // `..` at the root stays at the root; one with nothing before it to take (`../a`) is kept.
    else if (absolute && segments.length === (drive ? 1 : 0)) continue;
    else if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else segments.push(segment);
  }
  if (drive && segments[0] !== undefined) segments[0] = segments[0].toLowerCase();
  return { absolute, segments };
}

/** Whether `tail`'s segments end `whole`'s. */
function endsWith(whole: readonly string[], tail: readonly string[]): boolean {
  const from = whole.length - tail.length;
  return from >= 0 && tail.every((segment, at) => whole[from + at] === segment);
}

/**
 * Whether two paths may name one file: the same segments read lexically
 * (`..` folded, `\` as `/`), or an absolute path that ends with a relative
 * one (`/work/app/src/a.py` and `src/a.py`). Never a relative path that
 * climbs out (`../a.py`) against an absolute one: where it starts is unknown.
 */
export function mayNameOneFile(a: string, b: string): boolean {
  if (a === b) return true;
  const left = segmentsOf(a);
  const right = segmentsOf(b);
  if (left.absolute === right.absolute) return left.segments.length === right.segments.length && endsWith(left.segments, right.segments);
  const [whole, tail] = left.absolute ? [left, right] : [right, left];
  return tail.segments.length > 0 && tail.segments[0] !== '..' && endsWith(whole.segments, tail.segments);
}

/**
 * A file's path, respelled: `src/a.py`, `./src/a.py`, `src//a.py` and
 * `src/./a.py` name one file, and a call that asks the same of it in another
 * spelling asks the same thing. Read for the path of a file tool that does
 * not write (tracks/stale.ts asks only those), and for the
 * operands a shell line's commands take as paths (`cat`, `head`, `sed`: act's
 * option table). It is no identity of its own: the stale track's back-to-back
 * run reads it (tracks/stale.ts).
 *
 * Two strengths. The one spelling (`canonicalPath`, act's paths rule) is
 * certain: `.` and empty segments and a trailing slash name nothing. Other
 * spellings may name the same file or not: `a/../b` is `b` only when `a` is
 * no symbolic link, `/work/app/src/a.py` is `src/a.py` only when the tool
 * starts from `/work/app`, `src\a.py` is `src/a.py` only on Windows. Those are
 * read as the same file only where the answer says so (the run asks for the
 * very same result).
 */
import { ACT_READ_LIMIT, actOf, type Dialect } from '../shell/act/index.js';
import { readArgs } from '../shell/act/args.js';
import { CMDLET_TABLE } from '../shell/act/cmdlets.js';
import { specOf } from '../shell/act/commands.js';
import { readLine } from '../shell/act/line.js';
import { canonicalPath } from '../shell/act/rules/paths.js';
import { mapCommands, nameOf, renderLine, withWords, word, type Command, type Word } from '../shell/act/syntax.js';
import { searchPlace } from './aci-search.js';
import { FILE_PATH_KEYS } from './change.js';
import { lookupKey } from './identity.js';
import { safeMember } from '../host/member.js';
import { isShell } from './read.js';

/** A path longer than any file system takes (PATH_MAX is 4,096) is not read: a model's megabyte would be split on every call (P5). */
export const PATH_READ_LIMIT = 4096;

/** An identity longer than this (a read names a path and a window; a megabyte of arguments is no read) is not read with its path aside either. */
const IDENTITY_READ_LIMIT = 16_384;

export interface PathReading {
  /** The call with its paths aside, by its lookup key: the same tool (or line) asked the same of some files. */
  readonly rest: string;
  /** The paths as written (a shell line's, as act: writes them). */
  readonly paths: readonly string[];
  /** The paths in their one spelling (`./`, `.` and empty segments and a trailing slash aside; `..` kept), joined. */
  readonly spelling: string;
  /** Whether the answer names the place each path resolved to (SWE-agent's searches, call/aci-search.ts): any spellings are one place when the answer is the very same. */
  readonly answerNames?: true;
}

/** What stands for a path set aside, and joins spellings: no literal path holds it. */
const ASIDE = '\u0000';

/** A file tool's path reading, from its `exact:` identity; `null` for a shell call, no path, or a text past the limits. */
export function pathReading(name: string, args: unknown, exact: string): PathReading | null {
  if (isShell(name) || exact.length > IDENTITY_READ_LIMIT) return null;
  for (const key of FILE_PATH_KEYS) {
    const path = safeMember(args, key);
    if (path === undefined || path === null) continue;
    if (typeof path !== 'string' || path === '' || path.length > PATH_READ_LIMIT) return null;
    // The member as `exact:` writes it (JSON), its value emptied: the rest of the call.
    const member = `${JSON.stringify(key)}:${JSON.stringify(path)}`;
    const at = exact.indexOf(member);
    if (at < 0) return null;
    const rest = `${exact.slice(0, at)}${JSON.stringify(key)}:""${exact.slice(at + member.length)}`;
    return { rest: lookupKey(rest), paths: [path], spelling: canonicalPath(path) };
  }
  return null;
}

/** Where a command's words name paths: the operands its option table marks as paths (commands.ts). */
function operandPaths(command: Command): number[] {
  const spec = specOf(nameOf(command));
  const args = spec === undefined ? null : readArgs(spec, command.words.slice(1));
  return args === null ? [] : args.operands.filter((operand) => operand.path).map((operand) => operand.at + 1);
}

/** Where a cmdlet's words name paths, as act: writes it (`Get-Content -Path X`): the value of a path parameter. */
function parameterPaths(command: Command): number[] {
  const cmdlet = CMDLET_TABLE.get(nameOf(command) ?? '');
  const at: number[] = [];
  if (cmdlet === undefined) return at;
  for (let i = 1; i + 1 < command.words.length; i += 1) {
    const name = command.words[i]?.value;
    if (cmdlet.parameters.some((parameter) => parameter.path && `-${parameter.name}` === name)) at.push(i + 1);
  }
  return at;
}

/** The command with the words that name paths set aside, each added to `paths`; a search's place written out first (aci-search.ts), counted in `searched`. */
function pathsAside(command: Command, dialect: Dialect, paths: string[], searched: { places: number }): Command {
  const search = dialect === 'posix' ? searchPlace(command) : null;
  if (search !== null) {
    paths.push(search.command.words[search.at]?.value ?? '');
    searched.places += 1;
    return withWords(search.command, search.command.words.map((w, at) => (at === search.at ? word(ASIDE) : w)));
  }
  let words: Word[] | null = null;
  for (const at of dialect === 'pwsh' ? parameterPaths(command) : operandPaths(command)) {
    const path = command.words[at]?.value;
    if (path === undefined || path === null) continue;
    paths.push(path);
    (words ??= [...command.words])[at] = word(ASIDE);
  }
  return words === null ? command : withWords(command, words);
}

/**
 * A shell line's path reading: the line with the words its commands take as
 * paths set aside (a tabled command's path operands; in PowerShell, a tabled
 * cmdlet's path parameters); `null` when it names none, its syntax is not modelled,
 * or it is past `act:`'s read limit. `acted`: read from the line's action
 * (`act:`), as when that measure is on (its paths then in their one spelling).
 */
export function shellPathReading(command: string, dialect: Dialect, acted: boolean): PathReading | null {
  if (command.length > ACT_READ_LIMIT) return null;
  const line = readLine(acted ? actOf(command, dialect) : command, dialect);
  if (line === null) return null;
  const paths: string[] = [];
  const searched = { places: 0 };
  const aside = mapCommands(line, (each) => pathsAside(each, dialect, paths, searched));
  if (paths.length === 0) return null;
  const reading = { rest: lookupKey(renderLine(aside)), paths, spelling: paths.map(canonicalPath).join(ASIDE) };
  return searched.places === paths.length ? { ...reading, answerNames: true } : reading;
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
  // Stryker disable next-line ConditionalExpression: the segments of one text are equal too; the test spares the split
  if (a === b) return true;
  const left = segmentsOf(a);
  const right = segmentsOf(b);
  if (left.absolute === right.absolute) return left.segments.length === right.segments.length && endsWith(left.segments, right.segments);
  const [whole, tail] = left.absolute ? [left, right] : [right, left];
  return tail.segments.length > 0 && tail.segments[0] !== '..' && endsWith(whole.segments, tail.segments);
}

/** Whether two lists of paths, place by place, may name the same files. */
export function mayNameOneFiles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((path, at) => mayNameOneFile(path, b[at] as string));
}

/**
 * Output streams: `1>` is `>` and `0<` is `<`; and on the last command of the
 * line, sending stderr into stdout (`2>&1`) or discarding output
 * (`> /dev/null`, `2>/dev/null`, `&>/dev/null`) changes what the model reads,
 * not what runs. A command that also writes to a file keeps all its
 * redirections: `>log 2>&1` and `>log` write different files, and so do
 * `>&log 2>/dev/null` and `>&log` (bash's `>&log` is `&>log`).
 */
import type { Rule } from '../rule.js';
import { commandOf, copiesDescriptor, lastPipeline, mapCommands, mapList, withLastPipeline, withParts, type Command, type Line, type Redirect } from '../syntax.js';

const DEFAULT_FD: Readonly<Record<string, string>> = { '>': '1', '>>': '1', '>|': '1', '>&': '1', '<': '0', '<&': '0' };
const WRITES = new Set(['>', '>>', '>|', '&>', '&>>']);

/** `1>` as `>` and `0<` as `<`. */
const defaultFd = (command: Command): Command =>
  withParts(command, command.assigns, command.words, mapList(command.redirects, (r) => (DEFAULT_FD[r.op] === r.fd ? { fd: '', op: r.op, target: r.target } : r)));

/** A redirection that writes a file: `>`, `>>`, `&>`, and `>&` before a file (bash's `&>`). */
const writesFile = (r: Redirect): boolean => WRITES.has(r.op) || (r.op === '>&' && !copiesDescriptor(r));

/** `2>&1` (PowerShell's `*>&1`: every stream), or any output redirection to /dev/null. */
function isPlumbing(r: Redirect): boolean {
  if ((r.fd === '2' || r.fd === '*') && r.op === '>&' && r.target.value === '1') return true;
  return WRITES.has(r.op) && (r.fd === '' || r.fd === '2') && r.target.value === '/dev/null';
}

function dropPlumbing(line: Line): Line {
  const last = lastPipeline(line);
  // A pipeline always has a command.
  const command = last[last.length - 1] as Command;
  // A command that is only redirections (`>/dev/null` truncates nothing, but it is all there is) stays.
  if (command.words.length === 0) return line;
  // Another write on the same command: the file's content depends on the plumbing.
  if (command.redirects.some((r) => !isPlumbing(r) && writesFile(r))) return line;
  // Nothing to drop: the line itself (a shortcut: the filter below would keep every one).
  // Stryker disable next-line ConditionalExpression: the shortcut above
  if (!command.redirects.some(isPlumbing)) return line;
  return withLastPipeline(line, [...last.slice(0, -1), commandOf(command.assigns, command.words, command.redirects.filter((r) => !isPlumbing(r)))]);
}

export const streams: Rule = {
  name: 'streams',
  reason: 'Merging stderr into stdout or discarding output at the end of the line changes what is read, not what runs.',
  apply: (line) => dropPlumbing(mapCommands(line, defaultFd)),
  // Only redirections are rewritten.
  // Stryker disable next-line BooleanLiteral: a shortcut: a rule that names nothing it reads is asked of every line
  redirects: true,
  folds: [
    [
      'make build',
      'make build 2>&1',
      'make build > /dev/null',
      'make build >/dev/null 2>&1',
      'make build 2>/dev/null',
      'make build &> /dev/null',
      'make build 1>/dev/null',
      'make build >> /dev/null',
      'make build >| /dev/null',
      'make build &>> /dev/null',
      'make build 2>> /dev/null',
    ],
    ['make build 1> build.log', 'make build > build.log'],
    // Every default descriptor written out.
    ['make build >> build.log', 'make build 1>> build.log'],
    ['make build >| build.log', 'make build 1>| build.log'],
    ['sort < input.txt', 'sort 0< input.txt'],
    ['sort <&3', 'sort 0<&3'],
    ['make build >&2 | tee log', 'make build 1>&2 | tee log'],
  ],
  keeps: [
    ['make build > build.log', 'make build'],
    ['make build > build.log 2>&1', 'make build > build.log'],
    ['make build >&build.log 2>/dev/null', 'make build >&build.log'],
    ['pytest 2>&1 | grep FAIL', 'pytest | grep FAIL'],
    ['make build 2> err.log', 'make build'],
    ['sort < input.txt', 'sort'],
    ['make build 2>/dev/null && make test', 'make build && make test'],
    // Every other way of writing a file keeps the plumbing beside it.
    ['make build >> build.log 2>&1', 'make build >> build.log'],
    ['make build >| build.log 2>&1', 'make build >| build.log'],
    ['make build &> build.log 2>/dev/null', 'make build &> build.log'],
    ['make build &>> build.log 2>/dev/null', 'make build &>> build.log'],
    // Only stderr into stdout, and only output to /dev/null, is plumbing.
    ['make build 3>&1', 'make build'],
    ['make build 2>&3', 'make build'],
    ['make build 3>/dev/null', 'make build'],
    ['make build < /dev/null', 'make build'],
    ['make build 2>/dev/zero', 'make build'],
  ],
};

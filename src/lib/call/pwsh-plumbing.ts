/**
 * PowerShell's spellings of a run's plumbing (plumbing.ts reads the posix
 * ones): what a `pwsh` line puts around the command, not what it runs.
 *
 * - A context in front: `Push-Location D` (`pushd D`) sets the directory as
 *   `cd D` does (`Set-Location`/`sl` are already written `cd` by `act:`), so
 *   it is that context, written the same way; `$env:NAME=value` (or
 *   `$env:NAME = value`) sets a variable for the run as `export NAME=value`
 *   does, written one way whatever its quotes.
 * - A suffix that says how the run ended: `$LASTEXITCODE` alone, or echoed
 *   (`echo`/`Write-Output`/`Write-Host`), prints the run's status as a number
 *   on a line of its own (PowerShell's `$?` prints True/False and is not read).
 *
 * A value with an expansion or an escape (`$`, a backtick) is no literal and
 * sets no context read here: the line then keeps it, as it was.
 */
import { nameOf, type Command } from '../shell/act/syntax.js';

const ENV_ASSIGNED = /^\$env:([A-Za-z_]\w*)=(.*)$/is;
const ENV_NAME = /^\$env:([A-Za-z_]\w*)$/i;

/** A literal value as PowerShell reads it: quoted with no expansion or escape inside, or bare; `null` for any other. */
function literalOf(text: string): string | null {
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).includes("'") ? null : text.slice(1, -1);
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return /["$`]/.test(text.slice(1, -1)) ? null : text.slice(1, -1);
  return /^[^\s'"`$;(){}@,|&<>]+$/.test(text) ? text : null;
}

/** `$env:NAME=value`, one word or three: the assignment written one way; `null` for any other command. */
function envContext(command: Command): string | null {
  const words = command.words;
  if (words.length === 1) {
    const m = (words[0]?.text ?? '').match(ENV_ASSIGNED);
    const value = m === null ? null : literalOf(m[2] as string);
    return m === null || value === null ? null : `$env:${m[1] as string}=${JSON.stringify(value)}`;
  }
  const name = words.length === 3 && words[1]?.value === '=' ? (words[0]?.text ?? '').match(ENV_NAME) : null;
  const value = words[2]?.value;
  return name === null || name === undefined || value === null || value === undefined ? null : `$env:${name[1] as string}=${JSON.stringify(value)}`;
}

const PUSHES: ReadonlySet<string> = new Set(['push-location', 'pushd']);

/** `Push-Location`, `pushd`: a command whose options are kept when a line's are set aside (`-StackName x` pushes no directory `x`). */
export const keepsItsOptions = (command: Command): boolean => PUSHES.has((nameOf(command) ?? '').toLowerCase());

/** The context a PowerShell command sets (`Push-Location D`, `$env:A=1`), written one way; `null`: none. */
export function pwshContextOf(command: Command): string | null {
  if (command.assigns.length > 0 || command.redirects.length > 0) return null;
  const dir = command.words[1];
  if (command.words.length === 2 && PUSHES.has((nameOf(command) ?? '').toLowerCase()) && dir !== undefined && dir.value !== null && !dir.value.startsWith('-')) return `cd ${dir.text}`;
  return envContext(command);
}

const STATUS = /^"?\$LASTEXITCODE"?$/i;
const ECHOES: ReadonlySet<string> = new Set(['echo', 'write-output', 'write-host']);

/** What `$LASTEXITCODE` prints: the status, a number. */
const STATUS_LINE = /^-?\d+$/;

/** `$LASTEXITCODE`, `echo $LASTEXITCODE`: a command that prints the run's status alone; its line's pattern, or `null` for any other command. */
export function pwshStatusEcho(command: Command): RegExp | null {
  if (command.assigns.length > 0 || command.redirects.length > 0) return null;
  const [first, second, more] = command.words;
  if (first === undefined || more !== undefined) return null;
  if (second === undefined) return STATUS.test(first.text) ? STATUS_LINE : null;
  return ECHOES.has((first.value ?? '').toLowerCase()) && STATUS.test(second.text) ? STATUS_LINE : null;
}

/** A look at a line's end: whether it may end by printing `$LASTEXITCODE` (no line is read for the others). */
export const mayEndWithStatus = (command: string): boolean => /\$LASTEXITCODE"?\s*$/i.test(command.slice(-32));

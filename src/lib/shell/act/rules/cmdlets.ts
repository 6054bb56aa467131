/**
 * PowerShell's cmdlets (pwsh lines only): `gc src/a.cs -Tail 20`,
 * `Get-Content -Tail 20 -Path src/a.cs` and `get-content -path ./src/a.cs
 * -ta 20` run one cmdlet with one binding. PowerShell reads a cmdlet's name in
 * any case and through its built-in aliases (`gc`, `sls`, `select`, `gci`),
 * and binds named parameters in any order, in any case, by any prefix that
 * names one alone, with the value as the next word or after a colon;
 * positional arguments bind to the positional parameters left, in order. The
 * canonical form names every parameter bound, in the table's order
 * (../cmdlets.ts). A word the table does not know (a parameter, a second
 * binding, a splat, a switch given a value) leaves the command as written.
 * Outside Windows `cat` and `ls` run the native programs: without options they
 * print the file and list the directory the cmdlets would, and any option
 * (`ls -la`, `cat -n`) is unknown to the table, so the command stays.
 *
 * `| Select-Object -Last N` and `-First N` after a run are PowerShell's
 * `tail` and `head`: as the views rule drops those, this rule drops them after
 * a run (and after the same run either end folds, as `tail` and `head` do:
 * the run is the action, the view only which of its lines are read). After a
 * file or a listing they stay: the first lines of a file are not its last.
 * A bare `| Out-String` or `| Out-Host` after a run passes its lines on as
 * they are, like a trailing `| cat`. Set-Location with only its path bound is
 * written `cd DIR`, as the directory rule reads it.
 */
import { CMDLET_NAMES, CMDLET_TABLE, type Cmdlet, type Parameter } from '../cmdlets.js';
import type { Rule } from '../rule.js';
import { lastPipeline, mapCommands, nameOf, sameWords, withLastPipeline, withWords, word, type Command, type Line, type Word } from '../syntax.js';
import { isRunner } from './views.js';

/** The parameter a spelling names (lower case, no dash): a name or alias exactly, else the one parameter it is a prefix of. */
function parameterOf(cmdlet: Cmdlet, spelled: string): Parameter | null {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut: every cmdlet has several parameters, so the empty spelling is a prefix of two, which is ambiguous
  if (spelled === '') return null;
  let match: Parameter | null = null;
  let ambiguous = false;
  for (const p of cmdlet.parameters) {
    if (p.names.includes(spelled)) return p;
    if (!p.names.some((n) => n.startsWith(spelled))) continue;
    // A second parameter it is a prefix of: PowerShell refuses the spelling, unless it names one exactly (read on).
    if (match === null) match = p;
    else ambiguous = true;
  }
  return ambiguous ? null : match;
}

/** A word PowerShell reads as a parameter name: written bare with a leading dash. */
const isParameterWord = (w: Word): boolean => w.text.startsWith('-');

/** The bindings of the command's arguments by parameter name (`null` for a switch), or `null` when a word does not read. */
function bindingsOf(cmdlet: Cmdlet, words: readonly Word[]): Map<string, Word | null> | null {
  const bound = new Map<string, Word | null>();
  const positional: Word[] = [];
  for (let at = 1; at < words.length; at += 1) {
    const w = words[at] as Word;
    if (!isParameterWord(w)) {
      // A splat (`@args`) binds whatever it holds. (The reader stops at a leading `@` in PowerShell, lex.ts, so none reaches here today.)
      // Stryker disable next-line ConditionalExpression,MethodExpression: unreachable through the reader (above); kept for the rule's own word
      if (w.text.startsWith('@')) return null;
      positional.push(w);
      continue;
    }
    if (w.value === null) return null;
    const colon = w.value.indexOf(':');
    const p = parameterOf(cmdlet, (colon === -1 ? w.value.slice(1) : w.value.slice(1, colon)).toLowerCase());
    if (p === null || bound.has(p.name)) return null;
    if (p.switch) {
      if (colon !== -1) return null;
      bound.set(p.name, null);
      continue;
    }
    if (colon !== -1 && colon < w.value.length - 1) {
      bound.set(p.name, word(w.value.slice(colon + 1)));
      continue;
    }
    const value = words[at + 1];
    if (value === undefined) return null;
    if (isParameterWord(value)) return null;
    bound.set(p.name, value);
    at += 1;
  }
  return bindPositions(cmdlet, bound, positional);
}

/** Positional arguments bound to the positional parameters not named, in order; `null` when one is left over. */
function bindPositions(cmdlet: Cmdlet, bound: Map<string, Word | null>, positional: readonly Word[]): Map<string, Word | null> | null {
  let next = 0;
  for (const name of cmdlet.positions) {
    if (next < positional.length && !bound.has(name)) bound.set(name, positional[next++] as Word);
  }
  // Path and LiteralPath are two parameter sets: PowerShell refuses both.
  if (next < positional.length || (bound.has('Path') && bound.has('LiteralPath'))) return null;
  return bound;
}

/** `./x` and `.\x` as `x`: a relative path names the same item from the same location. A drive or provider (`Env:`), or a dash, keeps it. */
function pathValue(w: Word): Word {
  const v = w.value;
  if (v === null || !(v.startsWith('./') || v.startsWith('.\\'))) return w;
  const rest = v.slice(2);
  return rest === '' || rest.startsWith('-') || rest.startsWith('/') || rest.startsWith('\\') || rest.includes(':') ? w : word(rest);
}

/** A tabled cmdlet with every parameter named, in the table's order; the command as written when its words do not read. */
function bound(command: Command, cmdlet: Cmdlet): Command {
  const bindings = bindingsOf(cmdlet, command.words);
  if (bindings === null) return command;
  const first = cmdlet.positions[0];
  // Stryker disable next-line ConditionalExpression: a shortcut: no parameter has an undefined name, and the one cmdlet with a short form (Set-Location) has its path first
  const path = first === undefined ? undefined : cmdlet.parameters.find((p) => p.name === first);
  // Stryker disable next-line ConditionalExpression: as above, that cmdlet has a first position (its `false` is the cd fold's to kill)
  const hasPath = path !== undefined;
  if (cmdlet.short !== undefined && hasPath && [...bindings.keys()].every((name) => name === first)) {
    const value = bindings.get(path.name);
    return withBound(command, value === null || value === undefined ? [word(cmdlet.short)] : [word(cmdlet.short), path.path ? pathValue(value) : value]);
  }
  const words: Word[] = [word(cmdlet.name)];
  for (const p of cmdlet.parameters) {
    const value = bindings.get(p.name);
    if (value === undefined) continue;
    words.push(word(`-${p.name}`));
    // A switch is bound to null: its name alone.
    if (value !== null) words.push(p.path ? pathValue(value) : value);
  }
  return withBound(command, words);
}

/** The command with these words; the command itself when they are the ones it has (most are written canonically already). */
function withBound(command: Command, words: readonly Word[]): Command {
  return sameWords(words, command.words) ? command : withWords(command, words);
}

function canonical(command: Command): Command {
  const name = nameOf(command);
  const cmdlet = name === null ? undefined : CMDLET_NAMES.get(name.toLowerCase());
  if (cmdlet === undefined) return command;
  const entry = CMDLET_TABLE.get(cmdlet);
  if (entry !== undefined) return bound(command, entry);
  // Stryker disable next-line ConditionalExpression: a shortcut: a name already canonical is written back as it stands
  return cmdlet === name ? command : withWords(command, [word(cmdlet), ...command.words.slice(1)]);
}

const COUNT = /^\d+$/;

/**
 * `Select-Object -Last N` or `-First N`, as the canonical form writes it: a
 * view of the lines before it (`head`, `tail` are the views rule's). So is a
 * bare `Out-String` or `Out-Host`: the same lines, as one string or to the host.
 */
function isPwshView(command: Command): boolean {
  // Stryker disable next-line ConditionalExpression: PowerShell has no assignments in front of a command (a pwsh line reads none)
  if (command.assigns.length > 0) return false;
  if (command.redirects.length > 0) return false;
  const [name, end, count, ...more] = command.words.map((w) => w.value);
  if (end === undefined) return name === 'Out-String' || name === 'Out-Host';
  if (name !== 'Select-Object' || (end !== '-Last' && end !== '-First') || more.length > 0) return false;
  // Stryker disable next-line ConditionalExpression: a shortcut for the type: COUNT reads neither a missing word nor one that expands as a count
  return typeof count === 'string' && COUNT.test(count);
}

/** A run: one the views rule knows (`./build.sh` among them), or a script by a Windows relative path (`.\build.ps1`). */
function isRun(command: Command): boolean {
  return isRunner(command) || (nameOf(command)?.startsWith('.\\') ?? false);
}

function rewrite(read: Line): Line {
  const line = mapCommands(read, canonical);
  const last = lastPipeline(line);
  const run = last[0] as Command;
  // Stryker disable next-line ConditionalExpression: a shortcut: a run alone has no view to drop, and is written back as it stands
  if (last.length < 2) return line;
  if (!isRun(run) || !last.slice(1).every(isPwshView)) return line;
  return withLastPipeline(line, [run]);
}

export const cmdlets: Rule = {
  name: 'cmdlets',
  reason: 'PowerShell binds a cmdlet by any alias of its name and its named parameters in any order, case or unambiguous prefix; Select-Object -Last/-First after a run is a view of it.',
  dialect: 'pwsh',
  apply: rewrite,
  concerns: (outline) => outline.names.some((n) => CMDLET_NAMES.has(n.toLowerCase())),
  folds: [
    ['Get-Content -Path src/Program.cs -Tail 20', 'gc src/Program.cs -Tail 20', 'get-content -tail 20 -path ./src/Program.cs', 'type -Ta:20 src/Program.cs', 'cat src/Program.cs -Last 20'],
    ['Select-String -Path Foo.cs -Pattern Save', 'Select-String -Pattern Save -Path Foo.cs', 'sls Save Foo.cs', 'sls -path Foo.cs Save', 'SELECT-STRING -Patt Save -Path Foo.cs'],
    ['Get-ChildItem -Path src -Recurse -Filter *.cs', 'gci src *.cs -Recurse', 'ls -rec src -filt *.cs', 'dir -s src *.cs'],
    ['dotnet test | Select-Object -Last 30', 'dotnet test | Select-Object -Last 50', 'dotnet test | select -last 40', 'dotnet test 2>&1 | select -l 30', 'dotnet test | Select-Object -First 20', 'dotnet test *>&1 | Select-Object -Last 30', 'dotnet test | Out-String', 'dotnet test 2>&1 | select -last 40 | oh'],
    ['cd C:\\repo; pytest -x tests', 'Set-Location C:\\repo; pytest -x tests', 'sl -Path C:\\repo; pytest -x tests', 'chdir C:\\repo; pytest -x tests'],
    ['Test-Path -Path out.txt', 'test-path .\\out.txt', 'Test-Path out.txt'],
    // A script by a Windows relative path is a run, and a view of it is the run.
    ['.\\build.ps1 | Select-Object -Last 20', '.\\build.ps1'],
    // A value after a colon and a space; Set-Location with nothing bound is `cd` alone.
    ['gc a.cs -Tail 20', 'gc a.cs -Tail: 20'],
    ['Set-Location; pytest', 'sl; pytest', 'cd; pytest'],
  ],
  keeps: [
    ['gc src/Program.cs -Tail 20', 'gc src/Startup.cs -Tail 20'],
    ['gc src/Program.cs -Tail 20', 'gc src/Program.cs -TotalCount 20'],
    ['gc src/Program.cs -Tail 20', 'gc src/Program.cs -Tail 40'],
    ['sls Save Foo.cs', 'sls Load Foo.cs'],
    ['sls Save Foo.cs', 'sls Foo.cs Save'],
    ['Select-String -Path Foo.cs -Pattern Save', 'Select-String -LiteralPath Foo.cs -Pattern Save'],
    ['gc src/Program.cs | Select-Object -Last 20', 'gc src/Program.cs | Select-Object -First 20'],
    ['gci src | select -first 1', 'gci src | select -last 1'],
    ['dotnet test | Select-Object -Last 30', 'dotnet test | Select-Object -Skip 30'],
    ['gc a.cs -Tail 20', 'gc a.cs -T 20'],
    ['ls -la src', 'ls src'],
    ['gc -Path a.cs -Path b.cs', 'gc -Path a.cs'],
    ['gc Env:PATH', 'gc ./Env:PATH'],
    ['gci src -Recurse', 'gci src'],
    ['cd C:\\repo; pytest', 'Set-Location -LiteralPath C:\\repo; pytest'],
    ['cd C:\\repo; pytest', 'Push-Location C:\\repo; pytest'],
    ['gci src | Out-String', 'gci src'],
    ['Test-Path -Pa out.txt', 'Test-Path -Path out.txt'],
    ['gc src/Program.cs -Tail 20', 'gc src/Program.cs -Tail:$n'],
    // `./` comes off a relative path only: what is left must not read as a root, a drive or a parameter.
    ['gc .//a.cs', 'gc /a.cs'],
    ['gc .\\\\a.cs', 'gc \\a.cs'],
    ['gc ./', "gc ''"],
    // Both parameter sets, or a switch given a value: PowerShell binds neither as the table would.
    ['gc -Path a.cs -LiteralPath a.cs', 'gc a.cs'],
    ['gci src -Recurse:$true', 'gci src -Recurse'],
    ['gci src -Recurse:0', 'gci src -Recurse'],
    ['gc -Path a.cs -LiteralPath a.cs', 'gc -LiteralPath a.cs -Path a.cs'],
    // A parameter left without its value, or given another parameter as one, binds nothing.
    ['gc a.cs -Tail', 'Get-Content -Path a.cs -Tail'],
    ['gc -Tail -Path a.cs', 'Get-Content -Path a.cs -Tail -Path'],
    // A file whose name starts with a dash, written after ./, is no parameter.
    ['gc ./-a.cs', 'Get-Content -Path -a.cs'],
    // Set-Location with more than its path bound is no `cd`.
    ['sl -Path C:\\repo -PassThru; pytest', 'cd C:\\repo; pytest'],
    // What is no view of a run: a view written to a file, another command's -Last, more than a count, a view followed by more, a variable's lines.
    ['dotnet test | Select-Object -Last 30 > tail.txt', 'dotnet test'],
    ['dotnet test | Tail-Lines -Last 30 | Out-String', 'dotnet test'],
    ['dotnet test | Select-Object -Last 30 -Skip 2', 'dotnet test'],
    ['dotnet test | Select-Object -Last 30 | Sort-Object', 'dotnet test'],
    ['$log | Select-Object -Last 20', '$log | Select-Object -First 20'],
  ],
};

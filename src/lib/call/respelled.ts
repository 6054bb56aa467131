/**
 * A shell line with its options aside: the programs it runs and the operands
 * it runs them on, the line read as its action first (`act:`, when that
 * measure is on). It is no
 * identity of its own. A line past `act:`'s read limit has none. The stale track's back-to-back run reads it only
 * between two calls that returned the very same result: then an option that
 * was added, dropped or respelled (`--log-cli-level=DEBUG`, `-v q`,
 * `--nologo`, `set -e;` in front) demonstrably changed nothing the model sees,
 * and the same run answered the same way again is a repeat however its options
 * are spelled. An option that did change something changes the result, and
 * the run ends there.
 *
 * What is set aside: every word of a command past its name that starts with
 * `-` and has no value attached, the word after it kept (`-k login` keeps
 * `login`: a value may select what runs); an option with a value attached
 * (`--x=v`) only when its name is about how the run reports (logging,
 * verbosity, colour, format), as an attached value may select too
 * (`-run=TestA`), and so is a reporting setting given as a short option's value
 * (`-o log_cli=true`); a reporting option whose value is the next word
 * (`--verbosity minimal`, `--logger "console;verbosity=detailed"`, dotnet's
 * `-v q`), with that word, only when the option is one known to set how a run
 * reports and the word one of the values it takes (`REPORTING_VALUES`): an
 * unknown option's word, or a word the option does not take, may be an
 * operand (`grep --color Total`), so it stays; MSBuild's slash spelling of
 * its reporting switches (`/v:m`, `/nologo`), for dotnet and msbuild only
 * (elsewhere `/x` is a path); a leading `set` of shell
 * options (`set -e`, `set -o pipefail`); and whether two commands are joined
 * by `;` or `&&` (the same when the first succeeds, which the result tells). A
 * shell named by its path (`/bin/bash -c '…'`) is read as the shell.
 */
import { ACT_READ_LIMIT, actOf, type Dialect } from '../shell/act/index.js';
import { readLine } from '../shell/act/line.js';
import { withFrontEndsRead } from './front-end.js';
import { paceAttached, pacesOf } from './pace.js';
import { plumbingAside, subshellInside } from './plumbing.js';
import { keepsItsOptions } from './pwsh-plumbing.js';
import { lineWith, mapCommands, nameOf, renderLine, valueOf, withWords, word, type Command, type Line, type Word } from '../shell/act/syntax.js';

/** An attached option's name that says it sets how the run reports. */
const REPORTING = /log|verbos|colou?r|quiet|silent|format|report|progress|console|header|summary/i;

/** Whether a word is an option set aside: a flag alone, or a reporting option with its value attached. */
function asideWord(w: Word): boolean {
  const v = w.value;
  if (v === null || v.length < 2 || v[0] !== '-') return false;
  const eq = v.indexOf('=');
  return eq < 0 || REPORTING.test(v.slice(0, eq));
}

/** `set -e`, `set -o pipefail`, `set -eux`: shell options alone, no operands (which would set `$1`…). */
function setsOptions(command: Command): boolean {
  if (command.assigns.length > 0 || command.redirects.length > 0 || nameOf(command) !== 'set' || command.words.length < 2) return false;
  const words = command.words.slice(1).map(valueOf);
  return words.every((v, at) => v !== null && (/^[-+][a-zA-Z]+$/.test(v) || (/^[a-z]+$/.test(v) && /^[-+][a-zA-Z]*o$/.test(words[at - 1] ?? ''))));
}

/** `-o log_cli=true`: a reporting setting given as the value of the option before it (set aside with it). */
function asideSetting(w: Word, before: Word | undefined): boolean {
  const v = w.value;
  const eq = v === null ? -1 : v.indexOf('=');
  return v !== null && eq > 0 && v[0] !== '-' && REPORTING.test(v.slice(0, eq)) && /^-[a-zA-Z]$/.test(before?.value ?? '');
}

/** MSBuild's verbosity levels (dotnet's `-v`/`--verbosity`), in full or by their letter. */
const LEVELS = /^(?:q(?:uiet)?|m(?:inimal)?|n(?:ormal)?|d(?:etailed)?|diag(?:nostic)?)$/i;
const CONSOLE_LOGGER = /^console(?:;[^\s]*)?$/i;
const COLOURS = /^(?:always|never|auto|yes|no)$/;

/**
 * Reporting options whose value is the next word, by name, whatever the runner,
 * with the values each takes: a verbosity, a console logger (a file logger
 * writes a file), npm's log level, pytest's traceback style, a colour mode,
 * Gradle's console, a terminal reporter.
 */
const REPORTING_VALUES: ReadonlyMap<string, RegExp> = new Map([
  ['--verbosity', LEVELS],
  ['--logger', CONSOLE_LOGGER],
  ['--loglevel', /^(?:silent|error|warn|notice|http|timing|info|verbose|silly)$/],
  ['--tb', /^(?:auto|long|short|line|native|no)$/],
  ['--color', COLOURS],
  ['--colour', COLOURS],
  ['--console', /^(?:plain|auto|rich|verbose|colored)$/],
  ['--reporter', /^(?:default|verbose|basic|dot|dots|spec|list|line|tap|min|progress|summary)$/],
]);

/** A runner's own spellings of them: a short letter means something else in every other program (`grep -v n`), a long one may too. */
const SHORT_REPORTING: ReadonlyMap<string, ReadonlyMap<string, RegExp>> = new Map([
  ['dotnet', new Map([['-v', LEVELS], ['-l', CONSOLE_LOGGER]])],
  // cargo's diagnostics for a person, long or short (JSON is for a program, and prints another answer).
  ['cargo', new Map([['--message-format', /^(?:human|short)$/]])],
]);

/** MSBuild's slash spelling of its reporting switches (`/v:m`, `/nologo`, `/clp:…`), read for dotnet and msbuild only: elsewhere `/x` is a path. */
const MSBUILD_SLASHED = /^\/(?:(?:v|verbosity):(?:q(?:uiet)?|m(?:inimal)?|n(?:ormal)?|d(?:etailed)?|diag(?:nostic)?)|nologo|(?:clp|consoleloggerparameters):\S*)$/i;
const MSBUILDS: ReadonlySet<string> = new Set(['dotnet', 'msbuild']);

/** Whether the word at `at` is a reporting option whose value is the next word, and that word one it takes. */
function asidePair(words: readonly Word[], at: number, short: ReadonlyMap<string, RegExp> | undefined, paces: ReadonlyMap<string, RegExp> | null): boolean {
  const option = words[at]?.value;
  const value = words[at + 1]?.value;
  if (option === null || option === undefined || value === null || value === undefined) return false;
  const takes = REPORTING_VALUES.get(option) ?? short?.get(option) ?? paces?.get(option);
  return takes !== undefined && takes.test(value);
}

function withoutOptions(command: Command): Command {
  // A directory pushed is read with its options (pwsh-plumbing.ts): `-StackName x` names no directory.
  if (keepsItsOptions(command)) return command;
  const { words } = command;
  const name = nameOf(command) ?? '';
  const short = SHORT_REPORTING.get(name);
  const slashed = MSBUILDS.has(name);
  // How fast it runs (`-j 4`, `--max-workers=2`, go's `-count=1`): a build or test tool's own (pace.ts).
  const paces = pacesOf(command);
  const kept: Word[] = [];
  // Past a `--`, the words belong to another program: none is read as a reporting option's value there.
  let own = true;
  for (let at = 0; at < words.length; at += 1) {
    const w = words[at] as Word;
    if (w.value === '--') own = false;
    if (at > 0 && own && asidePair(words, at, short, paces)) at += 1;
    else if (at === 0 || !(asideWord(w) || asideSetting(w, words[at - 1]) || (slashed && MSBUILD_SLASHED.test(w.value ?? '')) || (own && paces !== null && paceAttached(paces, w.value ?? '')))) kept.push(w);
  }
  return kept.length === words.length ? command : withWords(command, kept);
}

/** The line without its leading `set` of options, its options aside, `;` read as `&&`. */
function aside(line: Line): Line {
  let { pipelines, connectors } = line;
  while (pipelines.length > 1 && pipelines[0]?.length === 1 && setsOptions(pipelines[0][0] as Command)) {
    pipelines = pipelines.slice(1);
    connectors = connectors.slice(1);
  }
  const joined = lineWith(pipelines, connectors.map((c) => (c === ';' ? '&&' : c)), line.background);
  return mapCommands(joined, withoutOptions);
}

/** `/bin/bash`, `/usr/bin/sh`: a shell named by its path, as its name. */
const SHELL_PATH = /^\/(?:usr\/)?(?:local\/)?bin\/((?:ba|da|z)?sh)$/;

/** A line whose first command is a shell named by its path, written again with the shell's name. */
function shellByName(line: Line): Line | null {
  const first = line.pipelines[0]?.[0];
  const path = first === undefined ? null : (nameOf(first) ?? '').match(SHELL_PATH);
  if (first === undefined || path === null) return null;
  const renamed = withWords(first, [word(path[1] as string), ...first.words.slice(1)]);
  return mapCommands(line, (command) => (command === first ? renamed : command));
}

/**
 * The line's programs and operands, its options aside; `null` when its syntax
 * is not modelled. `acted`: read from the line's action (`act:`), as when that
 * measure is on; without it, from the line as written.
 */
export function optionsAside(command: string, dialect: Dialect, acted = true): string | null {
  // A line longer than `act:` reads is not read here either: a model's megabyte of words would stall the guard (P5).
  if (command.length > ACT_READ_LIMIT) return null;
  const read = (text: string): Line | null => readLine(acted ? actOf(text, dialect) : text, dialect);
  let line = read(command);
  // A line that is one subshell runs what is inside it (plumbing.ts).
  const inside = line === null ? subshellInside(command) : null;
  if (inside !== null) line = read(inside);
  const renamed = line === null ? null : shellByName(line);
  if (renamed !== null) line = read(renderLine(renamed));
  // A run by the environment it runs in, not the front-end that starts it (front-end.ts: a venv activated or its binary named, `conda run`, `npx`).
  const fronted = line === null ? null : withFrontEndsRead(line, dialect);
  // Written with its environments activated, a line may outgrow what `act:` reads: then it has no reading either.
  const written = fronted === null ? null : renderLine(fronted);
  if (written !== null) line = written.length > ACT_READ_LIMIT ? null : read(written);
  // Its plumbing aside, its context apart (plumbing.ts).
  return line === null ? null : plumbingAside(aside(line), dialect);
}

/**
 * Context lines: `grep -n -C3 raise app.py` and `grep -n -C 8 raise app.py`
 * search the same file for the same lines; only how many lines are printed
 * around each match differs. So do PowerShell's `Select-String -Pattern raise
 * -Path app.py -Context 3,3` and `-Context 5`. The width of the window goes;
 * its sides stay (lines after each match, before it, or both), since `-A 3`
 * and `-B 3` read other lines of the file, and a search without context stays
 * apart from one with it. The pattern, the files and every other option stay.
 *
 * grep and rg are read by their option tables (commands.ts), so a value is
 * never taken for an operand. Select-String is PowerShell's: its name and its
 * parameters are read in any case, `-Context` by any prefix that names it
 * alone (`-Co`, `-Cont`), with its value as the next word or after a colon
 * (`-Context:3,3`); `sls` is its alias.
 */
import { optionSpan, writeArgs } from '../args.js';
import { argsOf } from '../commands.js';
import type { Rule } from '../rule.js';
import { mapCommands, nameOf, valueOf, withWords, word, type Command, type Word } from '../syntax.js';

/** Which sides of a match a window shows. */
interface Sides {
  before: boolean;
  after: boolean;
}

/**
 * The sides' canonical word (docs/act.md): a value grep refuses (`--context`
 * wants a number), so a command written with it fails at once and folding
 * with it hides no work.
 */
function sidesWord(sides: Sides): Word {
  return word(`--context=${sides.before && sides.after ? 'both' : sides.before ? 'before' : 'after'}`);
}

const COUNT = /^\d+$/;

/** Adds one context option of grep's reading to `sides`; `false` when `name` is no context option, `null` when its count does not read. */
function addContext(sides: Sides, name: string, count: string): boolean | null {
  const after = name === '-A' || name === '--after-context';
  const before = name === '-B' || name === '--before-context';
  if (!after && !before && name !== '-C' && name !== '--context') return false;
  if (!COUNT.test(count)) return null;
  // No line on either side is no window.
  if (Number(count) === 0) return true;
  if (!before) sides.after = true;
  if (!after) sides.before = true;
  return true;
}

/** How many words an option of the reading takes, and whether it was a context option. */
interface Taken {
  readonly took: 1 | 2;
  readonly context: boolean;
}

function taken(added: boolean | null, took: 1 | 2): Taken | null {
  return added === null ? null : { took, context: added };
}

/**
 * The option at `at` read into `sides`; `null` when a context count does not
 * read. The reading (args.ts) lists a short option and its value as two words
 * (`-A`, `3`; `-e`, `-5`: a pattern, never a count), grep's `-5` and
 * `--name=value` as one.
 */
function optionAt(sides: Sides, options: readonly Word[], at: number): Taken | null {
  const v = (options[at] as Word).value;
  // `--name $N`, read as `--name=$N`: a value the shell expands, no count.
  if (v === null) return { took: 1, context: false };
  // Stryker disable next-line StringLiteral: '' stands for a value that expands, which is no count, as no text put in its place is
  if (optionSpan(options, at) === 2) return taken(addContext(sides, v, valueOf(options[at + 1]) ?? ''), 2);
  // grep's `-5`: the reading lists it whole, digits only (args.ts).
  if (/^-\d/.test(v)) return taken(addContext(sides, '-C', v.slice(1)), 1);
  const eq = v.indexOf('=');
  return taken(addContext(sides, v.slice(0, eq), v.slice(eq + 1)), 1);
}

/** grep or rg with its context options as one word of their sides; the command itself when it has none, or when its words do not read. */
function searched(command: Command): Command {
  const args = argsOf(command);
  if (args === null) return command;
  // Stryker disable next-line ObjectLiteral: a side left out reads false, as a false one
  const sides: Sides = { before: false, after: false };
  const options: Word[] = [];
  let found = false;
  for (let at = 0; at < args.options.length; ) {
    const option = optionAt(sides, args.options, at);
    if (option === null) return command;
    if (option.context) found = true;
    else options.push(...args.options.slice(at, at + option.took));
    at += option.took;
  }
  if (!found) return command;
  if (sides.before || sides.after) options.push(sidesWord(sides));
  return withWords(command, writeArgs(command.words[0] as Word, command.words.slice(1), args, { switches: args.switches, longs: args.longs, options }));
}

/** `-Context`, by any prefix that names it alone among Select-String's parameters; `-C` is ambiguous (`-CaseSensitive`, `-Culture`). */
const CONTEXT_PARAMETER = /^-co(?:n(?:t(?:e(?:xt?)?)?)?)?(?::.*)?$/i;
/** `-Context N` (N lines before and after) or `-Context B,A`. */
const CONTEXT_VALUE = /^(\d+)(?:,(\d+))?$/;

/** Select-String with its `-Context` as the sides it shows; the command itself when it has none, or when the value does not read. */
function selected(command: Command): Command {
  const { words } = command;
  // The first word is the command's name.
  for (let at = 1; at < words.length; at += 1) {
    const spelled = (words[at] as Word).value;
    // Stryker disable next-line ConditionalExpression: a shortcut: the pattern reads no word that expands (`null`) as a parameter
    if (spelled !== null && CONTEXT_PARAMETER.test(spelled)) return windowed(command, at, spelled);
  }
  return command;
}

/** The command with its `-Context` (`spelled`, the word at `at`) as the sides it shows, or as written when its value does not read. */
function windowed(command: Command, at: number, spelled: string): Command {
  const { words } = command;
  const colon = spelled.indexOf(':');
  const value = colon === -1 ? valueOf(words[at + 1]) : spelled.slice(colon + 1);
  // Stryker disable next-line ConditionalExpression: a shortcut: the pattern reads no missing value (`null`) as a count
  const counts = value === null ? null : CONTEXT_VALUE.exec(value);
  if (counts === null) return command;
  const before = Number(counts[1]) > 0;
  const after = Number(counts[2] ?? counts[1]) > 0;
  const window = before || after ? [sidesWord({ before, after })] : [];
  return withWords(command, [...words.slice(0, at), ...window, ...words.slice(at + (colon === -1 ? 2 : 1))]);
}

function narrowed(command: Command): Command {
  const name = nameOf(command);
  if (name === 'grep' || name === 'rg') return searched(command);
  // Only a name of Select-String's length or its alias's is lowered: most commands pay a length check.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: a shortcut: no other name lowers to either
  if (name === null || (name.length !== 13 && name.length !== 3)) return command;
  const lower = name.toLowerCase();
  return lower === 'select-string' || lower === 'sls' ? selected(command) : command;
}

/** grep, rg, and Select-String or its alias in any case. */
const SELECT_STRING: ReadonlySet<string> = new Set(['select-string', 'sls']);
// Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BooleanLiteral,ArrowFunction: a shortcut: the rule leaves a line with no search as it is (act-outline.test.ts)
const isSearch = (name: string): boolean => name === 'grep' || name === 'rg' || ((name.length === 13 || name.length === 3) && SELECT_STRING.has(name.toLowerCase()));

export const context: Rule = {
  name: 'context',
  reason: 'How many lines are printed around each match leaves the search as it was: the same pattern in the same files, the window on the same sides.',
  apply: (line) => mapCommands(line, narrowed),
  // Only options are written again.
  // Stryker disable next-line BooleanLiteral: a shortcut: without it the engine reads the new line's outline, the same one
  keepsOutline: true,
  concerns: (outline) => outline.names.some(isSearch),
  folds: [
    ['grep -n -C 3 raise app/models.py', 'grep -nC8 raise app/models.py', 'grep -n --context=5 raise app/models.py', 'grep -n -5 raise app/models.py', 'grep -n -A 2 -B 4 raise app/models.py'],
    ['grep -A 3 raise app/models.py', 'grep -A10 raise app/models.py', 'grep --after-context=2 raise app/models.py', 'grep --after-context 4 raise app/models.py'],
    ['grep -B 3 raise app/models.py', 'grep -B10 raise app/models.py', 'grep --before-context=2 raise app/models.py', 'grep -A 0 -B 1 raise app/models.py'],
    ['grep -n raise app/models.py', 'grep -n -C 0 raise app/models.py', 'grep -n -A0 raise app/models.py', 'grep -n -0 raise app/models.py'],
    ['grep -n -12 raise app/models.py', 'grep -n -C 3 raise app/models.py'],
    ['grep -C 3 -e x-1 app.log', 'grep -C 5 -e x-1 app.log', 'grep -e x-1 -A 2 -B 2 app.log'],
    ['grep -C 3 -e -1a app.log', 'grep -C 5 -e -1a app.log'],
    ['grep -C 3 --exclude=v-1 raise src', 'grep -C 5 --exclude=v-1 raise src'],
    ['grep -C 3 --exclude "$SKIP" raise src', 'grep -C 5 --exclude "$SKIP" raise src', 'grep --exclude "$SKIP" -C 4 raise src'],
    ['rg -n -C 2 TODO src', 'rg -n -B 2 -A 2 TODO src', 'rg -n --context 4 TODO src'],
    [
      'Select-String -Path src/Config.cs -Pattern ConnectionString -Context 3,3',
      'Select-String -Path src/Config.cs -Pattern ConnectionString -Context 5',
      'Select-String -Path src/Config.cs -Pattern ConnectionString -context:2,10',
      'Select-String -Path src/Config.cs -Pattern ConnectionString -Cont 1,1',
      'Select-String -Path src/Config.cs -Pattern ConnectionString -Co 2',
      'Select-String -Path src/Config.cs -Pattern ConnectionString -Con 2',
      'Select-String -Path src/Config.cs -Pattern ConnectionString -Conte 2',
      'Select-String -Path src/Config.cs -Pattern ConnectionString -Contex 2',
      'Select-String -Path src/Config.cs -Pattern ConnectionString -Context 12',
    ],
    ['Select-String -Path src/Config.cs -Pattern x-co -Context 3', 'Select-String -Path src/Config.cs -Pattern x-co -Context 5'],
    ['Select-String -Context:3,3 -Path src/Config.cs -Pattern ConnectionString', 'Select-String -Context 1 -Path src/Config.cs -Pattern ConnectionString'],
    ['Select-String -Path src/Config.cs -Pattern ConnectionString', 'Select-String -Path src/Config.cs -Pattern ConnectionString -Context 0', 'Select-String -Path src/Config.cs -Pattern ConnectionString -Context 0,0'],
    ['sls -Path src/Config.cs -Pattern ConnectionString -Context 2', 'sls -Path src/Config.cs -Pattern ConnectionString -Context 1,1'],
  ],
  keeps: [
    ['grep -A 3 error app.log', 'grep -B 3 error app.log'],
    ['grep -C 3 error app.log', 'grep -A 3 error app.log'],
    ['grep -C 3 error app.log', 'grep -B 3 error app.log'],
    ['grep -5 -m 1 error app.log', 'grep -5 -m 2 error app.log'],
    ['grep --context=3 -m 1 error app.log', 'grep --context=3 -m 2 error app.log'],
    ['grep -C 3 -m 1 error app.log', 'grep -C 3 -m 2 error app.log'],
    ['grep -C 3 -e $PAT -m 1 app.log', 'grep -C 3 -e $PAT -m 2 app.log'],
    ['grep -C 3x error app.log', 'grep -C 3 error app.log'],
    ['grep -C x3 error app.log', 'grep -C 3 error app.log'],
    ['grep -A 3x -B 2 error app.log', 'grep -A 3x -B 4 error app.log'],
    ['grep -e -5 error.log', 'grep -e -3 error.log'],
    ['grep -C 2 -e -5 error.log', 'grep -C 2 -e -3 error.log'],
    ['grep -n raise app/models.py', 'grep -n -C 3 raise app/models.py'],
    ['grep -n -A 3 raise app/models.py', 'grep -n -A 3 return app/models.py'],
    ['grep -n -A 3 raise app/models.py', 'grep -n -A 3 raise app/views.py'],
    ['grep -n -A 3 raise app/models.py', 'grep -c -A 3 raise app/models.py'],
    ['grep -A 3 raise app/models.py', 'grep -v -A 3 raise app/models.py'],
    ['grep -A $N raise app/models.py', 'grep -A 3 raise app/models.py'],
    ['grep --context "$N" raise app/models.py', 'grep --context 3 raise app/models.py'],
    ['grep --context "$N" raise app/models.py', 'grep raise app/models.py'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Context 3', 'Select-String -Path src/Config.cs -Pattern Timeout -Context 3'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Context 3,0', 'Select-String -Path src/Config.cs -Pattern Connection -Context 0,3'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Context 3,0', 'Select-String -Path src/Config.cs -Pattern Connection -Context 3,3'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Context 0,3', 'Select-String -Path src/Config.cs -Pattern Connection -Context 3,3'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Context $n', 'Select-String -Path src/Config.cs -Pattern Connection'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Contexts 3', 'Select-String -Path src/Config.cs -Pattern Connection'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Contexts 3', 'Select-String -Path src/Config.cs -Pattern Connection -Context 3'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Context x3', 'Select-String -Path src/Config.cs -Pattern Connection -Context 3'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Context 3x', 'Select-String -Path src/Config.cs -Pattern Connection -Context 3'],
    ['Select-String -Path src/Config.cs -Pattern x-co -Context 3', 'Select-String -Path src/Config.cs -Pattern x-co'],
    ['Select-String -Path src/Config.cs -Pattern Connection -Context 3', 'Select-String -Path src/Config.cs -Pattern Connection'],
    ['Select-String -Path src/Config.cs -Pattern Connection -CaseSensitive', 'Select-String -Path src/Config.cs -Pattern Connection'],
  ],
};

/**
 * The commands whose options `act:` reads, as data. A command is listed only
 * when its short flags are order-free (getopt or argparse: `-la` is `-l -a` is
 * `-al`) and we know which of them take a value; a flag missing from its entry
 * leaves the whole command unread. The letters are GNU coreutils', grep's,
 * ripgrep's, pytest's and CPython's own.
 *
 * Not listed on purpose: `tar`, `find`, `chmod`, `cp`, `mv`, `rsync` (order,
 * operands that are not paths, or a trailing slash that changes the meaning),
 * `git`, `npm`, `make` and other tools with subcommands, `bash`/`sh` (a script
 * operand is searched in PATH, so `./x` is not `x`), `awk`.
 */
import { readArgs, type Args, type CommandSpec } from './args.js';
import { nameOf, type Command, type Word } from './syntax.js';

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  ls: {
    switches: 'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1',
    valued: 'ITw',
    longSwitches: { '--all': 'a', '--almost-all': 'A', '--human-readable': 'h', '--recursive': 'R', '--reverse': 'r', '--directory': 'd', '--inode': 'i', '--size': 's' },
    paths: 'all',
  },
  cat: {
    switches: 'AbeEnstTuv',
    longSwitches: { '--number': 'n', '--number-nonblank': 'b', '--show-all': 'A', '--squeeze-blank': 's' },
    paths: 'all',
  },
  head: {
    switches: 'qvz',
    valued: 'nc',
    longSwitches: { '--quiet': 'q', '--silent': 'q', '--verbose': 'v' },
    longValued: ['--lines', '--bytes'],
    numeric: true,
    paths: 'all',
  },
  tail: {
    switches: 'fFqvz',
    valued: 'ncs',
    longSwitches: { '--quiet': 'q', '--silent': 'q', '--verbose': 'v' },
    longValued: ['--lines', '--bytes', '--sleep-interval', '--pid'],
    numeric: true,
    paths: 'all',
  },
  wc: {
    switches: 'clmwL',
    longSwitches: { '--lines': 'l', '--words': 'w', '--bytes': 'c', '--chars': 'm', '--max-line-length': 'L' },
    paths: 'all',
  },
  du: {
    switches: 'abcDhHklLmPsSx0',
    valued: 'dBtX',
    longSwitches: { '--all': 'a', '--human-readable': 'h', '--summarize': 's', '--total': 'c' },
    longValued: ['--max-depth', '--block-size', '--threshold', '--exclude-from'],
    paths: 'all',
  },
  df: {
    switches: 'ahHiklPTv',
    valued: 'Btx',
    longSwitches: { '--all': 'a', '--human-readable': 'h', '--inodes': 'i', '--print-type': 'T' },
    paths: 'all',
  },
  tree: {
    switches: 'adlfxRpsughDFqNQrtvUcCnJXi',
    valued: 'LPIoH',
    longSwitches: { '--noreport': '', '--dirsfirst': '', '--gitignore': '' },
    paths: 'all',
  },
  rm: {
    switches: 'dfiIrRv',
    longSwitches: { '--recursive': 'r', '--force': 'f', '--verbose': 'v', '--dir': 'd' },
    paths: 'all',
  },
  mkdir: {
    switches: 'pv',
    valued: 'm',
    longSwitches: { '--parents': 'p', '--verbose': 'v' },
    longValued: ['--mode'],
    paths: 'all',
  },
  touch: { switches: 'acfhm', valued: 'drt', paths: 'all' },
  stat: { switches: 'Lft', valued: 'c', longSwitches: { '--dereference': 'L', '--terse': 't' }, longValued: ['--format', '--printf'], paths: 'all' },
  cd: { switches: 'LP', paths: 'all' },
  diff: {
    switches: 'abBcdeEinNpqrstTuwy',
    valued: 'CUDxXWSFIL',
    longSwitches: { '--recursive': 'r', '--brief': 'q', '--new-file': 'N', '--ignore-all-space': 'w', '--text': 'a' },
    paths: 'all',
  },
  grep: {
    switches: 'EFGPiyvwxcLloqsbHhnTZaIrRUz',
    valued: 'efmABCdD',
    longSwitches: {
      '--recursive': 'r',
      '--dereference-recursive': 'R',
      '--ignore-case': 'i',
      '--line-number': 'n',
      '--count': 'c',
      '--files-with-matches': 'l',
      '--files-without-match': 'L',
      '--invert-match': 'v',
      '--word-regexp': 'w',
      '--line-regexp': 'x',
      '--extended-regexp': 'E',
      '--fixed-strings': 'F',
      '--perl-regexp': 'P',
      '--only-matching': 'o',
      '--quiet': 'q',
      '--silent': 'q',
      '--no-messages': 's',
      '--with-filename': 'H',
      '--no-filename': 'h',
      '--color': '',
    },
    longValued: ['--include', '--exclude', '--exclude-dir', '--max-count', '--context', '--after-context', '--before-context', '--regexp', '--file'],
    patternFlags: 'ef',
    numeric: true,
    paths: 'after-first',
  },
  rg: {
    switches: 'cFHiIlLnNopqsSuvwxz0ab.',
    valued: 'ABCeEfgjmMrtT',
    longSwitches: {
      '--hidden': '.',
      '--ignore-case': 'i',
      '--smart-case': 'S',
      '--case-sensitive': 's',
      '--fixed-strings': 'F',
      '--files-with-matches': 'l',
      '--line-number': 'n',
      '--no-line-number': 'N',
      '--count': 'c',
      '--word-regexp': 'w',
      '--no-heading': '',
      '--no-ignore': '',
    },
    longValued: ['--glob', '--type', '--type-not', '--max-count', '--max-depth', '--context', '--after-context', '--before-context', '--regexp'],
    patternFlags: 'ef',
    paths: 'after-first',
  },
  sed: {
    switches: 'nErsuz',
    valued: 'efl',
    longSwitches: { '--quiet': 'n', '--silent': 'n', '--regexp-extended': 'E' },
    patternFlags: 'ef',
    paths: 'after-first',
  },
  pytest: {
    switches: 'qvxslh',
    valued: 'kmprcoWn',
    longSwitches: {
      '--exitfirst': 'x',
      '--quiet': 'q',
      '--verbose': 'v',
      '--showlocals': 'l',
      '--lf': '',
      '--last-failed': '--lf',
      '--ff': '',
      '--failed-first': '--ff',
      '--nf': '',
      '--new-first': '--nf',
      '--sw': '',
      '--stepwise': '--sw',
      '--co': '',
      '--collect-only': '--co',
      '--no-header': '',
      '--no-summary': '',
      '--disable-warnings': '',
    },
    longValued: ['--tb', '--color', '--code-highlight', '--durations-min', '--maxfail', '--rootdir', '--ignore', '--deselect', '--cov', '--cov-report', '--durations', '--capture', '--log-level', '--confcutdir', '--basetemp', '--import-mode'],
    permute: true,
    nodeIds: true,
    paths: 'all',
  },
  python: { switches: 'bBdEiIOqsSuvx', valued: 'WX', terminal: 'cm', paths: 'first' },
  node: { switches: '', valued: 'r', terminal: 'ep', paths: 'first' },
};

/** The names of the commands above: a line with none of them has no options or operands `act:` reads. */
export const COMMAND_NAMES: ReadonlySet<string> = new Set(Object.keys(COMMANDS));

// A map: one lookup per name, and a name that is not listed (`constructor` included) gets undefined.
const SPECS: ReadonlyMap<string | null, CommandSpec> = new Map(Object.entries(COMMANDS));

/** The option table of a command name, if `act:` knows it. */
export function specOf(name: string | null): CommandSpec | undefined {
  return SPECS.get(name);
}

// The last command read by `argsOf`, by its word list. The verbosity, context, switches and paths rules
// read a tabled command one after another, and a rule that rewrites nothing hands the next the very
// same list: one reading serves them all. Only one is held, and only until the next command is read.
let lastWords: readonly Word[] | null = null;
let lastArgs: Args | null = null;

/**
 * The arguments of a command (the words after its name) read by its option
 * table (commands.ts): `readArgs` of its table, `null` when it has none or
 * its words do not read. Operands' places count from the word after the name.
 */
export function argsOf(command: Command): Args | null {
  if (command.words === lastWords) return lastArgs;
  const spec = specOf(nameOf(command));
  const args = spec === undefined ? null : readArgs(spec, command.words.slice(1));
  lastWords = command.words;
  lastArgs = args;
  return args;
}

/**
 * Wrappers: `timeout 60 make`, `nice -n 10 make`, `time make`, `nohup make`,
 * `stdbuf -oL make` and `command make` all run `make`. The project already
 * strips `timeout` for `cmd:`; `act:` strips these wrappers with their own
 * options, and nothing else: `sudo`, `doas` and `env -i` change what runs.
 *
 * A wrapper goes only when it would run the command: it stays when it refuses
 * its options (`nice -n x`, `stdbuf -iL`, `timeout -s NOPE`), when `time` is
 * not bash's keyword, and when what follows a program (`timeout`, `nice`,
 * `nohup`, `stdbuf`) is a shell builtin or keyword, which a program cannot run
 * (`timeout 5 cd d` fails; `nice time make` runs /usr/bin/time, if installed).
 */
import { isDuration } from '../../command.js';
import type { Rule } from '../rule.js';
import { mapCommands, withWords, type Command, type Word } from '../syntax.js';

/** Given the words and the wrapper's index, the index of the command it wraps; `-1` when the wrapper is not read. */
type Skip = (words: readonly Word[], from: number) => number;

/** What a wrapper accepts as an option's value; it refuses to run on any other. */
type Accepts = (value: string) => boolean;

const value = (words: readonly Word[], at: number): string | null => words[at]?.value ?? null;

/** An option word split the way getopt reads it: `-sKILL` is `-s` with `KILL`, `--signal=KILL` is `--signal` with `KILL`. */
function splitOption(v: string): readonly [name: string, attached: string | null] {
  if (v.startsWith('--')) {
    const eq = v.indexOf('=');
    return eq === -1 ? [v, null] : [v.slice(0, eq), v.slice(eq + 1)];
  }
  return v.length > 2 ? [v.slice(0, 2), v.slice(2)] : [v, null];
}

/**
 * Reads the wrapper's options from `from + 1`: `flags`, and options with a value
 * (attached or the next word) that `valued` accepts. The index of the first
 * other word; `-1` when an option lacks its value or has one the wrapper refuses.
 */
function readOptions(words: readonly Word[], from: number, flags: ReadonlySet<string>, valued: ReadonlyMap<string, Accepts>): number {
  let at = from + 1;
  for (;;) {
    const v = value(words, at);
    // Every flag and option starts with a dash: any other word ends them (the duration, the command).
    // Stryker disable next-line StringLiteral: a shortcut: a word without a dash is in neither table, which ends the options too
    if (v === null || !v.startsWith('-')) return at;
    if (flags.has(v)) {
      at += 1;
      continue;
    }
    const [name, attached] = splitOption(v);
    const accepts = valued.get(name);
    if (accepts === undefined) return at;
    const given = attached ?? value(words, at + 1);
    if (given === null || !accepts(given)) return -1;
    at += attached === null ? 2 : 1;
  }
}

// The signals every POSIX system has, by name (any case, SIG optional) or number.
const SIGNAL = /^(?:(?:SIG)?(?:HUP|INT|QUIT|ILL|TRAP|ABRT|BUS|FPE|KILL|USR1|SEGV|USR2|PIPE|ALRM|TERM|CHLD|CONT|STOP|TSTP|TTIN|TTOU|URG|XCPU|XFSZ|VTALRM|PROF|SYS)|[12]?\d|3[01])$/i;
const isSignal: Accepts = (v) => SIGNAL.test(v);

const TIMEOUT_FLAGS: ReadonlySet<string> = new Set(['--foreground', '--preserve-status', '-v', '--verbose']);
const TIMEOUT_VALUED: ReadonlyMap<string, Accepts> = new Map([
  ['-s', isSignal],
  ['--signal', isSignal],
  ['-k', isDuration],
  ['--kill-after', isDuration],
]);

/** `timeout [--foreground|--preserve-status|-v|-s SIG|-k DUR …] DURATION`. */
const timeout: Skip = (words, from) => {
  const at = readOptions(words, from, TIMEOUT_FLAGS, TIMEOUT_VALUED);
  const duration = value(words, at);
  return duration !== null && isDuration(duration) ? at + 1 : -1;
};

const NO_FLAGS: ReadonlySet<string> = new Set();
// GNU nice reads the adjustment as a whole signed number; it refuses `-n x` or `-n 5x`.
const isAdjustment: Accepts = (v) => /^[+-]?\d+$/.test(v);
const NICE_VALUED: ReadonlyMap<string, Accepts> = new Map([
  ['-n', isAdjustment],
  ['--adjustment', isAdjustment],
]);

/** `nice [-n N | -nN | -N | --N | --adjustment=N | --adjustment N]`. */
const nice: Skip = (words, from) => {
  // The obsolete `nice -10` (and `nice --10` for -10), which GNU reads before getopt does.
  // Stryker disable next-line StringLiteral: '' stands for a word that expands, which is no adjustment, as no text put in its place is
  if (/^--?\d+$/.test(value(words, from + 1) ?? '')) return from + 2;
  return readOptions(words, from, NO_FLAGS, NICE_VALUED);
};

/** `time [-p]`: bash's keyword (GNU time's options, such as `-o file`, stay). */
const time: Skip = (words, from) => (value(words, from + 1) === '-p' ? from + 2 : from + 1);

// stdbuf's modes: `L` (line buffered) or a buffer size, `0` unbuffered; nine digits fit any size_t.
// Line buffering stdin is refused, as is a size with a suffix stdbuf does not know; sizes with suffixes are not folded.
const isMode: Accepts = (v) => /^(?:L|\d{1,9})$/.test(v);
const isInputMode: Accepts = (v) => /^\d{1,9}$/.test(v);
const STDBUF_VALUED: ReadonlyMap<string, Accepts> = new Map([
  ['-i', isInputMode],
  ['--input', isInputMode],
  ['-o', isMode],
  ['--output', isMode],
  ['-e', isMode],
  ['--error', isMode],
]);

/** `stdbuf -oL -eL …`: buffering of the streams only; stdbuf runs nothing without one. */
const stdbuf: Skip = (words, from) => {
  const at = readOptions(words, from, NO_FLAGS, STDBUF_VALUED);
  return at > from + 1 ? at : -1;
};

/** `nohup` and `command` take no options here (`command -v x` asks a question; it runs nothing). */
const bare: Skip = (_words, from) => from + 1;

interface Wrapper {
  readonly skip: Skip;
  /** A program rather than part of the shell: it looks its command up on PATH, where no builtin is. */
  readonly program: boolean;
}

const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map([
  ['timeout', { skip: timeout, program: true }],
  ['nice', { skip: nice, program: true }],
  ['nohup', { skip: bare, program: true }],
  ['stdbuf', { skip: stdbuf, program: true }],
  ['command', { skip: bare, program: false }],
]);

// `time` is bash's keyword only as the first word of a pipeline, with no assignment before it;
// anywhere else it is /usr/bin/time, which may not be installed. (After a wrapper it is a plain
// word: the keyword check below stops there.)
const TIME: Wrapper = { skip: time, program: false };

// bash's keywords (`compgen -k`). After a wrapper one is a plain word (`command if` looks for a
// program named if, `time !` negates); unwrapped, it would read as syntax.
const KEYWORDS: ReadonlySet<string> = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc']);

// bash's builtins (`compgen -b`). A program cannot run them (`timeout 5 cd d` fails), or runs
// another program of the same name (`nice pwd` prints the physical directory).
const BUILTINS: ReadonlySet<string> = new Set([
  '.', ':', '[', 'alias', 'bg', 'bind', 'break', 'builtin', 'caller', 'cd', 'command', 'compgen', 'complete', 'compopt',
  'continue', 'declare', 'dirs', 'disown', 'echo', 'enable', 'eval', 'exec', 'exit', 'export', 'false', 'fc', 'fg',
  'getopts', 'hash', 'help', 'history', 'jobs', 'kill', 'let', 'local', 'logout', 'mapfile', 'popd', 'printf', 'pushd',
  'pwd', 'read', 'readarray', 'readonly', 'return', 'set', 'shift', 'shopt', 'source', 'suspend', 'test', 'times',
  'trap', 'true', 'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'wait',
]);

/** The wrapper at word `start` of the command at `place` in its pipeline, if any. */
function wrapperAt(command: Command, place: number, start: number): Wrapper | undefined {
  const name = value(command.words, start);
  if (name === 'time') return place === 0 && command.assigns.length === 0 ? TIME : undefined;
  // Stryker disable next-line StringLiteral: '' stands for a word that expands, which is no wrapper, as no text put in its place is
  return WRAPPERS.get(name ?? '');
}

function unwrap(command: Command, place: number): Command {
  const words = command.words;
  // One slice at the end: slicing per wrapper would be quadratic in a chain of thousands.
  let start = 0;
  for (;;) {
    const wrapper = wrapperAt(command, place, start);
    if (wrapper === undefined) break;
    const at = wrapper.skip(words, start);
    // `-1` (the wrapper is not read) reads as no word.
    const wrapped = value(words, at);
    // The wrapped command must be there, must not look like one more option, and must be what the wrapper runs.
    if (wrapped === null || wrapped.startsWith('-') || KEYWORDS.has(wrapped) || (wrapper.program && BUILTINS.has(wrapped))) break;
    start = at;
  }
  return start === 0 ? command : withWords(command, words.slice(start));
}

// The wrappers' names; `time` is a keyword, not in the map of programs.
const WRAPPED: ReadonlySet<string> = new Set([...WRAPPERS.keys(), 'time']);

/** A keyword after a wrapper is a plain word, and so the wrapper stays (each entry a claim an example holds). */
// Stryker disable next-line ArrayDeclaration: examples, not the rule: emptied, fewer of them are run
const KEYWORD_KEEPS = [...KEYWORDS].map((keyword): [string, string] => [`command ${keyword} x`, `nice ${keyword} x`]);
/** A builtin after a program that wraps: the program cannot run it, and so it stays. */
// Stryker disable next-line ArrayDeclaration: examples, not the rule: emptied, fewer of them are run
const BUILTIN_KEEPS = [...BUILTINS].map((builtin): [string, string] => [`timeout 5 ${builtin} x`, `${builtin} x`]);

export const wrappers: Rule = {
  name: 'wrappers',
  reason: 'A wrapper that bounds, times, reprioritises or unbuffers a command runs the same command.',
  apply: (line) => mapCommands(line, unwrap),
  names: WRAPPED,
  folds: [
    [
      'make test',
      'timeout 600 make test',
      'timeout -s KILL 10m make test',
      'timeout --preserve-status 5m make test',
      'nice -n 10 make test',
      'time make test',
      'nohup make test',
      'timeout 60 nice make test',
      'stdbuf -oL -eL make test',
      'command make test',
      // Every option of the table, attached or not.
      'timeout --foreground 60 make test',
      'timeout -v 60 make test',
      'timeout --verbose 60 make test',
      'timeout --signal=TERM 60 make test',
      'timeout --signal TERM 60 make test',
      'timeout -sKILL 60 make test',
      'timeout -s 9 60 make test',
      'timeout -s 31 60 make test',
      'timeout -s sighup 60 make test',
      'timeout -k 5 60 make test',
      'timeout --kill-after=5s 60 make test',
      'nice make test',
      'nice -n5 make test',
      'nice -n +5 make test',
      'nice -10 make test',
      'nice --10 make test',
      'nice --adjustment=5 make test',
      'nice --adjustment -5 make test',
      'time -p make test',
      'stdbuf -i0 make test',
      'stdbuf --input=0 make test',
      'stdbuf -o 0 make test',
      'stdbuf --output=L make test',
      'stdbuf -e0 make test',
      'stdbuf --error=L make test',
    ],
  ],
  keeps: [
    ['sudo make install', 'make install'],
    ['command -v make', 'make'],
    ['timeout 60', 'make'],
    ['time -o t.txt make', 'make'],
    ['doas make install', 'make install'],
    ['timeout 60 make test', 'timeout 60 make lint'],
    ['nice -n x make', 'make'],
    ['timeout 5 cd /tmp && make', 'cd /tmp && make'],
    ['A=1 time make', 'A=1 make'],
    // What a wrapper refuses: it runs nothing.
    ['timeout -s NOPE 60 make', 'make'],
    ['timeout -s 32 60 make', 'make'],
    ['timeout -k soon 60 make', 'make'],
    ['nice -n 5x make', 'make'],
    ['stdbuf -iL make', 'make'],
    ['stdbuf -oK make', 'make'],
    ['stdbuf make', 'make'],
    ['stdbuf -o1234567890 make', 'make'],
    ['stdbuf -i1234567890 make', 'make'],
    ['timeout 60 -x make', 'make'],
    ['make | time cat', 'make | cat'],
    ...KEYWORD_KEEPS,
    ...BUILTIN_KEEPS,
  ],
};

/**
 * Wrappers: `timeout 60 make`, `nice -n 10 make`, `time make`, `nohup make`,
 * `stdbuf -oL make` and `command make` all run `make`. The project already
 * strips `timeout` for `cmd:`; `act:` strips these wrappers with their own
 * options, and nothing else: `sudo`, `doas` and `env -i` change what runs.
 */
import { isDuration } from '../../command.js';
import type { Rule } from '../rule.js';
import { mapCommands, type Command, type Word } from '../syntax.js';

/** Given the words and the wrapper's index, the index of the command it wraps; `-1` when the wrapper is not read. */
type Skip = (words: readonly Word[], from: number) => number;

const value = (words: readonly Word[], at: number): string | null => words[at]?.value ?? null;

/** `timeout [--foreground|--preserve-status|-v|-s SIG|-k DUR …] DURATION`. */
const timeout: Skip = (words, from) => {
  let at = from + 1;
  for (;;) {
    const v = value(words, at);
    if (v === null) return -1;
    if (v === '--foreground' || v === '--preserve-status' || v === '-v' || v === '--verbose') at += 1;
    else if (v === '-s' || v === '-k' || v === '--signal' || v === '--kill-after') at += 2;
    else if (/^(?:-[sk].|--signal=|--kill-after=)/.test(v)) at += 1;
    else break;
  }
  const duration = value(words, at);
  return duration !== null && isDuration(duration) ? at + 1 : -1;
};

/** `nice [-n N | -nN | -N | --adjustment=N | --adjustment N]`. */
const nice: Skip = (words, from) => {
  const v = value(words, from + 1);
  if (v === '-n' || v === '--adjustment') return value(words, from + 2) === null ? -1 : from + 3;
  if (v !== null && /^(?:-n-?\d+|--?\d+|--adjustment=-?\d+)$/.test(v)) return from + 2;
  return from + 1;
};

/** `time [-p]` (the shell keyword; GNU time's other options, such as `-o file`, stay). */
const time: Skip = (words, from) => (value(words, from + 1) === '-p' ? from + 2 : from + 1);

/** `stdbuf -oL -eL …`: buffering of the streams only. */
const stdbuf: Skip = (words, from) => {
  let at = from + 1;
  for (;;) {
    const v = value(words, at);
    if (v === '-i' || v === '-o' || v === '-e') at += 2;
    else if (v !== null && /^(?:-[ioe].|--(?:input|output|error)=)/.test(v)) at += 1;
    else break;
  }
  return at > from + 1 ? at : -1;
};

/** `nohup` and `command` take no options here (`command -v x` asks a question; it runs nothing). */
const bare: Skip = (_words, from) => from + 1;

const WRAPPERS: Readonly<Record<string, Skip>> = { timeout, nice, time, nohup: bare, stdbuf, command: bare };

function unwrap(command: Command): Command {
  const words = command.words;
  // One slice at the end: slicing per wrapper would be quadratic in a chain of thousands.
  let start = 0;
  for (;;) {
    const name = value(words, start);
    if (name === null || !Object.hasOwn(WRAPPERS, name)) break;
    const at = (WRAPPERS[name] as Skip)(words, start);
    const next = words[at];
    // The wrapped command must be there, and must not look like one more option.
    if (at < 0 || next === undefined || next.value === null || next.value.startsWith('-')) break;
    start = at;
  }
  return start === 0 ? command : { ...command, words: words.slice(start) };
}

export const wrappers: Rule = {
  name: 'wrappers',
  reason: 'A wrapper that bounds, times, reprioritises or unbuffers a command runs the same command.',
  apply: (line) => mapCommands(line, unwrap),
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
    ],
  ],
  keeps: [
    ['sudo make install', 'make install'],
    ['command -v make', 'make'],
    ['timeout 60', 'make'],
    ['time -o t.txt make', 'make'],
    ['doas make install', 'make install'],
    ['timeout 60 make test', 'timeout 60 make lint'],
  ],
};

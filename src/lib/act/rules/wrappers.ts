/**
 * Wrappers: `timeout 60 make`, `nice -n 10 make`, `time make`, `nohup make`,
 * `stdbuf -oL make` and `command make` all run `make`. The project already
 * strips `timeout` for `cmd:`; `act:` strips these wrappers with their own
 * options, and nothing else: `sudo`, `doas` and `env -i` change what runs.
 */
import { isDuration } from '../../command.js';
import type { Rule } from '../rule.js';
import { mapCommands, type Command, type Word } from '../syntax.js';

type Skip = (words: readonly Word[]) => number;

const value = (words: readonly Word[], at: number): string | null => words[at]?.value ?? null;

/** `timeout [--foreground|--preserve-status|-v|-s SIG|-k DUR …] DURATION`: index of the wrapped command, or 0. */
const timeout: Skip = (words) => {
  let at = 1;
  for (;;) {
    const v = value(words, at);
    if (v === null) return 0;
    if (v === '--foreground' || v === '--preserve-status' || v === '-v' || v === '--verbose') at += 1;
    else if (v === '-s' || v === '-k' || v === '--signal' || v === '--kill-after') at += 2;
    else if (/^(?:-[sk].|--signal=|--kill-after=)/.test(v)) at += 1;
    else break;
  }
  const duration = value(words, at);
  return duration !== null && isDuration(duration) ? at + 1 : 0;
};

/** `nice [-n N | -nN | -N | --adjustment=N | --adjustment N]`. */
const nice: Skip = (words) => {
  const v = value(words, 1);
  if (v === '-n' || v === '--adjustment') return value(words, 2) === null ? 0 : 3;
  if (v !== null && /^(?:-n-?\d+|--?\d+|--adjustment=-?\d+)$/.test(v)) return 2;
  return 1;
};

/** `time [-p]` (the shell keyword; GNU time's other options, such as `-o file`, stay). */
const time: Skip = (words) => (value(words, 1) === '-p' ? 2 : 1);

/** `stdbuf -oL -eL …`: buffering of the streams only. */
const stdbuf: Skip = (words) => {
  let at = 1;
  for (;;) {
    const v = value(words, at);
    if (v === '-i' || v === '-o' || v === '-e') at += 2;
    else if (v !== null && /^(?:-[ioe].|--(?:input|output|error)=)/.test(v)) at += 1;
    else break;
  }
  return at > 1 ? at : 0;
};

/** `nohup` and `command` take no options here (`command -v x` asks a question; it runs nothing). */
const bare: Skip = () => 1;

const WRAPPERS: Readonly<Record<string, Skip>> = { timeout, nice, time, nohup: bare, stdbuf, command: bare };

function unwrap(command: Command): Command {
  let words = command.words;
  for (;;) {
    const name = words[0]?.value;
    if (name === undefined || name === null || !Object.hasOwn(WRAPPERS, name)) return { ...command, words };
    const at = (WRAPPERS[name] as Skip)(words);
    const next = words[at];
    // The wrapped command must be there, and must not look like one more option.
    if (at === 0 || next === undefined || next.value === null || next.value.startsWith('-')) return { ...command, words };
    words = words.slice(at);
  }
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

/**
 * An install that says it installed nothing changed nothing. `pip install
 * requests` answered `Requirement already satisfied: requests in …` left the
 * environment as it was, and so did `npm install` answered `up to date,
 * audited 120 packages`, `uv pip install` answered `Audited 1 package`,
 * `apt-get install` answered `0 upgraded, 0 newly installed, 0 to remove`
 * and `conda install` answered `# All requested packages already installed.`
 * Read as a change (call/change.ts: an install changes what a later run
 * finds), each such call started every count again, and a model reinstalling
 * what it has under another spelling each time (`pip3 install`, `python -m
 * pip install`, `pip install --upgrade`) was never seen to repeat itself.
 *
 * Only positive evidence counts: the package manager's own line that nothing
 * was to do, and none that something was done (`Successfully installed`,
 * `added 3 packages`, `1 newly installed`). A quiet install (`pip install -q`)
 * says nothing either way, and stays a change; so does a line that does
 * anything but install (`pip install x && python gen.py` may write what the
 * answer does not say), pipes the answer (`| tail -3` may cut the line that
 * said it installed) or writes it to a file.
 */
import { installs } from '../call/change.js';
import { ACT_READ_LIMIT, type Dialect } from '../shell/act/index.js';
import { readLine } from '../shell/act/line.js';
import { copiesDescriptor, valueOf, type Command } from '../shell/act/syntax.js';
import { answerText } from './answer.js';
import { dialectOf } from '../call/read.js';

/**
 * A package manager's own line that an install had nothing to do: pip's, npm's,
 * uv's, apt's, conda's, yarn's, pnpm's, Homebrew's.
 */
const NOTHING =
  /^(?:Requirement already satisfied: |up to date(?:, audited \d+ packages?)? in |Audited \d+ packages? in |0 upgraded, 0 newly installed, 0 to remove\b|# All requested packages already installed\.|success Already up-to-date\.|Already up to date$|Warning: \S+ \S+ is already installed and up-to-date\.)/m;

/** A line that says an install did something, by the same managers. */
const DONE =
  /^(?:Successfully (?:installed|uninstalled) |Installing collected packages:|(?:added|removed|changed) \d+ packages?\b|(?:Installed|Uninstalled|Updated) \d+ packages? in |(?:[1-9]\d* upgraded, \d+|\d+ upgraded, [1-9]\d*) newly installed\b|Setting up |Unpacking |Executing transaction|success Saved |Packages: [+-]|==> (?:Pouring|Installing|Upgrading|Downloading) )/m;

/** Commands that may come beside an install: where it runs (`cd`), and in which environment (a venv's `activate` sourced). */
const BESIDE: ReadonlySet<string | null> = new Set(['cd', 'pushd']);
const ACTIVATES = /^(?:source|\.) \S*\bactivate$/;

/** Wrappers in front of an install that leave its answer as it is (without options of their own). */
const WRAPPERS: ReadonlySet<string | null> = new Set(['sudo', 'doas', 'command', 'env', 'time', 'nice', 'nohup']);

/** Whether a command only says where (a `cd`) or installs: 'install', 'beside', or `null` for anything else. */
function installing(command: Command): 'install' | 'beside' | null {
  // A redirection of the answer to a file, or from one, hides or feeds what the install says; `2>&1` copies it.
  if (command.redirects.some((r) => !copiesDescriptor(r) && valueOf(r.target) !== '/dev/null')) return null;
  const values = command.words.map(valueOf);
  let at = 0;
  while (WRAPPERS.has(values[at] ?? null)) at += 1;
  const name = values[at];
  if (name === null || name === undefined || values.some((v) => v === null)) return null;
  if (at === 0 && (BESIDE.has(name) || ACTIVATES.test(values.join(' ')))) return 'beside';
  const base = name.slice(name.lastIndexOf('/') + 1);
  return installs(base, values.slice(at + 1) as string[]) ? 'install' : null;
}

/** Whether a shell line does nothing but install (with a `cd` or an activation before), no pipe, in the foreground. */
function installsOnly(command: string, dialect: Dialect): boolean {
  if (command.length > ACT_READ_LIMIT) return false;
  const line = readLine(command, dialect);
  if (line === null || line.background) return false;
  let found = false;
  for (const pipeline of line.pipelines) {
    const read = pipeline.length === 1 ? installing(pipeline[0] as Command) : null;
    if (read === null) return false;
    found ||= read === 'install';
  }
  return found;
}

/** Whether a shell line that does nothing but install was answered that it installed nothing: then it changed nothing. */
export function installedNothing(tool: string, command: string, result: unknown): boolean {
  // The answer first: most lines that write are no install, and the manager's own words are rarer than a parse is cheap.
  const text = answerText(result);
  if (text === null || !NOTHING.test(text) || DONE.test(text)) return false;
  return installsOnly(command, dialectOf(tool));
}

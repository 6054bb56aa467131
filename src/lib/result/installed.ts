/**
 * An install that says it installed nothing changed nothing. `pip install
 * requests` answered `Requirement already satisfied: requests in …` left the
 * environment as it was, and so did `npm install` answered `up to date,
 * audited 120 packages`, `uv pip install` answered `Audited 1 package` and
 * `apt-get install` answered `0 upgraded, 0 newly installed, 0 to remove`.
 * Read as a change (call/change.ts: an install changes what a later run
 * finds), each such call started every count again, and a model reinstalling
 * what it has under another spelling each time (`pip3 install`, `python -m
 * pip install`, `pip install --upgrade`) was never seen to repeat itself.
 *
 * Only positive evidence counts: the package manager's own line that nothing
 * was to do, and none that something was done (`Successfully installed`,
 * `added 3 packages`, `1 newly installed`). A quiet install (`pip install -q`)
 * says nothing either way, and stays a change; so does a line whose output is
 * piped (`| tail -3` may cut the line that said it installed) or written to a
 * file, and a line that changes files by anything but an install.
 */
import { resultBlocks, joinedLength } from '../host/result.js';
import { safeMember } from '../host/member.js';
import { changesByInstallsOnly } from '../call/change.js';
import { tokenize } from '../shell/tokenize.js';
import { ANSWER_READ_LIMIT } from './answer.js';

/** A package manager's own line that an install had nothing to do. */
const NOTHING = /^(?:Requirement already satisfied: |up to date(?:, audited \d+ packages?)? in |Audited \d+ packages? in |0 upgraded, 0 newly installed, 0 to remove\b)/m;

/** A line that says an install did something: pip's, npm's, uv's, apt's. */
const DONE =
  /^(?:Successfully (?:installed|uninstalled) |Installing collected packages:|(?:added|removed|changed) \d+ packages?\b|(?:Installed|Uninstalled|Updated) \d+ packages? in |(?:[1-9]\d* upgraded, \d+|\d+ upgraded, [1-9]\d*) newly installed\b|Setting up |Unpacking )/m;

/** The result's text, `null` past answer.ts's read limit or unreadable: a longer answer is no evidence. */
function textOf(result: unknown): string | null {
  try {
    const texts = resultBlocks(result, 'all', safeMember, ANSWER_READ_LIMIT + 1);
    return joinedLength(texts) > ANSWER_READ_LIMIT ? null : texts.join('\n');
  } catch {
    return null;
  }
}

/** Whether a shell line that changes files only by installing was answered that it installed nothing (`line`: its words, when the call kept them). */
export function installedNothing(command: string, line: { words(): readonly string[] } | undefined, result: unknown): boolean {
  if (!changesByInstallsOnly(line?.words() ?? tokenize(command))) return false;
  const text = textOf(result);
  return text !== null && NOTHING.test(text) && !DONE.test(text);
}

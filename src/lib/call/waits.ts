/**
 * A look with its wait aside: `sleep 5 && cat out.log`, `sleep 10; cat
 * out.log` and `Start-Sleep -s 5; Get-Content out.log` look at what `cat
 * out.log` looks at; the wait in front only chooses when. So a poll respelled
 * by its wait alone is read as the look it is, and the same look answered the
 * very same way is the same look again (the stale track's back-to-back run),
 * as the look written identically each time is. A wait with nothing after it
 * (`sleep 60`), a wait that is not first, or a look that waits again
 * (`sleep 5 && wait`, `watch`) is not read: those stay polls.
 */
import { ACT_READ_LIMIT } from '../shell/act/index.js';
import { WAITS } from './poll.js';

/** `sleep N` (a number, a unit suffix allowed), then `&&` or `;` (posix). */
const POSIX_WAIT = /^\s*sleep\s+\d+(?:\.\d+)?[smhd]?\s*(?:&&|;)\s*/;
/** `Start-Sleep N`, `Start-Sleep -s N`, `-Seconds N`, `-m N`, `-Milliseconds N`, then `;` (PowerShell). */
const PWSH_WAIT = /^\s*start-sleep\s+(?:-(?:s|seconds|m|milliseconds)\s+)?\d+(?:\.\d+)?\s*;\s*/i;

/** The line's look with a leading wait aside; `null`: no leading wait, nothing after it, or a look that waits too. */
export function waitAside(command: string, pwsh: boolean): string | null {
  // The cheap test first: most lines do not start with a wait.
  if (command.length > ACT_READ_LIMIT || !/^\s*(?:sleep|start-sleep)\s/i.test(command)) return null;
  const wait = (pwsh ? PWSH_WAIT : POSIX_WAIT).exec(command);
  if (wait === null) return null;
  const look = command.slice(wait[0].length).trim();
  if (look === '' || /^(?:&&|;|\||&)/.test(look)) return null;
  // A look that waits again is a poll still (a second sleep, wait, watch, Start-Sleep).
  const words = look.split(/[\s;&|()]+/);
  return words.some((word) => WAITS.has(word) || word.toLowerCase() === 'start-sleep') ? null : look;
}

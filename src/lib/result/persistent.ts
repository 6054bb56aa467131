/**
 * The persistent shells' own framing (decision P14). DSH's minimal preset runs
 * `bash` (`@deepseek-ai/dsh-tool-bash-persistent`; `pwsh` on Windows) in one
 * long-lived shell per agent, and its result is plain text with no structured
 * value: a non-zero status is the one-shot's `[exit code: N]` marker, but a
 * time-out and the death of the shell are worded differently, and 0.5.2 reads
 * neither. These are the texts as rc.8 writes them:
 *
 * - time-out: the first line is `Your command timed out after N seconds or
 *   experienced an OOM error. Below is partial output:`, then the partial
 *   output, then the reset notice (the shell is closed, the next call starts
 *   fresh);
 * - the shell died under the command: the partial output, then one line
 *   `[shell killed by signal: SIG]`, `[shell exited: code N]` or `[shell
 *   exited]`, then the reset notice.
 *
 * Only the framing counts, never a mention: the time-out sentence must open the
 * text, and a death marker must be the whole line just before a reset notice,
 * two lines no command prints by accident.
 */
/** What the framing says, in the shape of failure.ts's `Failure` (declared here, so the classifier's import of this file is the only one between them). */
export interface PersistentFailure {
  readonly reason: 'timeout' | 'shell';
  readonly detail: string;
}

const TIMEOUT_HEAD = /^Your command timed out after (\d+) seconds or experienced an OOM error\. Below is partial output:/;

/** The reset notice each persistent shell ends a time-out or a death with. */
export const RESET_NOTICES: readonly string[] = [
  'The persistent bash shell was reset; the next bash call starts from the workspace with a fresh current directory and environment.',
  'The persistent pwsh shell was reset; the next pwsh call starts from the workspace with a fresh current directory and environment.',
];

const KILLED = '[shell killed by signal: ';
const EXITED_WITH = '[shell exited: code ';
const EXITED = '[shell exited]';
/** Where a reset notice can start a line. */
const NOTICE_LINE = '\nThe persistent ';

/**
 * The persistent shell's time-out, or its death, read from a shell result's
 * text; `null` when the text carries neither. The first death marker that is a
 * line of its own just before a reset notice wins. Linear: only a notice that
 * starts a line is read back from, and only to the line break before it.
 */
export function persistentFailure(text: string): PersistentFailure | null {
  const head = TIMEOUT_HEAD.exec(text);
  if (head?.[1] !== undefined) return { reason: 'timeout', detail: `${head[1]}s` };
  for (let at = text.indexOf(NOTICE_LINE); at >= 0; at = text.indexOf(NOTICE_LINE, at + 1)) {
    if (!RESET_NOTICES.some((notice) => text.startsWith(notice, at + 1))) continue;
    const start = text.lastIndexOf('\n', at - 1) + 1;
    const death = deathOf(text.slice(start, at).replace(/\r$/, ''));
    if (death !== null) return death;
  }
  return null;
}

/** The death a marker line names: `shell` with the status as detail (`code 1`, `signal SIGKILL`, or none). */
function deathOf(line: string): PersistentFailure | null {
  if (line === EXITED) return { reason: 'shell', detail: '' };
  if (line.startsWith(KILLED) && line.endsWith(']')) {
    const name = line.slice(KILLED.length, -1);
    return name.length > 0 && !name.includes(']') ? { reason: 'shell', detail: `signal ${name}` } : null;
  }
  if (line.startsWith(EXITED_WITH) && line.endsWith(']')) {
    const code = line.slice(EXITED_WITH.length, -1);
    if (/^-?\d+$/.test(code)) return { reason: 'shell', detail: `code ${code}` };
  }
  return null;
}

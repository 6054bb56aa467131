/**
 * Whether a call is a poll: it looks at something that changes by itself,
 * so the same answer again is the expected answer while it waits. A background
 * job's output (`job_output`, Claude Code's `bash_output`, `task_output`), a
 * job list or status, and a shell line that sleeps or waits before it looks
 * (`sleep 30 && tail log`, `wait`, `watch`). The stale track leaves polls to the
 * repeat track, whose cap is far higher: a job still running is not a model
 * learning nothing.
 */
import { tokenize } from '../shell/tokenize.js';

/** Tool names that read a job or process that runs on its own. */
const POLL_TOOL = /(?:^|_)(?:output|outputs|status|poll|wait|list|logs?)$/i;

/** Commands that wait before the line looks again. */
export const WAITS: ReadonlySet<string> = new Set(['sleep', 'wait', 'watch']);

/** Only the head of a huge line is read: a poll waits near its start. */
export const POLL_READ_LIMIT = 2048;

export function isPoll(name: string, command: string | undefined): boolean {
  if (command === undefined) return POLL_TOOL.test(name);
  return wordsPoll(tokenize(command.length > POLL_READ_LIMIT ? command.slice(0, POLL_READ_LIMIT) : command));
}

/** Whether a shell line's words (of its first POLL_READ_LIMIT characters) wait before it looks. */
export function wordsPoll(words: readonly string[]): boolean {
  return words.some(waits);
}

/** A word that names a wait: the tokenizer leaves `wait;` and `sleep 5&&` glued, and the operators are not part of the word. */
function waits(word: string): boolean {
  let end = word.length;
  for (let code = word.charCodeAt(end - 1); code === 0x3b || code === 0x26 || code === 0x7c; code = word.charCodeAt(end - 1)) end -= 1;
  return WAITS.has(end === word.length ? word : word.slice(0, end));
}

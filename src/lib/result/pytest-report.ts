/**
 * A pytest answer with its report of the selection aside: a node id collects
 * one item (`collected 1 item`), `-k` collects the file and deselects the
 * rest (`collected 4 items / 3 deselected / 1 selected`, `1 failed, 3
 * deselected in 0.42s`), and the summary's `=` rule is as wide as its words.
 * What ran and how it failed (each test's mark, each failure, the counts of
 * failed and passed) stays: two runs whose answers are the same so ran the
 * same tests the same way (call/pytest-select.ts).
 */
import { ANSWER_READ_LIMIT } from './answer.js';
import { linesDigest } from './digest.js';

/** `collected 4 items / 3 deselected / 1 selected`, `collected 1 item`. */
const COLLECTED = /^collected \d+ items?(?: \/ \d+ deselected)?(?: \/ \d+ selected)?\s*$/;
/** The summary line, with or without its `=` rule: `1 failed, 3 deselected in 0.42s`. */
const SUMMARY = /^=* ?(\d+ (?:failed|passed|error|errors|skipped|xfailed|xpassed|deselected|warnings?)\b.*? in \d+(?:\.\d+)?s\b.*?) ?=*$/;
const DESELECTED = /,? \d+ deselected\b/g;

/** The digest of a pytest answer with its selection report aside; `null` past answer.ts's read limit or with no summary line. */
export function selectionAsideDigest(text: string): string | null {
  if (text.length > ANSWER_READ_LIMIT) return null;
  let summaries = 0;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (COLLECTED.test(line)) continue;
    const summary = SUMMARY.exec(line);
    if (summary !== null) summaries += 1;
    lines.push(summary === null ? line : (summary[1] as string).replace(DESELECTED, '').replace(/^, /, ''));
  }
  return summaries === 0 ? null : linesDigest(lines.join('\n'));
}

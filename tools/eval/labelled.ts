/**
 * Reading the labelled trajectories of the real-agent corpus
 * (`../shared/corpus/real-dev/README.md`): line 1 is `{"meta": {…, label}}`,
 * then one line per tool call. Each call becomes what the DSH host would hand
 * a plugin, by the corpus's replay rules: a bash result carries its exit code
 * and timeout in the structured value and is never `isError` (DSH's bash sets
 * that only when the call itself fails); any other tool's result is an error
 * exactly when the log says so.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ToolResult } from '../../src/lib/host/types.js';
import { isMapping } from '../../src/lib/host/member.js';
import type { Episode, EpisodeEvent, Label, LabelClass } from './episode.js';

/** The agent of a call that names none. */
export const MAIN_AGENT = 'main';

const CLASSES: readonly LabelClass[] = ['loop', 'good', 'progress'];

function labelOf(meta: Record<string, unknown>, path: string): Label {
  const label = meta.label;
  if (!isMapping(label) || !CLASSES.includes(label.class as LabelClass)) {
    throw new Error(`${path}: meta.label.class must be one of ${CLASSES.join(', ')}`);
  }
  const cls = label.class as LabelClass;
  if (cls !== 'loop') return { class: cls };
  if (!Number.isInteger(label.loop_start) || (label.loop_start as number) < 0) {
    throw new Error(`${path}: a loop's meta.label.loop_start must be a call index (got ${JSON.stringify(label.loop_start)})`);
  }
  return { class: cls, loopStart: label.loop_start as number, ...(typeof label.kind === 'string' ? { kind: label.kind } : {}) };
}

/** The result a call's line stands for, by the corpus's replay rules. */
export function resultOf(line: Record<string, unknown>): ToolResult {
  const text = typeof line.result === 'string' ? line.result : '';
  const content = [{ type: 'text', text }];
  if (line.tool !== 'bash') return { isError: line.is_error === true, content };
  const value: Record<string, unknown> = { kind: 'foreground' };
  if (Number.isInteger(line.exit_code)) value.exitCode = line.exit_code;
  if (line.timed_out === true) value.timedOut = true;
  return { isError: false, content, value };
}

/** Whether a file's first line is a labelled trajectory's `meta`. */
export function isLabelledText(text: string): boolean {
  const first = text.slice(0, text.indexOf('\n') >>> 0);
  try {
    const parsed: unknown = JSON.parse(first);
    return isMapping(parsed) && isMapping(parsed.meta);
  } catch {
    return false;
  }
}

/** Parses one trajectory file's text; throws naming the file and line on anything malformed. */
export function parseLabelled(path: string, text: string): Episode {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const parse = (line: string, at: number): Record<string, unknown> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new Error(`${path}:${at + 1}: ${(error as Error).message}`);
    }
    if (!isMapping(parsed)) throw new Error(`${path}:${at + 1}: expected an object`);
    return parsed;
  };
  const head = lines[0] === undefined ? undefined : parse(lines[0], 0);
  if (head === undefined || !isMapping(head.meta)) throw new Error(`${path}: line 1 must be {"meta": {…}}`);
  const label = labelOf(head.meta, path);
  const events: EpisodeEvent[] = [];
  lines.slice(1).forEach((raw, at) => {
    const line = parse(raw, at + 1);
    if (typeof line.tool !== 'string') throw new Error(`${path}:${at + 2}: a call needs a "tool" name`);
    events.push({
      kind: 'call',
      index: events.length,
      agent: typeof line.agent === 'string' ? line.agent : MAIN_AGENT,
      name: line.tool,
      arguments: line.input ?? {},
      result: resultOf(line),
    });
  });
  const group = typeof head.meta.group === 'string' ? head.meta.group : basename(dirname(path));
  const resolved = isMapping(head.meta.outcome) ? head.meta.outcome.resolved : undefined;
  return { name: `${group}/${basename(path, '.jsonl')}`, path, label, events, calls: events.length, ...(typeof resolved === 'boolean' ? { resolved } : {}) };
}

export function readLabelled(path: string): Episode {
  return parseLabelled(path, readFileSync(path, 'utf8'));
}

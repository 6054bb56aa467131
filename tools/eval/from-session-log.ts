/**
 * A DSH session log as an episode: its tool calls in log order with the results
 * the log recorded, and its human messages. A call DSH skipped after a stop is
 * left out (no hook saw it). Parallel calls are taken one after another in log
 * order: the eval asks what each system notices and gates, and `npm run replay`
 * is the tool that reproduces DSH's pool order exactly.
 *
 * A session log carries no label; one comes from a labels file (`--labels`):
 * `{"<session>": "good" | "stuck" | "loop" | "progress" | {"class": "loop", "loop_start": 12}}`
 * (`stuck`, the sweep's word, is a loop from the first call).
 */
import { readFileSync } from 'node:fs';
import { toolResultOf } from '../lib/replay.js';
import { isMapping } from '../../src/lib/host/member.js';
import { readSessionLog, sessionName, type SessionLog } from '../lib/session-log.js';
import type { Episode, EpisodeEvent, Label } from './episode.js';
import { MAIN_AGENT } from './labelled.js';

function labelEntry(session: string, entry: unknown, path: string): Label {
  if (entry === 'good' || entry === 'progress') return { class: entry };
  if (entry === 'stuck' || entry === 'loop') return { class: 'loop', loopStart: 0 };
  if (isMapping(entry) && (entry.class === 'good' || entry.class === 'progress')) return { class: entry.class };
  if (isMapping(entry) && entry.class === 'loop') {
    const start = entry.loop_start ?? 0;
    if (Number.isInteger(start) && (start as number) >= 0) return { class: 'loop', loopStart: start as number };
  }
  throw new Error(
    `${path}: ${JSON.stringify(session)} is labelled ${JSON.stringify(entry)}; use "good", "stuck", "loop", "progress" or {"class": "loop", "loop_start": <call index>}`,
  );
}

/** Reads a labels file; throws naming the bad entry. */
export function readLabels(path: string): Map<string, Label> {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isMapping(parsed)) throw new Error(`${path}: expected {"<session>": <label>}`);
  return new Map(Object.entries(parsed).map(([session, entry]) => [session, labelEntry(session, entry, path)]));
}

export function episodeOfLog(log: SessionLog, label: Label | undefined): Episode {
  const events: EpisodeEvent[] = [];
  const calls = new Map<string, { name: string; arguments: unknown }>();
  let index = 0;
  for (const event of log.events) {
    if (event.kind === 'human') events.push({ kind: 'human', text: event.text });
    else if (event.kind === 'call' && !event.skipped) calls.set(event.callId, { name: event.name, arguments: event.arguments });
    else if (event.kind === 'result') {
      const call = calls.get(event.callId);
      if (call === undefined) continue;
      calls.delete(event.callId);
      events.push({ kind: 'call', index, agent: MAIN_AGENT, name: call.name, arguments: call.arguments, result: toolResultOf(event) });
      index += 1;
    }
  }
  return { name: sessionName(log.path), path: log.path, label, events, calls: index };
}

export function readLogEpisode(path: string, labels: ReadonlyMap<string, Label> | undefined): Episode {
  const log = readSessionLog(path);
  return episodeOfLog(log, labels?.get(sessionName(log.path)));
}

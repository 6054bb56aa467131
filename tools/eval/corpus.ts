/**
 * What the eval reads: labelled trajectories (`*.jsonl` whose first line is a
 * `meta` record) and DSH session logs (`session.jsonl[.zstd]`), from files or
 * directories, told apart by their first line. A file that cannot be read is
 * reported and skipped, never an abort.
 */
import { readFileSync } from 'node:fs';
import { collectLogFiles } from '../lib/session-log.js';
import type { Episode, Label } from './episode.js';
import { readLogEpisode } from './from-session-log.js';
import { isLabelledText, parseLabelled } from './labelled.js';

export interface Corpus {
  readonly episodes: readonly Episode[];
  readonly skipped: readonly { readonly path: string; readonly error: string }[];
}

export function readCorpus(paths: readonly string[], labels?: ReadonlyMap<string, Label>): Corpus {
  const episodes: Episode[] = [];
  const skipped: { path: string; error: string }[] = [];
  // collectLogFiles walks directories for every `.jsonl` and `.jsonl.zstd`, in name order.
  for (const path of collectLogFiles(paths)) {
    try {
      if (path.endsWith('.jsonl')) {
        const text = readFileSync(path, 'utf8');
        if (isLabelledText(text)) {
          episodes.push(parseLabelled(path, text));
          continue;
        }
      }
      episodes.push(readLogEpisode(path, labels));
    } catch (error) {
      skipped.push({ path, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { episodes, skipped };
}

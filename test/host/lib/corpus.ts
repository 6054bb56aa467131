/**
 * The fixture corpus of real DSH sessions (`test/fixtures/sessions/`): where it
 * lives and the shape of its index files. Written by `tools/record-sessions/main.ts`,
 * checked by `test/unit/fixture-corpus.test.ts`, replayed by `npm run replay`.
 */
import { join } from 'node:path';

import { REPO_DIR } from './env.js';
import type { TrajectoryEntry } from './trajectory.js';

export const CORPUS_DIR = join(REPO_DIR, 'test', 'fixtures', 'sessions');
/** Every scenario's log, as DSH writes it by default: a concatenation of zstd frames. */
export const LOG_FILE = 'session.jsonl.zstd';
/** The decompressed copy some scenarios also keep, so the plain path is exercised. */
export const PLAIN_LOG_FILE = 'session.jsonl';

export type Label = 'good' | 'stuck';

export interface RecordedScenario {
  /** The exact plugin config the row was mounted with (`{}`: the bundle's row as shipped, `DEFAULTS`). */
  readonly config: Record<string, unknown>;
  /** The DSH version that wrote the log. */
  readonly dsh: string;
  readonly description: string;
  /** The live trajectory, extracted from the log by {@link liveTrajectory}. */
  readonly trajectory: readonly TrajectoryEntry[];
}

export type Recorded = Record<string, RecordedScenario>;

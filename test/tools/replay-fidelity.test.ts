/**
 * The replay fidelity test: each fixture session was recorded with the real DSH
 * host and the plugin mounted under a known config (test/fixtures/sessions/
 * recorded.json). Replaying its log under that config must reproduce the live
 * trajectory exactly: the same calls denied, by the same layer, and the same
 * advisories after the same calls. A mismatch is a bug in the replay or in the plugin.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { liveVerdicts, replaySession } from '../../tools/lib/replay.js';
import type { Answer } from '../../tools/lib/replay-host.js';
import { readSessionLog } from '../../tools/lib/session-log.js';
import { CORPUS, hasZstd } from './support.js';

interface RecordedCall {
  readonly call: number;
  readonly tool: string;
  readonly outcome: 'ran' | 'denied';
  readonly by?: 'plugin' | 'approval';
  readonly notices: readonly string[];
}

interface RecordedSession {
  readonly config: Record<string, unknown>;
  readonly dsh: string;
  readonly description: string;
  /** How the recording answered asks, when it did not run headless. */
  readonly answer?: Answer;
  readonly trajectory: readonly RecordedCall[];
}

const recorded = JSON.parse(readFileSync(join(CORPUS, 'recorded.json'), 'utf8')) as Record<string, RecordedSession>;
const canDecodeZstd = hasZstd || typeof (zlib as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function';

/** The fields recorded.json pins, in its key order; `by` only where the recording names it. */
function comparable(call: RecordedCall): RecordedCall {
  return {
    call: call.call,
    tool: call.tool,
    outcome: call.outcome,
    ...(call.by === undefined ? {} : { by: call.by }),
    notices: [...call.notices],
  };
}

describe('replay fidelity against the recorded corpus', () => {
  it('the corpus names at least one recorded session, each with its log', () => {
    const scenarios = Object.keys(recorded);
    assert.ok(scenarios.length > 0, 'the corpus names at least one recorded session');
    for (const scenario of scenarios) {
      const logs = ['session.jsonl.zstd', 'session.jsonl'].filter((file) => existsSync(join(CORPUS, scenario, file)));
      assert.ok(logs.length > 0, `${scenario} has a session log`);
    }
  });

  for (const [scenario, session] of Object.entries(recorded)) {
    for (const file of ['session.jsonl.zstd', 'session.jsonl']) {
      const path = join(CORPUS, scenario, file);
      if (!existsSync(path)) continue;
      const skip = file.endsWith('.zstd') && !canDecodeZstd ? 'no zstd decoder (apt install zstd, or Node >= 22.15)' : false;
      it(`replaying ${scenario}/${file} under its recorded config reproduces the live trajectory`, { skip }, async () => {
        const report = await replaySession(readSessionLog(path), { config: session.config, answer: session.answer ?? 'none' });
        const byCall = new Map(session.trajectory.map((call) => [call.call, call]));
        const replayed = report.trajectory.map((call) => {
          const live = byCall.get(call.call);
          // Compare `by` wherever the recording states it.
          return comparable({ ...call, ...(live?.by === undefined ? { by: undefined } : {}) } as RecordedCall);
        });
        assert.deepEqual(replayed, session.trajectory.map(comparable));
        assert.equal(report.inferred, 0, 'every call the replay ran also ran live');
      });

      it(
        `replaying ${scenario}/${file} denies the calls its log shows refused and delivers the notices its log shows`,
        { skip },
        async () => {
          const log = readSessionLog(path);
          const report = await replaySession(log, { config: session.config, answer: session.answer ?? 'none' });
          const live = liveVerdicts(log);
          assert.deepEqual(
            report.trajectory.map(({ call, tool, outcome, by }) => ({ call, tool, outcome, ...(by === undefined ? {} : { by }) })),
            live.calls,
          );
          assert.deepEqual(
            report.trajectory.flatMap((call) => call.notices),
            live.notices,
          );
        },
      );
    }
  }
});

/**
 * The fixture corpus of real DSH sessions (`test/fixtures/sessions/`, written
 * by `npm run record-sessions`) is complete and consistent: every scenario has
 * its log, a label and a recorded trajectory, and that trajectory is what the
 * log itself shows. The replay fidelity test builds on exactly this.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import * as zlib from 'node:zlib';

import { CORPUS_DIR, LOG_FILE, PLAIN_LOG_FILE, type Recorded } from '../host/lib/corpus.js';
import { readSessionLog } from '../host/lib/session-log.js';
import { readLogText } from '../../tools/lib/session-log.js';
import { liveTrajectory } from '../host/lib/trajectory.js';

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

const labels = JSON.parse(readFileSync(join(CORPUS_DIR, 'labels.json'), 'utf8')) as Record<string, unknown>;
const recorded = JSON.parse(readFileSync(join(CORPUS_DIR, 'recorded.json'), 'utf8')) as Recorded;
const scenarios = readdirSync(CORPUS_DIR)
  .filter((entry) => statSync(join(CORPUS_DIR, entry)).isDirectory())
  .sort();

/** The reader decodes zstd with the `zstd` command, or with Node >= 22.15's own zstd. */
const canDecodeZstd =
  spawnSync('zstd', ['--version'], { stdio: 'ignore' }).status === 0 ||
  typeof (zlib as unknown as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function';
const needsZstd = canDecodeZstd ? {} : { skip: 'no zstd decoder here (install the zstd command or use Node >= 22.15)' };

describe('the recorded session corpus', () => {
  test('labels.json, recorded.json and the scenario directories name the same ten or more scenarios', () => {
    assert.ok(scenarios.length >= 10, `scenario directories: ${scenarios.join(', ')}`);
    assert.deepEqual(Object.keys(labels).sort(), scenarios);
    assert.deepEqual(Object.keys(recorded).sort(), scenarios);
  });

  test('every scenario is labelled good or stuck, and the corpus has both', () => {
    for (const [name, label] of Object.entries(labels)) assert.ok(label === 'good' || label === 'stuck', `${name}: ${String(label)}`);
    assert.ok(Object.values(labels).includes('good'), 'the corpus has a good scenario');
    assert.ok(Object.values(labels).includes('stuck'), 'the corpus has a stuck scenario');
  });

  test('every scenario keeps its log as DSH writes it by default: session.jsonl.zstd, zstd frames', () => {
    for (const name of scenarios) {
      const path = join(CORPUS_DIR, name, LOG_FILE);
      assert.ok(existsSync(path), `${name} has ${LOG_FILE}`);
      assert.deepEqual(readFileSync(path).subarray(0, 4), ZSTD_MAGIC, `${name}/${LOG_FILE} starts with a zstd frame`);
    }
  });

  test('every recorded entry names the config it was mounted with, the DSH that wrote it, and what it shows', () => {
    for (const name of scenarios) {
      const entry = recorded[name]!;
      assert.ok(entry.config !== null && typeof entry.config === 'object' && !Array.isArray(entry.config), `${name}: config is an object`);
      assert.equal(entry.dsh, '0.1.0-rc.8', `${name}: dsh`);
      assert.ok(entry.description.length > 20, `${name}: description`);
      entry.trajectory.forEach((e, i) => assert.equal(e.call, i + 1, `${name}: calls are numbered 1..n in log order`));
    }
  });

  test('each recorded trajectory is exactly the one its session log shows', needsZstd, () => {
    for (const name of scenarios) {
      const log = readSessionLog(join(CORPUS_DIR, name, LOG_FILE));
      assert.ok(log.steps.length > 0, `${name}: the log decodes to tool calls`);
      assert.deepEqual(liveTrajectory(log), recorded[name]!.trajectory, name);
    }
  });

  test('the plain session.jsonl copies hold the same records as their zstd originals', needsZstd, () => {
    const plain = scenarios.filter((name) => existsSync(join(CORPUS_DIR, name, PLAIN_LOG_FILE)));
    assert.ok(plain.length >= 1, 'at least one scenario keeps a plain copy');
    for (const name of plain) {
      const fromPlain = readSessionLog(join(CORPUS_DIR, name, PLAIN_LOG_FILE));
      const fromZstd = readSessionLog(join(CORPUS_DIR, name, LOG_FILE));
      assert.deepEqual(fromPlain.records, fromZstd.records, name);
      assert.deepEqual(liveTrajectory(fromPlain), recorded[name]!.trajectory, name);
    }
  });

  test(
    'the corpus shows denials by the plugin and by the approval layer, notices, a non-default config and a human message mid-turn',
    needsZstd,
    () => {
      const entries = Object.values(recorded).flatMap((r) => r.trajectory);
      assert.ok(
        entries.some((e) => e.outcome === 'denied' && e.by === 'plugin'),
        'a REPEAT_TOOL_BLOCKED denial',
      );
      assert.ok(
        entries.some((e) => e.outcome === 'denied' && e.by === 'approval'),
        'an ask refused by the approval layer',
      );
      assert.ok(
        entries.some((e) => e.notices.length > 0),
        'a notice',
      );
      assert.ok(
        entries.every((e) => (e.outcome === 'denied' ? e.by !== undefined : e.by === undefined)),
        'a denial, and only a denial, says by whom',
      );
      assert.ok(
        Object.values(recorded).some((r) => Object.keys(r.config).length > 0),
        'a scenario recorded under a non-default config',
      );
      const humanMidTurn = scenarios.some((name) => {
        const records = readSessionLog(join(CORPUS_DIR, name, LOG_FILE)).records;
        const firstCall = records.findIndex((r) => r.type === 'tool/call');
        return records.some((r, i) => i > firstCall && r.type === 'user/message' && r.data?.source?.kind === 'user');
      });
      assert.ok(humanMidTurn, 'a human message logged after the first tool call');
    },
  );

  test(
    'the corpus is what a real provider makes DSH write: streamed arguments in packed rows, steps of several calls, a skipped call',
    needsZstd,
    () => {
      const logs = scenarios.map((name) => readSessionLog(join(CORPUS_DIR, name, LOG_FILE)));
      const texts = scenarios.map((name) => readLogText(join(CORPUS_DIR, name, LOG_FILE)));
      assert.ok(
        texts.every((text) => text.includes('"type":"tool-call-chunks"')),
        'every log holds packed tool-call-chunks rows (arguments streamed in three or more pieces)',
      );
      assert.ok(
        logs.every((log) => log.records.some((r) => r.type === 'assistant/chunk' && r.data?.chunk?.type === 'tool-call-delta')),
        'every log streams its tool calls',
      );
      assert.ok(
        logs.some((log) => log.records.some((r) => r.type === 'assistant/chunk' && r.data?.chunk?.type === 'reasoning-delta')),
        'reasoning deltas',
      );
      const stepSizes = logs.flatMap((log) => {
        const sizes = new Map<string, number>();
        for (const e of log.events) if (e.kind === 'call' && e.step !== undefined) sizes.set(e.step, (sizes.get(e.step) ?? 0) + 1);
        return [...sizes.values()];
      });
      assert.ok(stepSizes.some((size) => size >= 3), 'a step of three or more calls');
      assert.ok(
        Object.values(recorded).some((r) => r.trajectory.some((e) => e.outcome === 'skipped')),
        'a call DSH skipped after a stop',
      );
    },
  );
});

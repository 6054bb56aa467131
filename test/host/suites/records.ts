/**
 * The session-log reader against the installed DSH (`tools/lib/session-log.ts`
 * against `@deepseek-ai/dsh-session` 0.1.0-rc.8, imported at test time): the
 * record types it accepts are exactly the ones DSH's own reader accepts, and
 * it reads every stored line of a real log into exactly the records DSH's
 * decoder makes of it. A DSH upgrade that adds an event or a packed-row kind
 * fails here, not in a user's replay.
 *
 * Run by `test/host/run.ts` under Node 22: `node --import tsx --test`.
 */
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';

import { CORPUS_DIR, LOG_FILE } from '../lib/corpus.js';
import { hostImport } from '../lib/env.js';
import { KNOWN_RECORD_TYPES, readLogText, readSessionLog, STORAGE_ROW_TYPES } from '../lib/session-log.js';

let session: any;

before(async () => {
  session = await hostImport('@deepseek-ai/dsh-session');
});

const sorted = (names: Iterable<string>): string[] => [...names].sort();

/**
 * The packed-row tags DSH's decoder expands, read from `decodeStorageRecord`
 * itself: it passes every other value through as an event (`tag !== "…"`).
 */
function decodedRowTags(decode: (value: unknown) => unknown): string[] {
  const tags = [...String(decode).matchAll(/tag !== "([^"]+)"/g)].map((match) => match[1] ?? '');
  assert.ok(tags.length > 0, `cannot find the row tags in decodeStorageRecord any more; read it and update this test:\n${String(decode)}`);
  return tags;
}

/** One member run of each kind of delta DSH packs, as the agent loop logs them. */
function deltaRun(chunk: Record<string, unknown>, seq: number): unknown[] {
  return [0, 1, 2].map((k) => ({ type: 'assistant/chunk', seq: seq + k, time: 100 + k, data: { turn: 1, step: 1, chunk } }));
}

const corpus = readdirSync(CORPUS_DIR)
  .filter((entry) => statSync(join(CORPUS_DIR, entry)).isDirectory())
  .sort();

describe('the session-log reader knows the records DSH 0.1.0-rc.8 writes', () => {
  test('its event types are exactly KNOWN_SESSION_EVENT_TYPES of @deepseek-ai/dsh-session', () => {
    assert.deepEqual(sorted(KNOWN_RECORD_TYPES), sorted(session.KNOWN_SESSION_EVENT_TYPES));
  });

  test('its packed-row types are exactly the tags decodeStorageRecord expands', () => {
    assert.deepEqual(sorted(STORAGE_ROW_TYPES), sorted(decodedRowTags(session.decodeStorageRecord)));
  });

  test('every row DSH packs a delta run into is one it reads (packChunkRuns over text, reasoning and tool-call deltas)', () => {
    const events = [
      ...deltaRun({ type: 'text-delta', index: 0, text: 'a' }, 0),
      ...deltaRun({ type: 'reasoning-delta', index: 1, text: 'b' }, 3),
      ...deltaRun({ type: 'tool-call-delta', index: 2, id: 'call_1', name: 'read', argumentsDelta: '{' }, 6),
    ];
    const rows: { type: string }[] = session.packChunkRuns(events);
    assert.equal(rows.length, 3, 'three runs, three rows');
    for (const row of rows) assert.ok(STORAGE_ROW_TYPES.has(row.type), `DSH packs into ${row.type}`);
  });

  test('every line of every corpus log reads into exactly the records DSH decodes from it', () => {
    assert.ok(corpus.length >= 10, `corpus: ${corpus.join(', ')}`);
    let rows = 0;
    for (const name of corpus) {
      const path = join(CORPUS_DIR, name, LOG_FILE);
      const lines = readLogText(path).split('\n').slice(1).filter((line) => line !== '');
      const theirs = lines.flatMap((line) => session.decodeStorageRecord(JSON.parse(line)) as { type: string; seq: number; data: unknown }[]);
      rows += lines.filter((line) => STORAGE_ROW_TYPES.has(JSON.parse(line).type)).length;
      const ours = readSessionLog(path).records;
      assert.deepEqual(
        ours.map((r) => ({ type: r.type, seq: r.seq, data: r.data })),
        theirs.map((e) => ({ type: e.type, seq: e.seq, data: e.data })),
        name,
      );
    }
    assert.ok(rows > 100, `the corpus holds packed rows (${rows})`);
  });
});

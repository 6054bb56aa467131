import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { collectLogFiles, readSessionLog, SessionLogError } from '../../tools/lib/session-log.js';
import { DecodeError, decodeZstd, MISSING_ZSTD, splitFrames } from '../../tools/lib/zstd.js';
import { hasZstd, header, jsonl, pooledRecords, records, stuckSteps, tempDir, writeSession, zstdFrames } from './support.js';

const zstd = { skip: hasZstd ? false : 'needs the zstd command (Debian package zstd)' };

describe('reading session logs', () => {
  it('reads every frame of a multi-frame session.jsonl.zstd, not just the first', zstd, () => {
    const lines = records(stuckSteps(6));
    const bytes = zstdFrames([jsonl(lines.slice(0, 3)), jsonl(lines.slice(3, 8)), jsonl(lines.slice(8))]);
    assert.equal(splitFrames(bytes).length, 3);
    const path = writeSession(tempDir(), 'multi', bytes, 'session.jsonl.zstd');
    const log = readSessionLog(path);
    assert.equal(log.steps.length, 6);
    assert.ok(log.steps.every((step) => step.settled && step.text === 'same-output\n'), 'every step of every frame is read whole and settled');
  });

  it('names the truncated frame of a cut-off zstd log', zstd, () => {
    const lines = records(stuckSteps(4));
    const whole = zstdFrames([jsonl(lines.slice(0, 4)), jsonl(lines.slice(4))]);
    const path = writeSession(tempDir(), 'cut', whole.subarray(0, whole.length - 5), 'session.jsonl.zstd');
    assert.throws(
      () => readSessionLog(path),
      (error: unknown) => error instanceof DecodeError && /truncated zstd frame 2/.test(error.message),
    );
  });

  const nodeZstd = typeof (zlib as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function';
  it(
    'decodes every frame with Node’s own zstd when the command is missing (Node >= 22.15)',
    { skip: hasZstd && nodeZstd ? false : 'needs the zstd command to make frames and Node >= 22.15' },
    () => {
      const lines = records(stuckSteps(5));
      const bytes = zstdFrames([jsonl(lines.slice(0, 4)), jsonl(lines.slice(4))]);
      assert.equal(decodeZstd(bytes, { command: 'zstd-not-installed-here' }), jsonl(lines));
    },
  );

  it('says to install the Debian package zstd when there is no way to decode', () => {
    const bytes = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]);
    assert.throws(
      () => decodeZstd(bytes, { command: 'zstd-not-installed-here', nodeFallback: false }),
      (error: unknown) => {
        return error instanceof DecodeError && error.message === MISSING_ZSTD && /apt install zstd/.test(error.message);
      },
    );
  });

  it('refuses a file whose first line is not a session header', () => {
    const path = writeSession(tempDir(), 'other', jsonl([{ hello: 'world' }, { type: 'tool/call', data: {} }]));
    assert.throws(
      () => readSessionLog(path),
      (error: unknown) => error instanceof SessionLogError && /not a DSH session log/.test(error.message),
    );
  });

  it('refuses a .zstd file that is not zstd data', () => {
    const path = writeSession(tempDir(), 'fake', jsonl(records(stuckSteps(1))), 'session.jsonl.zstd');
    assert.throws(() => readSessionLog(path), /not zstd data/);
  });

  it('refuses an unknown record type unless the record is marked ignorable', () => {
    const lines = records(stuckSteps(2));
    const dir = tempDir();
    const unknown = writeSession(dir, 'unknown', jsonl([...lines, { type: 'future/thing', seq: 99, time: 1, data: {} }]));
    assert.throws(() => readSessionLog(unknown), /unknown record type "future\/thing" at line 6/);
    const ignorable = writeSession(
      dir,
      'ignorable',
      jsonl([...lines, { type: 'future/thing', seq: 99, time: 1, data: {}, ignorable: true }]),
    );
    const log = readSessionLog(ignorable);
    assert.equal(log.steps.length, 2);
    assert.deepEqual(log.warnings, ['1 ignorable "future/thing" record(s) skipped']);
  });

  it('skips a torn last line (a crash mid-write) with a warning, but refuses a corrupt line inside', () => {
    const text = jsonl(records(stuckSteps(3)));
    const dir = tempDir();
    const torn = writeSession(dir, 'torn', `${text}{"type":"tool/ca`);
    assert.equal(readSessionLog(torn).steps.length, 3);
    assert.match(readSessionLog(torn).warnings[0] ?? '', /torn last line/);
    const lines = text.split('\n');
    lines.splice(2, 0, '{"type":"tool/ca');
    const corrupt = writeSession(dir, 'corrupt', lines.join('\n'));
    assert.throws(() => readSessionLog(corrupt), /line 3 is not JSON/);
  });

  it('refuses a session format version other than 0', () => {
    const path = writeSession(tempDir(), 'v1', jsonl([{ ...header(), version: 1 }]));
    assert.throws(() => readSessionLog(path), /format version 1/);
  });

  it('keeps human messages and plugin notices apart, in log order', () => {
    const lines = records([...stuckSteps(1), { human: 'stop and look' }, ...stuckSteps(1)]);
    lines.push({
      type: 'user/message',
      seq: 50,
      time: 1,
      data: {
        role: 'user',
        content: [{ type: 'text', text: 'CONVERGENCE_CHECK: …' }],
        source: { kind: 'plugin', plugin: 'repeat-tool-breaker', summary: 'x × 7' },
      },
    });
    const log = readSessionLog(writeSession(tempDir(), 'mixed', jsonl(lines)));
    assert.deepEqual(
      log.events.map((event) => event.kind),
      ['call', 'result', 'human', 'call', 'result', 'notice'],
    );
    assert.deepEqual(log.notices, [{ plugin: 'repeat-tool-breaker', text: 'CONVERGENCE_CHECK: …', summary: 'x × 7' }]);
  });

  it('takes the .zstd of a directory that holds both spellings of one log', () => {
    const dir = tempDir();
    const plain = writeSession(dir, 'both', jsonl(records(stuckSteps(1))));
    writeFileSync(`${plain}.zstd`, readFileSync(plain));
    writeSession(dir, 'only-plain', jsonl(records(stuckSteps(1))));
    assert.deepEqual(collectLogFiles([dir]), [join(dir, 'both', 'session.jsonl.zstd'), join(dir, 'only-plain', 'session.jsonl')]);
  });

  it('expands DSH’s packed delta rows into the assistant/chunk events they stand for, numbered from seq0', () => {
    const [head, call, result] = records(stuckSteps(1));
    const rows = [
      { type: 'reasoning-chunks', seq0: 10, time0: 5, data: { turn: 1, step: 1, index: 0, dt: [0, 1], texts: ['Step 1 ', 'of the', ' script.'] } },
      { type: 'tool-call-chunks', seq0: 13, time0: 6, data: { turn: 1, step: 1, index: 1, dt: [0, 0], id: 'call_0', name: 'bash', args: ['{"com', 'mand":"ec', 'ho"}'] } },
      { type: 'text-chunks', seq0: 16, time0: 7, data: { turn: 1, step: 2, index: 0, dt: [0, 0], texts: ['Do', 'n', 'e.'] } },
    ];
    const log = readSessionLog(writeSession(tempDir(), 'packed', jsonl([head, ...rows, call, result])));
    const chunks = log.records.filter((r) => r.type === 'assistant/chunk');
    assert.deepEqual(
      chunks.map((r) => r.seq),
      [10, 11, 12, 13, 14, 15, 16, 17, 18],
    );
    assert.deepEqual(chunks[3]?.data, {
      turn: 1,
      step: 1,
      chunk: { type: 'tool-call-delta', index: 1, id: 'call_0', name: 'bash', argumentsDelta: '{"com' },
    });
    assert.deepEqual(chunks[0]?.data.chunk, { type: 'reasoning-delta', index: 0, text: 'Step 1 ' });
    assert.deepEqual(chunks[8]?.data.chunk, { type: 'text-delta', index: 0, text: 'e.' });
    // The call the replay gates is the tool/call record, streamed or not.
    assert.deepEqual(
      log.steps.map((step) => [step.name, step.arguments]),
      [['bash', { command: 'echo same-output', description: 'try 1', timeoutMs: 10000 }]],
    );
    assert.deepEqual(log.warnings, []);
  });

  it('refuses a malformed packed row, naming the row and its line', () => {
    const [head, call, result] = records(stuckSteps(1));
    const bad = { type: 'tool-call-chunks', seq0: 3, time0: 1, data: { turn: 1, step: 1, index: 0, dt: [0], id: 'c', args: ['a', 'b', 'c'] } };
    const path = writeSession(tempDir(), 'bad-row', jsonl([head, call, bad, result]));
    assert.throws(
      () => readSessionLog(path),
      (error: unknown) => error instanceof SessionLogError && /malformed tool-call-chunks row at line 3: dt must hold one integer time gap per member/.test(error.message),
    );
  });

  it('gives each call its model step, and marks the calls DSH skipped after a stop', () => {
    const aborted = { text: 'Error: tool call aborted before dispatch', isError: true, error: { name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH' } };
    const read = { call: 'read', args: { file_path: 'a' }, text: 'a' };
    const lines = pooledRecords([[read, read], [{ ...read, ...aborted }, { ...read, ...aborted }]]);
    // The operator was asked about call_3 before the stop: its policy ran, so DSH did not skip it.
    lines.splice(7, 0, { type: 'approval/asked', seq: 90, time: 1, data: { id: 'ask-1', toolName: 'read', callId: 'call_3' } });
    const log = readSessionLog(writeSession(tempDir(), 'stopped', jsonl(lines)));
    assert.deepEqual(
      log.events.flatMap((event) => (event.kind === 'call' ? [[event.callId, event.step, event.skipped]] : [])),
      [
        ['call_0', '1:0', false],
        ['call_1', '1:0', false],
        ['call_2', '1:1', true],
        ['call_3', '1:1', false],
      ],
    );
    assert.deepEqual(
      log.steps.map((step) => step.skipped),
      [false, false, true, false],
    );
  });

  it('refuses a packed row of a kind this reader does not know, like any unknown record', () => {
    const lines = records(stuckSteps(1));
    const path = writeSession(tempDir(), 'future-row', jsonl([...lines, { type: 'image-chunks', seq0: 2, time0: 1, data: {} }]));
    assert.throws(() => readSessionLog(path), /unknown record type "image-chunks" at line 4/);
  });
});

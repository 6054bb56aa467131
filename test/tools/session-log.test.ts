import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { collectLogFiles, readSessionLog, SessionLogError } from '../../tools/lib/session-log.js';
import { DecodeError, decodeZstd, MISSING_ZSTD, splitFrames } from '../../tools/lib/zstd.js';
import { hasZstd, header, jsonl, records, stuckSteps, tempDir, writeSession, zstdFrames } from './support.js';

const zstd = { skip: hasZstd ? false : 'needs the zstd command (Debian package zstd)' };

describe('reading session logs', () => {
  it('reads every frame of a multi-frame session.jsonl.zstd, not just the first', zstd, () => {
    const lines = records(stuckSteps(6));
    const bytes = zstdFrames([jsonl(lines.slice(0, 3)), jsonl(lines.slice(3, 8)), jsonl(lines.slice(8))]);
    assert.equal(splitFrames(bytes).length, 3);
    const path = writeSession(tempDir(), 'multi', bytes, 'session.jsonl.zstd');
    const log = readSessionLog(path);
    assert.equal(log.steps.length, 6);
    assert.ok(log.steps.every((step) => step.settled && step.text === 'same-output\n'));
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
});

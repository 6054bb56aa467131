/**
 * `npm run replay` and `npm run sweep` on the recorded fixture corpus
 * (test/fixtures/sessions), as docs/thresholds.md shows them. The numbers are
 * the shipped defaults' verdicts on seven scripted sessions.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { CORPUS, hasZstd, runTool, tempDir } from './support.js';

const canDecode = hasZstd || typeof (zlib as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function';
const skip = canDecode ? false : 'no zstd decoder (apt install zstd, or Node >= 22.15)';

const cells = (line: string): string[] => line.trim().split(/\s{2,}/);

describe('the tools on the fixture corpus', { skip }, () => {
  it('npm run replay prints the defaults’ verdict on each recorded session, then the totals', async () => {
    const run = await runTool('replay', [CORPUS]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.trimEnd().split('\n').map(cells), [
      ['session', 'calls', 'peak', 'warn', 'summarize', 'fail-warn', 'asked', 'denied', 'fail streak'],
      ['-----------------------', '-----', '-------', '----', '---------', '---------', '-----', '------', '-----------'],
      ['failure-spin', '8', 'host 7', '0', '0', '1', '1', '2', 'host 5'],
      ['healthy-mixed', '14', 'host 2', '0', '0', '0', '0', '0', 'cmd 1'],
      ['host-spelling-ping-pong', '14', 'host 14', '1', '1', '0', '1', '3', '-'],
      ['human-message', '18', 'net 9', '2', '0', '0', '0', '0', '-'],
      ['identical-loop', '14', 'cmd 14', '1', '1', '0', '1', '3', '-'],
      ['pagination', '12', 'host 12', '1', '1', '0', '0', '0', '-'],
      ['rotating-paths', '18', 'host 16', '1', '1', '0', '1', '3', '-'],
      ['total (7 sessions)', '98', '6', '4', '1', '4', '11'],
    ]);
    assert.match(run.stderr, /^replayed 98 calls from 7 files in \d+\.\d\d s/m);
  });

  it('npm run replay --json totals the corpus', async () => {
    const run = await runTool('replay', [CORPUS, '--json']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual((JSON.parse(run.stdout) as { totals: unknown }).totals, {
      files: 7,
      failedFiles: 0,
      calls: 98,
      sessionsWarned: 6,
      sessionsGated: 4,
      advisories: 11,
      warn: 6,
      summarize: 4,
      failWarn: 1,
      asked: 4,
      denied: 11,
      inferred: 0,
    });
  });

  it('npm run sweep prints one row per setting, with the corpus labels, and writes the chart', async () => {
    const svg = join(tempDir(), 'sweep.svg');
    const run = await runTool('sweep', [CORPUS, '--warnAt', '5,7', '--cap', '12,16', '--hostCap', '16,off', '--svg', svg]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.trimEnd().split('\n').map(cells), [
      ['setting', 'sessions warned', 'sessions gated', 'messages delivered', 'calls blocked', 'good touched', 'stuck caught'],
      [
        '---------------------------',
        '---------------',
        '--------------',
        '------------------',
        '-------------',
        '------------',
        '------------',
      ],
      ['warnAt=5 cap=12 hostCap=16', '6', '4', '14', '11', '2/3', '4/4'],
      ['warnAt=5 cap=12 hostCap=off', '4', '3', '10', '8', '1/3', '3/4'],
      ['warnAt=5 cap=16 hostCap=16', '6', '2', '14', '5', '2/3', '2/4'],
      ['warnAt=5 cap=16 hostCap=off', '4', '1', '10', '2', '1/3', '1/4'],
      ['warnAt=7 cap=12 hostCap=16', '6', '4', '11', '11', '2/3', '4/4'],
      ['warnAt=7 cap=12 hostCap=off', '4', '3', '7', '8', '1/3', '3/4'],
      ['warnAt=7 cap=16 hostCap=16', '6', '2', '13', '5', '2/3', '2/4'],
      ['warnAt=7 cap=16 hostCap=off', '4', '1', '9', '2', '1/3', '1/4'],
    ]);
    const chart = readFileSync(svg, 'utf8');
    assert.equal(chart.match(/<circle /g)?.length, 8, 'one dot per setting: no two land on the same spot here');
    assert.match(chart, /stuck sessions caught/);
  });
});

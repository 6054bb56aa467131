/**
 * `npm run replay` and `npm run sweep` on the recorded fixture corpus
 * (test/fixtures/sessions), as docs/thresholds.md shows them. The numbers are
 * the shipped defaults' verdicts on ten scripted sessions.
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
      ['-----------------------', '-----', '--------', '----', '---------', '---------', '-----', '------', '-----------'],
      ['failure-spin', '8', 'host 7', '0', '0', '1', '1', '2', 'host 5'],
      ['healthy-mixed', '14', 'host 2', '0', '0', '0', '0', '0', 'cmd 1'],
      ['host-spelling-ping-pong', '14', 'host 14', '1', '1', '0', '1', '3', '-'],
      ['human-message', '18', 'net 9', '2', '0', '0', '0', '0', '-'],
      ['identical-loop', '14', 'cmd 14', '1', '1', '0', '1', '3', '-'],
      ['pagination', '12', 'host 12', '1', '1', '0', '0', '0', '-'],
      ['parallel-mixed', '12', 'exact 3', '0', '0', '0', '0', '0', 'cmd 1'],
      ['parallel-reads', '16', 'exact 16', '1', '1', '0', '2', '5', '-'],
      ['rotating-paths', '18', 'host 16', '1', '1', '0', '1', '3', '-'],
      ['stopped-step', '8', 'cmd 1', '0', '0', '0', '0', '0', 'cmd 1'],
      ['total (10 sessions)', '134', '7', '5', '1', '6', '16'],
    ]);
    assert.match(run.stderr, /^replayed 134 calls from 10 files in \d+\.\d\d s/m);
  });

  it('npm run replay --json totals the corpus', async () => {
    const run = await runTool('replay', [CORPUS, '--json']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual((JSON.parse(run.stdout) as { totals: unknown }).totals, {
      files: 10,
      failedFiles: 0,
      calls: 134,
      sessionsWarned: 7,
      sessionsGated: 5,
      advisories: 13,
      warn: 7,
      summarize: 5,
      failWarn: 1,
      asked: 6,
      denied: 16,
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
      ['warnAt=5 cap=12 hostCap=16', '7', '5', '16', '16', '2/5', '5/5'],
      ['warnAt=5 cap=12 hostCap=off', '5', '4', '12', '13', '1/5', '4/5'],
      ['warnAt=5 cap=16 hostCap=16', '7', '3', '16', '6', '2/5', '3/5'],
      ['warnAt=5 cap=16 hostCap=off', '5', '2', '12', '3', '1/5', '2/5'],
      ['warnAt=7 cap=12 hostCap=16', '7', '5', '13', '16', '2/5', '5/5'],
      ['warnAt=7 cap=12 hostCap=off', '5', '4', '9', '13', '1/5', '4/5'],
      ['warnAt=7 cap=16 hostCap=16', '7', '3', '15', '6', '2/5', '3/5'],
      ['warnAt=7 cap=16 hostCap=off', '5', '2', '11', '3', '1/5', '2/5'],
    ]);
    const chart = readFileSync(svg, 'utf8');
    assert.equal(chart.match(/<circle /g)?.length, 8, 'one dot per setting: no two land on the same spot here');
    assert.match(chart, /stuck sessions caught/);
  });
});

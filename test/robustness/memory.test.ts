/**
 * Decision P6: after 1,000 calls with distinct 1 MB arguments on one agent, the
 * heap retained for that agent stays under 1 MB, and it goes when the agent
 * object goes. Heap figures need `--expose-gc`, so the calls run in a child
 * process (memory-probe.ts) and this file only reads its report.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const PROBE = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));
const LIMIT = 1 << 20;

interface Report {
  calls: number;
  shapes: string[];
  retainedBytes: number;
  afterDropBytes: number;
  seconds: number;
}

function probe(calls: number, shapes: string): Report {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', PROBE, 'port', String(calls), shapes], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  assert.equal(run.status, 0, `memory probe failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Report;
}

function check(report: Report, t: { diagnostic(message: string): void }): void {
  t.diagnostic(`${report.calls} calls (${report.shapes.join(', ')}): retained ${(report.retainedBytes / 1024).toFixed(0)} KB, after the agent is dropped ${(report.afterDropBytes / 1024).toFixed(0)} KB, ${report.seconds.toFixed(1)} s`);
  assert.ok(report.retainedBytes < LIMIT, `retained ${report.retainedBytes} bytes for one agent`);
  assert.ok(report.afterDropBytes < LIMIT / 4, `${report.afterDropBytes} bytes left once the agent is gone`);
}

test('1,000 distinct 1 MB writes and failing 1 MB outputs on one agent retain under 1 MB', (t) => {
  check(probe(1000, 'write,result'), t);
});

test('distinct 1 MB commands, fetch URLs and URL lists stay bounded too', (t) => {
  check(probe(48, 'command,fetch,urls'), t);
});

test('600 distinct 1 MB contexts claimed at pre-step (past TEXT_LIMIT), duplicated-context track on, retain under 1 MB', (t) => {
  check(probe(600, 'context'), t);
});

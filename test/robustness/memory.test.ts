/**
 * Decision P6: after 1,000 calls with distinct 1 MB arguments on one agent, the
 * heap retained for that agent stays under 1 MB, and it goes when the agent
 * object goes. Heap figures need `--expose-gc`, so the calls run in a child
 * process (memory-probe.ts, run by heap.ts, which says how its figures are
 * made repeatable) and this file only reads its report.
 */
import { test } from 'node:test';
import { assertBounded } from './heap.js';

test('1,000 distinct 1 MB writes and failing 1 MB outputs on one agent retain under 1 MB', (t) => {
  assertBounded(1000, 'write,result', t);
});

test('distinct 1 MB commands, fetch URLs and URL lists stay bounded too', (t) => {
  assertBounded(48, 'command,fetch,urls', t);
});

test('nothing kept across agents holds a large input: 1 MB commands, fetch URLs and URL lists after a warm-up on 1 KB ones', (t) => {
  // The other probes warm up on inputs as large as they measure, so a memory per configuration
  // (recent readings, normalized URLs) is already full of them before the heap is read.
  assertBounded(48, 'command,fetch,urls,short-warm', t);
});

test('600 distinct 1 MB contexts claimed at pre-step (past TEXT_LIMIT), duplicated-context track on, retain under 1 MB', (t) => {
  assertBounded(600, 'context', t);
});

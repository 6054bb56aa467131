/**
 * The generator's pools: only what DSH would pool, and nothing else about a
 * session changes (its seed still gives the same calls, results and answers).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateSession } from './generator.js';
import { PARALLEL_SAFE } from './pools.js';
import { poolCount, runEnd, type Step } from './session.js';

const SEED = 20250101;
const SESSIONS = 400;

function withoutPools(steps: readonly Step[]): Step[] {
  return steps.map((step) => {
    if (step.kind !== 'call' || step.pool === undefined) return step;
    const { pool: _pool, ...alone } = step;
    return alone;
  });
}

test('a pool is 2 to 8 consecutive calls of one agent object, all to parallel-safe tools', () => {
  let pools = 0;
  for (let index = 0; index < SESSIONS; index += 1) {
    const { steps } = generateSession(SEED, index);
    for (let at = 0; at < steps.length; ) {
      const end = runEnd(steps, at);
      const run = steps.slice(at, end);
      if (run.length > 1) {
        pools += 1;
        assert.ok(run.length <= 8, `pool of ${run.length} at ${SEED}/${index} step ${at}`);
        const agent = run[0]?.kind === 'call' ? run[0].agent : undefined;
        for (const step of run) {
          assert.ok(step.kind === 'call' && PARALLEL_SAFE.has(step.name), `${SEED}/${index}: a pool holds ${JSON.stringify(step).slice(0, 80)}`);
          assert.ok(step.agent !== null && step.agent === agent && step.fresh !== true, `${SEED}/${index}: a pool spans agents`);
        }
      }
      at = end;
    }
  }
  assert.ok(pools > 0, 'the generated sessions hold at least one pool');
});

test('pools change no call, result or answer: without them a session is the one its seed gave before', () => {
  for (let index = 0; index < SESSIONS; index += 1) {
    const pooled = generateSession(SEED, index);
    const sequential = generateSession(SEED, index, { pools: false });
    assert.equal(poolCount(sequential).pools, 0);
    assert.deepEqual({ ...pooled, steps: withoutPools(pooled.steps) }, sequential);
  }
});

test('sessions with pools come at a realistic rate: some sessions batch their reads and fetches, most calls stay alone', () => {
  let calls = 0;
  let pooled = 0;
  let sessionsWithPools = 0;
  for (let index = 0; index < SESSIONS; index += 1) {
    const session = generateSession(SEED, index);
    const count = poolCount(session);
    calls += session.steps.filter((step) => step.kind === 'call').length;
    pooled += count.calls;
    if (count.pools > 0) sessionsWithPools += 1;
  }
  assert.ok(pooled / calls > 0.03 && pooled / calls < 0.2, `${pooled} of ${calls} calls pooled`);
  assert.ok(sessionsWithPools / SESSIONS > 0.1, `${sessionsWithPools} of ${SESSIONS} sessions have pools`);
});

/**
 * CI parity: the port must decide exactly as the adjusted oracle (the reference
 * 0.5.2 plus the contract's decisions P1–P4 and P7, see oracle.ts) on 2,000
 * generated sessions, some of whose steps are pools of parallel calls run in
 * DSH's pool order. On a mismatch the test fails with shrunk, paste-ready
 * reproductions. Override with PARITY_SESSIONS / PARITY_SEED / PARITY_PORT / PARITY_DETAILS.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadOracle } from './oracle.js';
import { loadPort } from './plugins.js';
import { REPRO_IMPORTS } from './repro.js';
import { runParity } from './run.js';

const SESSIONS = Number(process.env.PARITY_SESSIONS ?? 2000);
const SEED = Number(process.env.PARITY_SEED ?? 20250101);
/** Failure-description details are compared too; PARITY_DETAILS=0 turns that off (see docs/parity.md). */
const DETAILS = process.env.PARITY_DETAILS !== '0';

test(`the port decides as the adjusted oracle on ${SESSIONS} generated sessions (seed ${SEED})`, async (t) => {
  // PARITY_PORT=<path to a copy of src/index.ts> checks a scratch copy (mutation testing).
  const [port, oracle] = [await loadPort(process.env.PARITY_PORT), await loadOracle()];
  const stats = await runParity({ left: port, right: oracle, leftName: 'port', rightName: 'oracle', sessions: SESSIONS, seed: SEED, reports: 3, observe: { details: DETAILS } });
  t.diagnostic(`sessions ${stats.sessions}, calls ${stats.calls} (${stats.pooledCalls} in ${stats.pools} pools of parallel calls), bad configs ${stats.badConfigs}, mismatches ${stats.mismatches}, ${(stats.ms / 1000).toFixed(1)} s`);
  assert.ok(stats.sessions >= 2000 || process.env.PARITY_SESSIONS !== undefined, 'CI must run at least 2,000 sessions');
  assert.ok(stats.pools > 0 || process.env.PARITY_SESSIONS !== undefined, 'no step of several parallel calls was generated');
  if (stats.mismatches > 0) {
    const shown = stats.reports.map((r) => r.text).join('\n\n');
    assert.fail(
      `${stats.mismatches} of ${stats.sessions} sessions mismatch (${stats.mismatchIds.slice(0, 10).join(' ')}).\n` +
        `Shrunk reproductions (replay one session with: npm run parity -- --seed ${SEED} --from <index> --sessions 1):\n\n${REPRO_IMPORTS}\n\n${shown}`,
    );
  }
});

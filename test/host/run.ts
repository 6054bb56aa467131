/**
 * `npm run test:host`: prove the plugin in the real DSH host.
 *
 *   1. Install `test/host` (DSH 0.1.0-rc.8, Node 22, pnpm) from its committed
 *      lockfile when `test/host/node_modules` is missing.
 *   2. `npm pack` the plugin (already built by `npm run build`) into
 *      `test/host/.work/pack/` and unpack the tarball.
 *   3. Run the in-process suites, the full-boot suite and the install suite
 *      (the README's install and web commands, from a clean clone) under Node 22
 *      with node's test runner; exit non-zero if any fails.
 *
 * Options (also as environment variables):
 *   --plugin ours|reference   HOST_PLUGIN   which build to test (default ours;
 *                                           `reference` packs the published 0.5.2
 *                                           from node_modules/reference-breaker)
 *   --suite records|pipeline|opt-in|duplicate-text|settings|boot|minimal|install
 *                             HOST_SUITE    run only one suite
 *
 * Runs on the repository's Node (>= 20) through tsx; only the suites need Node 22.
 */
import { join } from 'node:path';

import { HOST_DIR, type PluginLabel } from './lib/env.js';
import { runSuiteFile } from './lib/runner.js';
import { checkHost, EXPECTED_NODE, installHost, pack } from './lib/setup.js';

function option(flag: string, env: string): string | undefined {
  const at = process.argv.indexOf(flag);
  if (at !== -1) return process.argv[at + 1];
  const value = process.env[env];
  return value === '' ? undefined : value;
}

function seconds(since: bigint): string {
  return `${(Number(process.hrtime.bigint() - since) / 1e9).toFixed(1)} s`;
}

const timings: [string, string][] = [];

function main(): void {
  const label = (option('--plugin', 'HOST_PLUGIN') ?? 'ours') as PluginLabel;
  if (label !== 'ours' && label !== 'reference') throw new Error(`--plugin must be ours or reference, got ${label}`);
  const only = option('--suite', 'HOST_SUITE');
  const suites = only === undefined ? ['records', 'pipeline', 'opt-in', 'duplicate-text', 'settings', 'boot', 'minimal', 'install'] : [only];
  const started = process.hrtime.bigint();
  if (installHost()) timings.push(['install test/host', seconds(started)]);
  checkHost();
  const packing = process.hrtime.bigint();
  const packed = pack(label);
  timings.push([`pack ${label}`, seconds(packing)]);
  const outcomes = suites.map((name) => {
    console.log(`\n# ── suite: ${name} (node ${EXPECTED_NODE}) ──`);
    const outcome = runSuiteFile(name, join(HOST_DIR, 'suites', `${name}.ts`), label, packed);
    timings.push([`suite ${name}`, `${outcome.seconds.toFixed(1)} s`]);
    return outcome;
  });
  timings.push(['total', seconds(started)]);
  console.log('\n# ── test:host summary ──');
  for (const o of outcomes) console.log(`# ${o.ok ? 'PASS' : 'FAIL'} ${o.name}: ${o.summary}`);
  for (const [what, took] of timings) console.log(`# time ${what}: ${took}`);
  if (outcomes.some((o) => !o.ok)) process.exitCode = 1;
}

try {
  main();
} catch (error) {
  console.error(`test:host: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

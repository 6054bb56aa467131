/**
 * `npm run test:web`: the plugin in the real DSH 0.1.0-rc.8 web UI, driven
 * by headless Chromium over the DevTools protocol.
 *
 *   1. Install `test/host` from its lockfile when missing (shared with test:host).
 *   2. Check that Chromium is installed (CI: `apt-get install chromium`).
 *   3. `npm pack` the plugin (built by `npm run build`) and run the suite in
 *      `test/web/suites/` under Node 22; screenshots go to test/web/.artifacts/.
 *
 * Runs on the repository's Node (>= 20) through tsx; the suite needs Node 22
 * (DSH, and the built-in WebSocket the DevTools client uses).
 */
import { join } from 'node:path';

import { EXPECTED_NODE, checkHost, installHost, pack } from '../host/lib/setup.js';
import { runSuiteFile } from '../host/lib/runner.js';
import { chromiumPath } from './lib/cdp.js';
import { WEB_DIR } from './lib/paths.js';

function main(): void {
  const started = process.hrtime.bigint();
  installHost();
  checkHost();
  console.log(`# browser: ${chromiumPath()}`);
  const packed = pack('ours');
  console.log(`\n# ── suite: web-ui (node ${EXPECTED_NODE}, headless Chromium) ──`);
  const outcome = runSuiteFile('web-ui', join(WEB_DIR, 'suites', 'web-ui.ts'), 'ours', packed);
  const total = Number(process.hrtime.bigint() - started) / 1e9;
  console.log('\n# ── test:web summary ──');
  console.log(`# ${outcome.ok ? 'PASS' : 'FAIL'} web-ui: ${outcome.summary}`);
  console.log(`# time suite web-ui: ${outcome.seconds.toFixed(1)} s`);
  console.log(`# time total: ${total.toFixed(1)} s`);
  console.log(`# screenshots: ${join(WEB_DIR, '.artifacts')}`);
  if (!outcome.ok) process.exitCode = 1;
}

try {
  main();
} catch (error) {
  console.error(`test:web: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

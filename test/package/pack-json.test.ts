/**
 * `npm pack --json` with its `prepare` build running, as a fresh clone runs
 * it: stdout is one JSON document, so tools (and `npm publish --json`) can read
 * it. The build's progress line goes to stderr. Runs in a copy of the working
 * tree, so the build there cannot disturb the dist/ other tests read.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { copyWorkingTree } from '../host/lib/checkout.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'breaker-pack-json-'));

after(() => rmSync(copy, { recursive: true, force: true }));

test('npm pack --json prints JSON only while its prepare build runs: the build reports on stderr', () => {
  copyWorkingTree(copy, root);
  assert.equal(existsSync(join(copy, 'dist')), false, 'the copy starts without dist/, as a clone does');
  // The dev tools, without a second install.
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  const out = spawnSync('npm', ['pack', '--json', '--dry-run'], {
    cwd: copy,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'notice' },
  });
  assert.equal(out.status, 0, `npm pack failed:\n${out.stderr}`);
  assert.ok(existsSync(join(copy, 'dist', 'client.js')), 'prepare built the plugin and its card in the copy');
  assert.match(out.stderr, /dist\/client\.js: \d+ bytes, \d+ modules/, 'the build\'s progress line is on stderr');
  let packed: unknown;
  assert.doesNotThrow(() => {
    packed = JSON.parse(out.stdout);
  }, `stdout is not one JSON document:\n${out.stdout.slice(0, 2000)}`);
  assert.ok(Array.isArray(packed) && packed.length === 1, `one package described: ${out.stdout.slice(0, 300)}`);
  const [entry] = packed as { filename?: unknown; files?: { path: string }[] }[];
  const { version } = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { version: string };
  assert.equal(entry?.filename, `dsh-repeat-tool-breaker-${version}.tgz`);
  assert.ok(entry?.files?.some((file) => file.path === 'dist/client.js'), 'the card\'s bundle is in the listing');
});

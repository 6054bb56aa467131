/**
 * The package as npm users get it: pack the built tree, check what the tarball
 * holds, install it offline into a scratch project and import it from there.
 * Runs inside `npm test`, after the build.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, any>;
const work = mkdtempSync(join(tmpdir(), 'breaker-pack-'));
let tarball = '';
let entries: string[] = [];

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

before(() => {
  // --ignore-scripts: `prepare` would rebuild; `npm test` has just built dist/.
  const out = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root);
  const packed = JSON.parse(out) as { filename: string }[];
  assert.equal(packed.length, 1);
  tarball = join(work, packed[0]!.filename);
  entries = run('tar', ['-tzf', tarball], work).split('\n').filter((line) => line !== '');
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball holds the built plugin, the browser card, the patch layer and the docs', () => {
  for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'cordis.patch.yml', 'README.md', 'README.zh.md', 'README.i18n.yaml', 'CHANGELOG.md', 'LICENSE', 'package.json']) {
    assert.ok(entries.includes(`package/${file}`), `missing package/${file} in ${entries.join(', ')}`);
  }
});

test('the tarball holds no sources, tests or tools', () => {
  const stray = entries.filter((entry) => /^package\/(src|test|tools)\//.test(entry));
  assert.deepEqual(stray, []);
});

test('an offline install of the tarball imports as a DSH plugin', () => {
  const scratch = join(work, 'scratch');
  mkdirSync(scratch);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  // The plugin has no dependencies, so --offline needs nothing from the registry.
  // npm does not run `prepare` when installing from a tarball.
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], scratch);
  const probe = [
    "const m = await import('dsh-repeat-tool-breaker');",
    'const p = m.default;',
    'console.log(JSON.stringify({ name: p.name, inject: p.inject, apply: typeof p.apply, defaults: typeof m.DEFAULTS }));',
  ].join(' ');
  const seen = JSON.parse(run(process.execPath, ['--input-type=module', '-e', probe], scratch).trim()) as Record<string, unknown>;
  assert.equal(seen.name, 'repeat-tool-breaker');
  assert.deepEqual(seen.inject, ['tools']);
  assert.equal(seen.apply, 'function');
  assert.equal(seen.defaults, 'object');
});

test('package.json declares the browser card the way DSH finds it: dsh.client for the web and exports["./client"]', () => {
  assert.equal(pkg.dsh.client.platform, 'web');
  assert.ok(Array.isArray(pkg.dsh.client.inject), 'the browser card lists what it injects');
  assert.equal(pkg.exports['./client'], './dist/client.js');
  assert.ok(pkg.files.includes('dist'), 'the package ships dist');
});

test('package.json: no dependencies, types first, Node 20+, bundle patch declared', () => {
  assert.equal(pkg.dependencies, undefined);
  const keys = Object.keys(pkg.exports['.']);
  assert.ok(keys.includes('types') && keys.includes('default'), `the main export has types and a default: ${keys.join(', ')}`);
  assert.ok(keys.indexOf('types') < keys.indexOf('default'), `exports order: ${keys.join(', ')}`);
  assert.equal(pkg.engines.node, '>=20');
  assert.equal(pkg.dsh.bundle.patch, './cordis.patch.yml');
});

test('cordis.patch.yml mounts one row and sets no config', () => {
  const live = readFileSync(join(root, 'cordis.patch.yml'), 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#') && line.trim() !== '');
  assert.equal(live.some((line) => /\bconfig\s*:/.test(line)), false, live.join('\n'));
  assert.deepEqual(live.map((line) => line.trim()), ['- insert:', '- id: repeat-tool-breaker', 'name: dsh-repeat-tool-breaker']);
});

/**
 * `npm run release:check [-- --version X] [--registry URL]`: everything that
 * must hold before `npm publish`, checked locally and in the publish workflow.
 * Exits 1 when any check fails; every check runs, so one run shows them all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  askRegistry,
  checkChangelog,
  checkCleanTree,
  checkRepository,
  checkTarball,
  checkUnpublished,
  expectedTarball,
  gitPorcelain,
  packedFiles,
  type Verdict,
} from './checks.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({
  options: {
    version: { type: 'string' },
    registry: { type: 'string' },
  },
});

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; repository?: unknown };
const version = values.version ?? pkg.version;

/** A check that cannot even run (no git, no npm) fails with its reason rather than crashing the list. */
function attempt(name: string, run: () => Verdict): Verdict {
  try {
    return run();
  } catch (error) {
    return { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

const verdicts = [
  attempt('version', () => checkUnpublished(pkg.name, version, askRegistry(pkg.name, version, values.registry))),
  attempt('changelog', () => checkChangelog(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version)),
  attempt('repository', () => checkRepository(pkg.repository, process.env.GITHUB_REPOSITORY)),
  attempt('clean tree', () => checkCleanTree(gitPorcelain(root))),
  attempt('tarball', () => checkTarball(packedFiles(root), expectedTarball(root))),
];

console.log(`release check for ${pkg.name}@${version}`);
for (const verdict of verdicts) console.log(`  ${verdict.ok ? 'ok  ' : 'FAIL'} ${verdict.name}: ${verdict.detail}`);
const failed = verdicts.filter((verdict) => !verdict.ok).length;
console.log(failed === 0 ? 'ready to publish' : `${failed} check(s) failed: not publishable`);
process.exitCode = failed === 0 ? 0 : 1;

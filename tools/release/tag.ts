/**
 * `npm run release:tag [-- --notes <file>]`: builds, then tags the release
 * commit a git install takes without a build (see ./built-tag.ts), locally.
 * The release workflow (.github/workflows/release.yml) runs it and pushes
 * the tag; the host suite runs it in a fresh clone and installs the tag with
 * `dsh plugin add git+file://…#v<version>`.
 *
 *   --notes <file>   also write the version's CHANGELOG section there (the
 *                    GitHub release's notes)
 *
 * Prints the tag, the commit and what it adds; exits 1 with the reason when
 * it refuses (dirty tree, stale dist/, tag already at another commit).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { changelogSection, makeBuiltTag } from './built-tag.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({ options: { notes: { type: 'string' } } });

try {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const built = makeBuiltTag(root, version);
  const dist = built.added.filter((file) => file.startsWith('dist/')).length;
  console.log(`${built.tag} → ${built.commit}${built.existed ? ' (already tagged: same source, same build)' : ''}`);
  console.log(`  source ${built.source}, plus ${dist} built files under dist/ and package.json without its build scripts`);
  if (values.notes !== undefined) {
    writeFileSync(values.notes, changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version));
    console.log(`  release notes: ${values.notes}`);
  }
  console.log(`  nothing pushed; a git install of this clone: dsh plugin --profile <p> add "git+file://${root.replace(/\/$/, '')}#${built.tag}"`);
} catch (error) {
  console.error(`release:tag: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

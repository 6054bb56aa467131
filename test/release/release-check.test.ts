/**
 * `npm run release:check`: each check on its own, the tarball check on the
 * real build, and the whole script refusing a version the registry already has.
 * Registry answers come from a stand-in registry in a child process (the
 * checks call npm synchronously), plus one question to the real registry.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  askRegistry,
  checkChangelog,
  checkCleanTree,
  checkRepository,
  checkTarball,
  checkUnpublished,
  expectedTarball,
  packedFiles,
  repositorySlug,
} from '../../tools/release/checks.js';
import { decodeClaims, describeClaims } from '../../tools/release/oidc.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const NAME = 'dsh-repeat-tool-breaker';

/** Serves a packument with only 0.5.2; /boom answers 500; anything else 404. */
const REGISTRY = `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  const json = (status, body) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
  const path = decodeURIComponent(req.url.split('?')[0]);
  if (path === '/${NAME}') {
    return json(200, { name: '${NAME}', 'dist-tags': { latest: '0.5.2' }, versions: { '0.5.2': { name: '${NAME}', version: '0.5.2' } }, time: { '0.5.2': '2026-09-23T08:13:17.962Z' } });
  }
  if (path.startsWith('/boom')) return json(500, { error: 'internal' });
  json(404, { error: 'Not found' });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

let registry: ChildProcess | undefined;
let registryUrl = '';

before(async () => {
  registry = spawn(process.execPath, ['--input-type=module', '-e', REGISTRY], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(registry.stdout!, 'data')) as [Buffer];
  registryUrl = `http://127.0.0.1:${chunk.toString().trim()}/`;
  // One attempt per question: the 500 case would otherwise wait out npm's retries.
  process.env.npm_config_fetch_retries = '0';
});

after(() => {
  registry?.kill();
});

describe('the version check', () => {
  test('a version the registry has is refused, with the fix in the message', () => {
    const answer = askRegistry(NAME, '0.5.2', registryUrl);
    assert.deepEqual(answer, { state: 'published' });
    const verdict = checkUnpublished(NAME, '0.5.2', answer);
    assert.equal(verdict.ok, false);
    assert.match(verdict.detail, /already published/);
    assert.match(verdict.detail, /bump "version"/);
  });

  test('a version the registry lacks passes', () => {
    const answer = askRegistry(NAME, '0.6.0', registryUrl);
    assert.deepEqual(answer, { state: 'unpublished' });
    assert.equal(checkUnpublished(NAME, '0.6.0', answer).ok, true);
  });

  test('a package the registry has never seen has no published version', () => {
    assert.deepEqual(askRegistry('no-such-package-here', '1.0.0', registryUrl), { state: 'unpublished' });
  });

  test('a registry that cannot answer fails the check instead of letting the publish through', () => {
    const answer = askRegistry(NAME, '0.6.0', `${registryUrl}boom/`);
    assert.equal(answer.state, 'unknown');
    const verdict = checkUnpublished(NAME, '0.6.0', answer);
    assert.equal(verdict.ok, false);
    assert.match(verdict.detail, /could not ask the registry/);
  });
});

describe('the changelog check', () => {
  const log = '# Changelog\n\n## 0.6.0\n\nText.\n\n## [0.7.0] - 2026-12-01\n\n### 0.8.0\n';

  test('a "## <version>" heading counts, bracketed or dated', () => {
    assert.equal(checkChangelog(log, '0.6.0').ok, true);
    assert.equal(checkChangelog(log, '0.7.0').ok, true);
  });

  test('a missing version, a longer version or a lower-level heading does not count', () => {
    assert.equal(checkChangelog(log, '0.5.2').ok, false);
    assert.equal(checkChangelog(log, '0.6').ok, false);
    assert.equal(checkChangelog(log, '0.8.0').ok, false);
    assert.match(checkChangelog(log, '0.5.2').detail, /no "## 0\.5\.2" heading/);
  });
});

describe('the clean-tree check', () => {
  test('no porcelain lines is clean', () => {
    assert.equal(checkCleanTree('').ok, true);
  });

  test('changed and untracked files fail, named in the message', () => {
    const verdict = checkCleanTree(' M src/index.ts\n?? notes.txt\n');
    assert.equal(verdict.ok, false);
    assert.match(verdict.detail, /M src\/index\.ts; \?\? notes\.txt/);
  });
});

describe('the repository check', () => {
  test('reads owner/name from every spelling npm accepts', () => {
    for (const spelling of [
      'git+https://github.com/snailium/dsh-repeat-tool-breaker.git',
      'https://github.com/snailium/dsh-repeat-tool-breaker',
      'git@github.com:snailium/dsh-repeat-tool-breaker.git',
      'github:snailium/dsh-repeat-tool-breaker',
      'snailium/dsh-repeat-tool-breaker',
    ]) {
      assert.equal(repositorySlug({ url: spelling }), 'snailium/dsh-repeat-tool-breaker', spelling);
    }
    assert.equal(repositorySlug(undefined), undefined);
  });

  test('in a workflow run, package.json must name the repository the run is in', () => {
    const repository = { type: 'git', url: 'git+https://github.com/snailium/dsh-repeat-tool-breaker.git' };
    assert.equal(checkRepository(repository, 'snailium/dsh-repeat-tool-breaker').ok, true);
    const fork = checkRepository(repository, 'someone/fork');
    assert.equal(fork.ok, false);
    assert.match(fork.detail, /provenance would be rejected/);
    assert.equal(checkRepository(undefined, undefined).ok, false);
  });
});

describe('the tarball check', () => {
  test('the built tree packs exactly the expected files: package.json, docs, patch, the browser card and four files per module', () => {
    const expected = expectedTarball(root);
    assert.ok(
      expected.includes('dist/index.js') && expected.includes('dist/lib/breaker/breaker.d.ts') && expected.includes('cordis.patch.yml'),
      'the expected files include the entry point, its declarations and the patch',
    );
    assert.ok(expected.includes('dist/client.js'), 'the expected files include the browser card');
    const verdict = checkTarball(packedFiles(root), expected);
    assert.equal(verdict.ok, true, verdict.detail);
  });

  test('a stale or missing file is named', () => {
    const verdict = checkTarball(['LICENSE', 'dist/old.js'], ['LICENSE', 'README.md']);
    assert.equal(verdict.ok, false);
    assert.match(verdict.detail, /missing README\.md/);
    assert.match(verdict.detail, /unexpected dist\/old\.js/);
  });
});

describe('npm run release:check', () => {
  const check = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'tools/release/check.ts', ...args], { cwd: root, encoding: 'utf8', env: process.env });

  test('refuses 0.5.2, which the real registry has, and publishes nothing', () => {
    const out = check('--version', '0.5.2');
    assert.equal(out.status, 1, out.stdout + out.stderr);
    assert.match(out.stdout, /FAIL version: dsh-repeat-tool-breaker@0\.5\.2 is already published/);
    assert.match(out.stdout, /not publishable/);
  });

  test('runs every check and lists each, even after one fails', () => {
    const out = check('--version', '0.5.2', '--registry', registryUrl);
    assert.equal(out.status, 1);
    for (const name of ['version', 'changelog', 'repository', 'clean tree', 'tarball'])
      assert.match(out.stdout, new RegExp(`(ok  |FAIL) ${name}:`));
  });
});

describe('the OIDC claims printer', () => {
  const claims = {
    repository: 'owner/dsh-repeat-tool-breaker',
    job_workflow_ref: 'owner/repo/.github/workflows/publish.yml@refs/heads/main',
    aud: 'npm:registry.npmjs.org',
    iat: 1,
  };
  const jwt = ['e30', Buffer.from(JSON.stringify(claims)).toString('base64url'), 'signature'].join('.');

  test('decodes the claims of a token without needing its signature', () => {
    assert.deepEqual(decodeClaims(jwt), claims);
  });

  test('prints the matched claims first and never the token', () => {
    const text = describeClaims(decodeClaims(jwt));
    assert.ok(text.indexOf('repository:') < text.indexOf('other claims:'), 'the matched claims are printed before the others');
    assert.match(text, /job_workflow_ref: "owner\/repo\/\.github\/workflows\/publish\.yml@refs\/heads\/main"/);
    assert.ok(!text.includes('signature'), 'the token itself is never printed');
  });
});

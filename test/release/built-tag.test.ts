/**
 * tools/release/built-tag.ts on a small repository of its own: the release tag
 * names HEAD plus the built files, reproducibly, and refuses what would make a
 * wrong release. The real install of such a tag by `dsh plugin add` is the host
 * suite's (test/host/suites/install.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { changelogSection, distProblem, makeBuiltTag, withoutBuildScripts } from '../../tools/release/built-tag.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'built-tag-'));
let repo = '';
let seq = 0;

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Source Author',
  GIT_AUTHOR_EMAIL: 'author@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z',
  GIT_COMMITTER_NAME: 'Source Committer',
  GIT_COMMITTER_EMAIL: 'committer@example.invalid',
  GIT_COMMITTER_DATE: '2026-01-02T03:04:05Z',
};

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();
}

function write(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

const MANIFEST = {
  name: 'tiny',
  version: '1.2.3',
  scripts: { build: 'tsc', prepare: 'npm run build', test: 'node --test' },
  files: ['dist'],
};

/** What `npm run build` leaves in dist/ for src/a.ts and src/b/c.ts, plus the card's bundle. */
const DIST = ['a', 'b/c'].flatMap((m) => ['.js', '.js.map', '.d.ts', '.d.ts.map'].map((suffix) => `dist/${m}${suffix}`)).concat('dist/client.js');

beforeEach(() => {
  seq += 1;
  repo = join(scratch, `repo-${seq}`);
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  write('package.json', `${JSON.stringify(MANIFEST, null, 2)}\n`);
  write('.gitignore', 'dist/\n');
  write('src/a.ts', 'export const a = 1;\n');
  write('src/b/c.ts', 'export const c = 2;\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'source');
  for (const file of DIST) write(file, `// built ${file}\n`);
});

after(() => rmSync(scratch, { recursive: true, force: true }));

describe('makeBuiltTag', () => {
  test('tags a child of HEAD: the source tree plus dist/, and package.json without its prepare script', () => {
    const head = git('rev-parse', 'HEAD');
    const built = makeBuiltTag(repo, '1.2.3');
    assert.equal(built.tag, 'v1.2.3');
    assert.equal(built.source, head);
    assert.equal(git('rev-parse', 'v1.2.3^{commit}'), built.commit, 'the tag names the built commit');
    assert.equal(git('rev-parse', `${built.commit}^@`), head, 'whose only parent is the source commit');
    assert.deepEqual(built.added, [...DIST].sort(), 'it adds exactly the built files');
    assert.deepEqual(git('diff-tree', '-r', '--name-status', '--no-commit-id', head, built.commit).split('\n').filter((l) => l.startsWith('M')), ['M\tpackage.json']);
    const shipped = JSON.parse(git('show', `${built.tag}:package.json`)) as typeof MANIFEST;
    assert.deepEqual(shipped.scripts, { build: 'tsc', test: 'node --test' }, 'prepare is gone, the other scripts stay');
    assert.equal(git('show', `${built.tag}:dist/client.js`), '// built dist/client.js');
    assert.equal(git('show', `${built.tag}:src/a.ts`), 'export const a = 1;', 'the sources are still there');
  });

  test('leaves the index, the working tree and HEAD as they were', () => {
    const head = git('rev-parse', 'HEAD');
    makeBuiltTag(repo, '1.2.3');
    assert.equal(git('status', '--porcelain'), '', 'nothing staged, nothing changed');
    assert.equal(git('rev-parse', 'HEAD'), head);
    assert.equal(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).scripts.prepare, 'npm run build', 'the checkout keeps its prepare script');
  });

  test('is reproducible: the same source and build give the same commit, and a rerun accepts its own tag', () => {
    const first = makeBuiltTag(repo, '1.2.3');
    git('tag', '-d', 'v1.2.3');
    const second = makeBuiltTag(repo, '1.2.3');
    assert.equal(second.commit, first.commit, 'same commit id without the tag');
    assert.equal(second.existed, false);
    const third = makeBuiltTag(repo, '1.2.3');
    assert.equal(third.commit, first.commit);
    assert.equal(third.existed, true, 'the rerun found the tag at the same commit');
    assert.equal(git('log', '-1', '--format=%an <%ae> %aI / %cn', first.commit), 'Source Author <author@example.invalid> 2026-01-02T03:04:05+00:00 / Source Committer');
  });

  test('refuses a tag that already names another commit', () => {
    makeBuiltTag(repo, '1.2.3');
    write('src/a.ts', 'export const a = 3;\n');
    git('commit', '-q', '-am', 'a later source');
    assert.throws(() => makeBuiltTag(repo, '1.2.3'), /tag v1\.2\.3 already names [0-9a-f]{40}, not [0-9a-f]{40}: a version is released once/);
  });

  test('refuses a dirty tree', () => {
    write('notes.txt', 'not committed\n');
    assert.throws(() => makeBuiltTag(repo, '1.2.3'), /uncommitted changes \(\?\? notes\.txt\)/);
    assert.equal(git('tag', '--list'), '', 'no tag was made');
  });

  test('refuses a dist/ that is not exactly the build: a stale file, or a missing one', () => {
    write('dist/removed-module.js', '// left over\n');
    assert.throws(() => makeBuiltTag(repo, '1.2.3'), /dist\/ holds stale dist\/removed-module\.js: run `npm run build`/);
    unlinkSync(join(repo, 'dist/removed-module.js'));
    unlinkSync(join(repo, 'dist/client.js'));
    assert.throws(() => makeBuiltTag(repo, '1.2.3'), /dist\/ lacks dist\/client\.js/);
    assert.equal(git('tag', '--list'), '', 'no tag was made');
  });
});

describe('the pieces', () => {
  test('withoutBuildScripts on this repository\'s package.json removes the prepare line and changes nothing else', () => {
    const text = readFileSync(join(root, 'package.json'), 'utf8');
    const removed = text.split('\n').filter((line) => !withoutBuildScripts(text).split('\n').includes(line));
    assert.deepEqual(removed, ['    "prepare": "npm run build",']);
    assert.equal(withoutBuildScripts(text), text.replace('    "prepare": "npm run build",\n', ''));
  });

  test('distProblem is silent for this repository\'s fresh build (npm test builds first)', () => {
    assert.equal(distProblem(root), undefined);
  });

  test('changelogSection takes the body of one version\'s heading, up to the next', () => {
    const text = '# Changelog\n\n## Unreleased — notes\n\n- later\n\n## 1.2.3\n\nThe release.\n\n### Contents\n\n- a\n\n## 1.2.2\n\n- old\n';
    assert.equal(changelogSection(text, '1.2.3'), 'The release.\n\n### Contents\n\n- a\n');
    assert.throws(() => changelogSection(text, '9.9.9'), /no "## 9\.9\.9" heading/);
  });
});

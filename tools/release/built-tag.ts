/**
 * The release tag a git install takes without building anything.
 *
 * pnpm (which `dsh plugin add` runs) builds a git-hosted package whose
 * package.json has a `prepare` script, and pnpm 10 refuses to until the user
 * allows it (`ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED`); a source commit of this
 * repository has no `dist/` and such a script. So a release tag does not name
 * the source commit: it names a child of it whose tree is the source tree plus
 * the built `dist/`, with `prepare` taken out of package.json. pnpm then finds
 * nothing to build and packs the checkout by `files`, which gives the same
 * files as the npm tarball.
 *
 * The commit is reproducible: its author, committer and dates are the source
 * commit's, so the same source and the same build give the same commit id.
 * Nothing here pushes; the release workflow pushes the tag it returns.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { changelogHeading, expectedTarball, fileDifferences, filesUnder, gitPorcelain } from './checks.js';

/** The scripts pnpm runs to prepare a git-hosted package (it builds when one of them is set). */
export const BUILD_SCRIPTS = ['prepare', 'prepublish', 'prepack', 'publish'] as const;

export interface BuiltTag {
  /** The tag name, `v<version>`. */
  readonly tag: string;
  /** The commit the tag names: `source` plus the built files. */
  readonly commit: string;
  /** The source commit (HEAD when the tag was made), the built commit's only parent. */
  readonly source: string;
  /** The files the built commit adds to the source tree, sorted. */
  readonly added: readonly string[];
  /** Whether the tag already named this very commit (a rerun on the same source and build). */
  readonly existed: boolean;
}

export function tagName(version: string): string {
  return `v${version}`;
}

interface Git {
  (args: readonly string[], options?: { input?: string; env?: NodeJS.ProcessEnv }): string;
}

function gitIn(root: string): Git {
  return (args, options = {}) => {
    const out = spawnSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      input: options.input,
      env: { ...process.env, ...options.env },
    });
    if (out.error) throw out.error;
    if (out.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${out.stderr.trim()}`);
    return out.stdout.trim();
  };
}

/**
 * package.json as the built commit carries it: the same text with every
 * script pnpm would build with removed. Formatting is npm's own (two spaces,
 * a final newline), which is how this repository writes it.
 */
export function withoutBuildScripts(manifestText: string): string {
  const manifest = JSON.parse(manifestText) as { scripts?: Record<string, string> };
  const scripts = manifest.scripts;
  if (scripts !== undefined) for (const name of BUILD_SCRIPTS) delete scripts[name];
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * Why `dist/` cannot go into a release as it is, or `undefined` when it holds
 * exactly what the tarball check expects (every module's four compiled files
 * and the card's bundle, nothing stale).
 */
export function distProblem(root: string): string | undefined {
  const expected = expectedTarball(root).filter((file) => file.startsWith('dist/'));
  const actual = filesUnder(join(root, 'dist'), root).sort();
  const { missing, extra } = fileDifferences(actual, expected);
  if (missing.length === 0 && extra.length === 0) return undefined;
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`dist/ lacks ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`);
  if (extra.length > 0) parts.push(`dist/ holds stale ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ` and ${extra.length - 5} more` : ''}`);
  return `${parts.join('; ')}: run \`npm run build\` (it empties dist/ first)`;
}

/**
 * Commits the built files on top of HEAD and tags the result `v<version>`.
 * Refuses a dirty tree (a release is exactly a commit), a `dist/` that is not
 * exactly the build's output, and a tag that already names another commit.
 * The working tree and the index are left alone: the commit is assembled in a
 * temporary index.
 */
export function makeBuiltTag(root: string, version: string): BuiltTag {
  const git = gitIn(root);
  const dirty = gitPorcelain(root).trim();
  if (dirty !== '') throw new Error(`uncommitted changes (${dirty.split('\n').slice(0, 3).join('; ')}): a release tag is made from a commit`);
  const problem = distProblem(root);
  if (problem !== undefined) throw new Error(problem);
  const source = git(['rev-parse', 'HEAD^{commit}']);
  const [authorName, authorEmail, authorDate, committerName, committerEmail, committerDate] = git([
    'show',
    '-s',
    '--format=%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI',
    source,
  ]).split('\0');
  const scratch = mkdtempSync(join(tmpdir(), 'release-index-'));
  let commit: string;
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index') };
    git(['read-tree', source], { env });
    // dist/ is git-ignored on purpose (no build output in the source history); force it in here only.
    git(['add', '--force', '--', 'dist'], { env });
    const manifest = git(['hash-object', '-w', '--stdin'], { input: withoutBuildScripts(readFileSync(join(root, 'package.json'), 'utf8')) });
    git(['update-index', '--cacheinfo', `100644,${manifest},package.json`], { env });
    const tree = git(['write-tree'], { env });
    const message = [
      `Release ${version}: ${source.slice(0, 12)} with its built files, for git installs`,
      '',
      'The source commit (the parent) plus dist/ from `npm run build`, and',
      'package.json without the scripts pnpm builds a git dependency with',
      '(prepare), so that `dsh plugin add` installs this tag as it is.',
      'Made by tools/release/tag.ts.',
      '',
    ].join('\n');
    commit = git(['commit-tree', tree, '-p', source], {
      input: message,
      env: {
        GIT_AUTHOR_NAME: authorName,
        GIT_AUTHOR_EMAIL: authorEmail,
        GIT_AUTHOR_DATE: authorDate,
        GIT_COMMITTER_NAME: committerName,
        GIT_COMMITTER_EMAIL: committerEmail,
        GIT_COMMITTER_DATE: committerDate,
      },
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const tag = tagName(version);
  const present = spawnSync('git', ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`], { cwd: root, encoding: 'utf8' });
  const existing = present.status === 0 ? present.stdout.trim() : undefined;
  if (existing !== undefined && existing !== commit) {
    throw new Error(`tag ${tag} already names ${existing}, not ${commit}: a version is released once (bump "version" for a new release)`);
  }
  if (existing === undefined) git(['tag', tag, commit]);
  const added = git(['diff-tree', '-r', '--name-only', '--no-commit-id', '--diff-filter=A', source, commit])
    .split('\n')
    .filter((line) => line !== '')
    .sort();
  return { tag, commit, source, added, existed: existing !== undefined };
}

/** The body of `## <version>` in CHANGELOG.md (up to the next `## ` heading), for the GitHub release's notes. */
export function changelogSection(text: string, version: string): string {
  const lines = text.split('\n');
  const heading = changelogHeading(version);
  const start = lines.findIndex((line) => heading.test(line));
  if (start === -1) throw new Error(`CHANGELOG.md has no "## ${version}" heading`);
  const end = lines.findIndex((line, at) => at > start && /^##\s/.test(line));
  return `${lines
    .slice(start + 1, end === -1 ? undefined : end)
    .join('\n')
    .trim()}\n`;
}

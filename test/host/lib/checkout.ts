/**
 * The repository as a fresh clone would deliver it, made from the working
 * tree (so uncommitted work is tested too, and the real repository is never
 * written to): the tracked files still present and the untracked ones
 * .gitignore lets through, with their current contents. Used by the install
 * suite (the README's `git clone`) and the `npm pack --json` test.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { REPO_DIR } from './env.js';

/** Paths relative to `root`, sorted. */
export function workingTreeFiles(root: string = REPO_DIR): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '');
  // A tracked file deleted in the working tree is still listed by --cached.
  return [...new Set(listed)].filter((path) => existsSync(join(root, path)) || isSymlink(join(root, path))).sort();
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Copies those files into `dest` (created), keeping modes and symlinks. */
export function copyWorkingTree(dest: string, root: string = REPO_DIR): string[] {
  const files = workingTreeFiles(root);
  for (const path of files) {
    const from = join(root, path);
    const to = join(dest, path);
    mkdirSync(dirname(to), { recursive: true });
    if (isSymlink(from)) {
      // A link out of the tree (a worktree's node_modules pointing at another checkout's) would
      // hand the copy someone else's files: an `npm ci` there empties the link's target.
      const target = resolve(dirname(from), readlinkSync(from));
      if (relative(root, target).startsWith('..')) throw new Error(`${path} links out of the tree (${target}): add it to .gitignore (without a trailing slash, which matches only directories)`);
      symlinkSync(readlinkSync(from), to);
    }
    else {
      copyFileSync(from, to);
      chmodSync(to, statSync(from).mode & 0o777);
    }
  }
  return files;
}

const IDENTITY = {
  GIT_AUTHOR_NAME: 'install suite',
  GIT_AUTHOR_EMAIL: 'install-suite@localhost',
  GIT_COMMITTER_NAME: 'install suite',
  GIT_COMMITTER_EMAIL: 'install-suite@localhost',
};

export interface Upstream {
  /** A `file://` URL to a bare repository whose `main` is the working tree in one commit. */
  readonly url: string;
  readonly commit: string;
}

/**
 * Stands in for the repository on GitHub: a bare repository under `dir`,
 * named as the real one is (`dsh-repeat-tool-breaker.git`, so `git clone`
 * makes a `dsh-repeat-tool-breaker` directory), holding the working tree.
 */
export function upstreamOfWorkingTree(dir: string, root: string = REPO_DIR): Upstream {
  const work = join(dir, 'snapshot');
  const bare = join(dir, 'dsh-repeat-tool-breaker.git');
  mkdirSync(work, { recursive: true });
  copyWorkingTree(work, root);
  const git = (cwd: string, args: string[]): string =>
    execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...IDENTITY }, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  git(work, ['init', '-q', '-b', 'main']);
  git(work, ['add', '-A']);
  git(work, ['commit', '-q', '--no-verify', '-m', 'the working tree under test']);
  git(dir, ['clone', '-q', '--bare', work, bare]);
  return { url: `file://${bare}`, commit: git(work, ['rev-parse', 'HEAD']) };
}

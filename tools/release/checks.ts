/**
 * The release checks, one function each, shared by `npm run release:check`,
 * the publish workflow (which runs that script) and the tests. A check never
 * throws: it returns a verdict with a sentence a person can act on.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface Verdict {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** Files every tarball carries besides the compiled `dist/`. */
export const SHIPPED_FILES = ['package.json', 'README.md', 'README.zh.md', 'README.i18n.yaml', 'CHANGELOG.md', 'LICENSE', 'cordis.patch.yml'] as const;

/** The browser card's bundle, written by `tools/build-client/main.ts` (`exports["./client"]`). */
export const CLIENT_BUNDLE = 'dist/client.js';

/** The four files `tsc -p tsconfig.build.json` writes for each source module. */
const EMITTED = ['.js', '.js.map', '.d.ts', '.d.ts.map'] as const;

/** Every file below `dir` (none when it is absent), as a `/`-separated path relative to `root`. */
export function filesUnder(dir: string, root: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path, root) : [relative(root, path).split(sep).join('/')];
  });
}

/** What `expected` lacks in `actual`, and what `actual` holds beyond it. */
export function fileDifferences(actual: readonly string[], expected: readonly string[]): { missing: string[]; extra: string[] } {
  return { missing: expected.filter((file) => !actual.includes(file)), extra: actual.filter((file) => !expected.includes(file)) };
}

/**
 * The exact file list the tarball should hold, derived from `src/` plus the
 * card's one bundle: a stale `dist/` file left by a deleted module is as wrong
 * as a missing one.
 */
export function expectedTarball(root: string): string[] {
  const srcRoot = join(root, 'src');
  const sources = filesUnder(srcRoot, srcRoot).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  const compiled = sources.flatMap((module) => {
    const stem = `dist/${module.slice(0, -'.ts'.length)}`;
    return EMITTED.map((suffix) => stem + suffix);
  });
  return [...SHIPPED_FILES, CLIENT_BUNDLE, ...compiled].sort();
}

/** Lists what `npm pack` would put in the tarball, without writing it or running scripts. */
export function packedFiles(root: string): string[] {
  const out = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`npm pack --dry-run failed: ${out.stderr.trim()}`);
  const packed = JSON.parse(out.stdout) as { files: { path: string }[] }[];
  return (packed[0]?.files ?? []).map((file) => file.path).sort();
}

export function checkTarball(actual: readonly string[], expected: readonly string[]): Verdict {
  const { missing, extra } = fileDifferences(actual, expected);
  if (missing.length === 0 && extra.length === 0) {
    return { name: 'tarball', ok: true, detail: `the tarball holds exactly the ${expected.length} expected files` };
  }
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`missing ${missing.join(', ')} (run \`npm run build\`)`);
  if (extra.length > 0) parts.push(`unexpected ${extra.join(', ')} (a stale dist/? remove dist/ and rebuild; or update \`files\`)`);
  return { name: 'tarball', ok: false, detail: parts.join('; ') };
}

/** A `## <version>` heading of CHANGELOG.md (`## 1.2.3`, `## [1.2.3] - date`, `## v1.2.3`). */
export function changelogHeading(version: string, flags = ''): RegExp {
  const escaped = version.replace(/[.+]/g, (ch) => `\\${ch}`);
  return new RegExp(`^##\\s+\\[?v?${escaped}\\]?(\\s|$)`, flags);
}

/** A `## <version>` heading, optionally followed by a date or a note. */
export function checkChangelog(text: string, version: string): Verdict {
  const found = changelogHeading(version, 'm').test(text);
  return found
    ? { name: 'changelog', ok: true, detail: `CHANGELOG.md has an entry for ${version}` }
    : { name: 'changelog', ok: false, detail: `CHANGELOG.md has no "## ${version}" heading: describe the release before publishing it` };
}

/** `git status --porcelain` output, already run by the caller. */
export function checkCleanTree(porcelain: string): Verdict {
  const dirty = porcelain.split('\n').filter((line) => line.trim() !== '');
  if (dirty.length === 0) return { name: 'clean tree', ok: true, detail: 'no uncommitted changes' };
  const shown = dirty.slice(0, 5).map((line) => line.trim());
  const more = dirty.length > shown.length ? ` and ${dirty.length - shown.length} more` : '';
  return {
    name: 'clean tree',
    ok: false,
    detail: `uncommitted changes (${shown.join('; ')}${more}): commit or stash them, so the release is exactly a commit`,
  };
}

export function gitPorcelain(root: string): string {
  const out = spawnSync('git', ['status', '--porcelain', '--untracked-files=normal'], { cwd: root, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`git status failed: ${out.stderr.trim()}`);
  return out.stdout;
}

/** `owner/name` from the `repository` field, in any of the spellings npm accepts. */
export function repositorySlug(repository: unknown): string | undefined {
  const url = typeof repository === 'string' ? repository : (repository as { url?: unknown } | null | undefined)?.url;
  if (typeof url !== 'string') return undefined;
  const match = /^(?:git\+)?(?:https?:\/\/|git:\/\/|ssh:\/\/git@|git@)?(?:github\.com[/:])?([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(
    url.replace(/^github:/, ''),
  );
  return match?.[1];
}

/**
 * Provenance ties the tarball to the repository that built it, and npm rejects
 * a publish whose `repository` names another one. In a workflow run the two
 * must agree; locally the field must at least be there.
 */
export function checkRepository(repository: unknown, running: string | undefined): Verdict {
  const slug = repositorySlug(repository);
  if (slug === undefined) {
    return {
      name: 'repository',
      ok: false,
      detail: 'package.json has no GitHub "repository" url: provenance needs one that names this repository',
    };
  }
  if (running !== undefined && running.toLowerCase() !== slug.toLowerCase()) {
    return {
      name: 'repository',
      ok: false,
      detail: `package.json names ${slug} but this workflow runs in ${running}: provenance would be rejected`,
    };
  }
  return {
    name: 'repository',
    ok: true,
    detail: running === undefined ? `package.json names ${slug}` : `package.json names ${slug}, where this runs`,
  };
}

export type RegistryAnswer = { readonly state: 'published' | 'unpublished' } | { readonly state: 'unknown'; readonly error: string };

/**
 * Asks the registry through `npm view`, so the same registry, proxy and
 * credentials settings apply as to `npm publish`. A package the registry has
 * never seen (E404) has no published version.
 */
export function askRegistry(name: string, version: string, registry?: string): RegistryAnswer {
  const args = ['view', `${name}@${version}`, 'version', '--json'];
  if (registry !== undefined) args.push('--registry', registry);
  const out = spawnSync('npm', args, { encoding: 'utf8', timeout: 60_000 });
  if (out.status === 0) return { state: out.stdout.trim() === '' ? 'unpublished' : 'published' };
  const said = `${out.stdout}\n${out.stderr}`;
  if (/\bE404\b/.test(said)) return { state: 'unpublished' };
  const reason = said.split('\n').find((line) => /npm (error|ERR!)/.test(line)) ?? out.error?.message ?? `exit ${out.status}`;
  return { state: 'unknown', error: reason.trim() };
}

export function checkUnpublished(name: string, version: string, answer: RegistryAnswer): Verdict {
  switch (answer.state) {
    case 'unpublished':
      return { name: 'version', ok: true, detail: `${name}@${version} is not on the registry yet` };
    case 'published':
      return {
        name: 'version',
        ok: false,
        detail: `${name}@${version} is already published and a version can never be republished: bump "version" in package.json and add its CHANGELOG entry`,
      };
    default:
      // Fail closed: publishing blind could be the republish this check exists to stop.
      return { name: 'version', ok: false, detail: `could not ask the registry about ${name}@${version}: ${answer.error}` };
  }
}

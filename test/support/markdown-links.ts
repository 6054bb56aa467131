/**
 * The relative links of the repository's Markdown, checked as GitHub renders
 * them: a link's file (or directory) must exist, and an `#anchor` must be the
 * slug of a heading of the page it points into (the same page, or another
 * Markdown file). Absolute `http(s):` and `mailto:` links are not fetched:
 * `npm test` has no network, and a dead website is not this repository's bug.
 * Code (fenced blocks and inline spans) holds no links.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Every Markdown file git would commit: tracked, or new and not ignored (node_modules, .work, reports … are ignored). */
export function markdownFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'], { cwd: root, encoding: 'utf8' });
  return [...new Set(out.split('\0').filter((path) => path !== '' && existsSync(join(root, path))))].sort();
}

/** The text outside code: fenced blocks blanked line by line (so line numbers hold), inline code spans removed. */
export function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      return '';
    }
    if (marker !== undefined) {
      fence = marker;
      return '';
    }
    return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '');
  });
}

/**
 * The anchor GitHub gives a heading's text (github-slugger): markup dropped, lower case,
 * every character that is not a letter, a digit, a mark, a space, `-` or `_` removed, each
 * space a hyphen.
 */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page: each heading's slug, a repeated one with `-1`, `-2` … as GitHub numbers them, and explicit `<a id>`/`<a name>`. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const raw = text.split('\n');
  proseLines(text).forEach((line, at) => {
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
    // ATX headings; code spans count for the slug, so read the raw line.
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line === '' ? '' : raw[at]!);
    if (heading === null) return;
    const base = githubSlug(heading[1]!.replace(/`/g, ''));
    const times = seen.get(base) ?? 0;
    seen.set(base, times + 1);
    anchors.add(times === 0 ? base : `${base}-${times}`);
  });
  return anchors;
}

export interface Link {
  readonly line: number;
  readonly target: string;
}

/** Inline links and images (`[t](x)`, `![a](x "title")`, `[t](<x y>)`), reference definitions, and HTML `href`/`src`. */
export function linksOf(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((line, at) => {
    const add = (target: string | undefined): void => {
      if (target !== undefined && target !== '') links.push({ line: at + 1, target });
    };
    for (const match of line.matchAll(/\]\(\s*(?:<([^>]*)>|([^\s)]+))(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) add(match[1] ?? match[2]);
    const definition = /^ {0,3}\[[^\]]+\]:\s*(?:<([^>]*)>|(\S+))/.exec(line);
    if (definition !== null) add(definition[1] ?? definition[2]);
    for (const match of line.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)) add(match[1]);
  });
  return links;
}

/** Whether a target leaves the repository's files: a web address, mail, or any other scheme. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** What is wrong with each relative link of `files` (paths relative to `root`), one line each; empty when every one lands. */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (path: string): Set<string> => {
    let anchors = anchorCache.get(path);
    if (anchors === undefined) {
      anchors = anchorsOf(readFileSync(path, 'utf8'));
      anchorCache.set(path, anchors);
    }
    return anchors;
  };
  const problems: string[] = [];
  for (const file of files) {
    const source = join(root, file);
    for (const { line, target } of linksOf(readFileSync(source, 'utf8'))) {
      if (isExternal(target)) continue;
      const hash = target.indexOf('#');
      const pathPart = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const path = pathPart === '' ? source : resolve(pathPart.startsWith('/') ? root : dirname(source), decodeURIComponent(pathPart.replace(/^\//, '')));
      const where = `${file}:${line}: ${target}`;
      if (!existsSync(path)) {
        problems.push(`${where}: no such file (${relative(root, path) || '.'})`);
        continue;
      }
      if (relative(root, path).startsWith(`..${sep}`) || relative(root, path) === '..') {
        problems.push(`${where}: leads out of the repository`);
        continue;
      }
      if (anchor === undefined || anchor === '' || !path.endsWith('.md') || statSync(path).isDirectory()) continue;
      if (!anchorsIn(path).has(anchor)) problems.push(`${where}: ${relative(root, path)} has no heading with the anchor #${anchor}`);
    }
  }
  return problems;
}

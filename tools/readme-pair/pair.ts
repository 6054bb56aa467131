/**
 * README.md and README.zh.md kept in step, recorded the way DSH records its
 * bilingual pairs: README.i18n.yaml holds the git blob hash of each side as of
 * the last time the two were confirmed consistent. An edit to either side
 * changes its hash, and `npm test` (test/package/readme-pair.test.ts) fails
 * until the other side is brought along and the pair re-recorded with
 * `npm run readme:pair -- --write`, which refuses to record a pair whose
 * structure differs.
 *
 * The structure both sides must share, whatever the language: the same
 * headings at the same levels, the same code blocks (commands are not
 * translated), the same figures in each section's prose and tables, the same
 * link targets, and as many links within the page, each to a heading of its
 * own page (a translated heading has a translated anchor).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PAIR = { en: 'README.md', zh: 'README.zh.md', record: 'README.i18n.yaml' } as const;

export const RESYNC = 'npm run readme:pair -- --write';

/** Git's blob hash of a file's bytes (`git hash-object`), as DSH's records hold it. */
export function blobHash(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

export interface PairRecord {
  readonly en: string | undefined;
  readonly zh: string | undefined;
}

/** The two hashes of README.i18n.yaml (`README.md: <hash>`, `README.zh.md: <hash>`). */
export function parseRecord(text: string): PairRecord {
  const value = (name: string): string | undefined => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}:`));
    return line?.slice(name.length + 1).trim() || undefined;
  };
  return { en: value(PAIR.en), zh: value(PAIR.zh) };
}

export function formatRecord(en: string, zh: string): string {
  return [
    '# Bilingual pair record: the git blob hash of each README as of the last time the two were',
    '# confirmed consistent (same sections, commands, figures and links; tools/readme-pair/pair.ts).',
    '# Both languages carry the same content; after editing either side, bring the other along and',
    `# re-record with:  ${RESYNC}`,
    `${PAIR.en}: ${en}`,
    `${PAIR.zh}: ${zh}`,
    '',
  ].join('\n');
}

/** One `#` section of a README: its heading level and the prose under it (code blocks out). */
export interface Section {
  readonly level: number;
  readonly heading: string;
  readonly prose: string;
}

export interface Shape {
  readonly sections: readonly Section[];
  /** Every fenced code block, in order, fences included. */
  readonly code: readonly string[];
  /** Link targets outside the page, in order. */
  readonly links: readonly string[];
  /** Links within the page (`#anchor`), in order. */
  readonly anchors: readonly string[];
}

/** The anchor GitHub gives a heading: lower case, punctuation and symbols dropped, each space a hyphen. */
export function slugOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

const FENCE = /^ *```/;

export function shapeOf(text: string): Shape {
  const sections: { level: number; heading: string; lines: string[] }[] = [{ level: 0, heading: '(top)', lines: [] }];
  const code: string[] = [];
  let block: string[] | null = null;
  for (const line of text.split('\n')) {
    if (block !== null) {
      block.push(line);
      if (FENCE.test(line)) {
        code.push(block.join('\n'));
        block = null;
      }
      continue;
    }
    if (FENCE.test(line)) {
      block = [line];
      continue;
    }
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading !== null) sections.push({ level: heading[1]!.length, heading: heading[2]!, lines: [] });
    else sections.at(-1)!.lines.push(line);
  }
  if (block !== null) code.push(block.join('\n'));
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return {
    sections: sections.map((s) => ({ level: s.level, heading: s.heading, prose: s.lines.join('\n') })),
    code,
    links: targets.filter((t) => !t.startsWith('#')),
    anchors: targets.filter((t) => t.startsWith('#')).map((t) => t.slice(1)),
  };
}

/** The figures a section states: every number in its heading, prose and tables, code spans included, sorted. */
export function figuresOf(prose: string): string[] {
  return [...prose.matchAll(/\d+(?:[.,]\d+)*/g)].map((m) => m[0]).sort();
}

/** How README.zh.md's structure differs from README.md's; empty when the two agree. */
export function structuralDifferences(en: string, zh: string): string[] {
  const a = shapeOf(en);
  const b = shapeOf(zh);
  const out: string[] = [];
  const levels = (shape: Shape): string => shape.sections.map((s) => s.level).join(' ');
  if (levels(a) !== levels(b)) {
    out.push(`the headings differ: ${a.sections.length} in ${PAIR.en}, ${b.sections.length} in ${PAIR.zh} (levels ${levels(a)} / ${levels(b)})`);
  } else {
    a.sections.forEach((section, at) => {
      const theirs = b.sections[at]!;
      const mine = figuresOf(`${section.heading}\n${section.prose}`).join(' ');
      const other = figuresOf(`${theirs.heading}\n${theirs.prose}`).join(' ');
      if (mine !== other) out.push(`section "${section.heading}" / "${theirs.heading}": figures ${mine || '(none)'} in ${PAIR.en}, ${other || '(none)'} in ${PAIR.zh}`);
    });
  }
  if (a.code.length !== b.code.length) out.push(`${a.code.length} code blocks in ${PAIR.en}, ${b.code.length} in ${PAIR.zh}`);
  a.code.forEach((block, at) => {
    if (b.code[at] !== undefined && b.code[at] !== block) out.push(`code block ${at + 1} differs (commands are the same in both languages):\n${block.split('\n').slice(0, 3).join('\n')}`);
  });
  // Each side links the other (the language switch at the top).
  const missing = [...new Set(a.links)].filter((link) => !b.links.includes(link) && link !== PAIR.zh);
  const extra = [...new Set(b.links)].filter((link) => !a.links.includes(link) && link !== PAIR.en);
  if (missing.length > 0) out.push(`links of ${PAIR.en} missing from ${PAIR.zh}: ${missing.join(', ')}`);
  if (extra.length > 0) out.push(`links of ${PAIR.zh} not in ${PAIR.en}: ${extra.join(', ')}`);
  if (a.anchors.length !== b.anchors.length) out.push(`${a.anchors.length} links within the page in ${PAIR.en}, ${b.anchors.length} in ${PAIR.zh}`);
  for (const [name, shape] of [[PAIR.en, a], [PAIR.zh, b]] as const) {
    const slugs = new Set(shape.sections.map((s) => slugOf(s.heading)));
    const dangling = shape.anchors.filter((anchor) => !slugs.has(decodeURIComponent(anchor)));
    if (dangling.length > 0) out.push(`links within ${name} to no heading of it: ${dangling.map((d) => `#${d}`).join(', ')}`);
  }
  return out;
}

export interface PairState {
  readonly record: PairRecord;
  readonly en: string;
  readonly zh: string;
  readonly enText: string;
  readonly zhText: string;
}

export function readPair(root: string): PairState {
  const enBytes = readFileSync(join(root, PAIR.en));
  const zhPath = join(root, PAIR.zh);
  const zhBytes = existsSync(zhPath) ? readFileSync(zhPath) : Buffer.alloc(0);
  const recordPath = join(root, PAIR.record);
  return {
    record: parseRecord(existsSync(recordPath) ? readFileSync(recordPath, 'utf8') : ''),
    en: blobHash(enBytes),
    zh: blobHash(zhBytes),
    enText: enBytes.toString('utf8'),
    zhText: zhBytes.toString('utf8'),
  };
}

/** Why the record no longer stands for the pair, with how to re-sync; empty when it does. */
export function staleness(state: PairState): string[] {
  const out: string[] = [];
  if (state.record.en !== state.en) {
    out.push(
      `${PAIR.en} has changed since ${PAIR.zh} was last synced with it (${PAIR.record} records ${state.record.en ?? 'nothing'}, the file is ${state.en}). ` +
        `Bring ${PAIR.zh} along (the same sections, commands, figures and links, in Chinese), then re-record the pair: ${RESYNC}`,
    );
  }
  if (state.record.zh !== state.zh) {
    out.push(
      `${PAIR.zh} has changed since the pair was recorded (${PAIR.record} records ${state.record.zh ?? 'nothing'}, the file is ${state.zh}). ` +
        `If ${PAIR.en} says the same, re-record the pair: ${RESYNC}; if not, bring ${PAIR.en} along first.`,
    );
  }
  return out;
}

/** `--write`: records the pair as it is, once their structures agree. */
export function writeRecord(root: string): { written: boolean; problems: string[] } {
  const state = readPair(root);
  const problems = structuralDifferences(state.enText, state.zhText);
  if (problems.length > 0) return { written: false, problems };
  writeFileSync(join(root, PAIR.record), formatRecord(state.en, state.zh));
  return { written: true, problems: [] };
}

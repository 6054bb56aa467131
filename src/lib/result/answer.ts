/**
 * A run's answer with what the asking put into it set aside: the package
 * manager's banner (the runner speaking, not the run) and the call's own path
 * spellings quoted back (an error that says which spelling it could not find).
 * `npm test -- t.js` prints `> shop@1.0.0 test` and `> jest t.js` before
 * jest's output, `yarn jest t.js` prints `yarn run v1.22.19`, `$ jest t.js`
 * and `Done in 2.31s.` around it, `npx jest t.js` prints jest's output alone:
 * one answer, three texts. `cat ./a.py` and `cat a.py` both fail with `No
 * such file or directory`, each quoting its own spelling. The stale track's
 * back-to-back run compares answers so, and only between calls it already
 * reads as the same question (tracks/stale.ts): the mask removes the spelling,
 * never which file was asked.
 *
 * The banner is read only where the runner writes it: at the head of the text
 * (npm's and pnpm's `> pkg@version event` and its `> command` lines, yarn's
 * `yarn run vN` and its `$ command` line), and the package manager's own lines
 * after the run (yarn's `Done in`, `error Command failed`, `info Visit`; npm's
 * `npm ERR!`/`npm error`; pnpm's `ELIFECYCLE`) only in a text that opens with
 * its banner. pytest's `>   assert …` lines are no banner: they open no text
 * with a package id.
 */
import { joinedLength, resultBlocks } from '../host/result.js';
import { safeMember } from '../host/member.js';
import { linesDigest } from './digest.js';

/** A text longer than this is not read for its answer (a model's megabyte of output is compared by its digest alone). */
export const ANSWER_READ_LIMIT = 65_536;

/** A result's text, for its answer: `null` past `ANSWER_READ_LIMIT` (a longer text is no evidence; it is compared by its digest alone) or when it cannot be read. */
export function answerText(result: unknown): string | null {
  try {
    const texts = resultBlocks(result, 'all', safeMember, ANSWER_READ_LIMIT + 1);
    return joinedLength(texts) > ANSWER_READ_LIMIT ? null : texts.join('\n');
  } catch {
    return null;
  }
}

/** How many path spellings are masked: a call names a few files. */
const MASKED_PATHS = 8;

/**
 * How many occurrences of one spelling a line is searched for: an error quotes
 * its path once or twice. Unbounded, a line of one letter and a path of that
 * letter repeated make every position a match to compare in full (a 64 KB
 * answer and eight 4 KB paths: 0.6 s in one hook).
 */
const MASKED_PER_LINE = 16;

/** npm's and pnpm's head: `> shop@1.0.0 test`, `> @acme/shop@2.1.0 test /work/shop` (pnpm adds the directory). */
const NPM_HEAD = /^> (?:@[\w.-]+\/)?[\w.-]+@\d[\w.+-]* [\w:.-]+(?: \S.*)?$/;
const YARN_HEAD = /^yarn run v\d+\.\d+\.\d+$/;
/** The package manager's own lines after the run, read only under its banner. */
const MANAGER_LINE = /^(?:Done in \d+(?:\.\d+)?m?s\.|error Command failed with exit code \d+\.|info Visit https:\/\/yarnpkg\.com\/\S* for documentation about this command\.|npm (?:ERR!|error|warn|notice)(?: .*)?|\s*ELIFECYCLE\s.*)$/;

/**
 * go test's line for a package whose passing run it replayed from its cache
 * (`ok  \tacme/db\t(cached)`): `(cached)` stands where the run's time stands
 * (`ok  \tacme/db\t0.02s`), and `-count=1` only turns the cache off; the
 * same passing package either way, so it reads as a time (masked as noise).
 */
const GO_CACHED = /^(ok\s+\S+\s+)\(cached\)/;
const asTimed = (line: string): string => line.replace(GO_CACHED, (_, head: string) => `${head}0s`);

export interface Banner {
  /** The command the banner says the runner ran (`jest t.js`); `null`: none, or one of several lines. */
  readonly command: string | null;
  /** How many of the text's lines the head takes (its leading blank lines and the blank line after it included). */
  readonly lines: number;
}

/** The runner's banner at the head of `lines`; `null` when the text opens with none. */
function bannerOf(lines: readonly string[]): Banner | null {
  let at = 0;
  while (at < lines.length && at < 2 && (lines[at] as string).trim() === '') at += 1;
  const head = lines[at] ?? '';
  const prompt = NPM_HEAD.test(head) ? '> ' : YARN_HEAD.test(head) ? '$ ' : null;
  if (prompt === null) return null;
  const commands: string[] = [];
  for (at += 1; at < lines.length && (lines[at] as string).startsWith(prompt) && commands.length < 8; at += 1) commands.push((lines[at] as string).slice(prompt.length).trim());
  // npm leaves a blank line after its banner.
  if (prompt === '> ' && (lines[at] ?? 'x').trim() === '') at += 1;
  return { command: commands.length === 1 && commands[0] !== '' ? (commands[0] as string) : null, lines: at };
}

/** The runner's banner of a result's text, when it opens with one (`null`: none, or a text past the read limit). */
export function runnerBanner(text: string): Banner | null {
  if (text.length > ANSWER_READ_LIMIT || !(text.startsWith('>') || text.startsWith('\n') || text.startsWith('yarn run v'))) return null;
  return bannerOf(text.slice(0, 4096).split('\n'));
}

/** Whether `code` may be part of a path written in a text (then a path next to it is a longer one, not this). */
function pathCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x2f || code === 0x5c || code === 0x5f || code === 0x2d || code === 0x2e;
}

/** `line` with every whole occurrence of `path` (not part of a longer path) written as one mask. */
function masked(line: string, path: string): string {
  let out = '';
  let from = 0;
  for (let at = line.indexOf(path), seen = 1; at >= 0 && seen <= MASKED_PER_LINE; at = line.indexOf(path, at + 1), seen += 1) {
    const after = at + path.length;
    // A `.` after the path ends a sentence unless a word follows it (`a.py.bak`).
    const next = line.charCodeAt(after);
    const ends = after >= line.length || !pathCode(next) || (next === 0x2e && !pathCode(line.charCodeAt(after + 1)));
    if (at < from || (at > 0 && pathCode(line.charCodeAt(at - 1))) || !ends) continue;
    out += `${line.slice(from, at)}\u0000`;
    from = after;
  }
  return from === 0 ? line : out + line.slice(from);
}

/**
 * The digest of a result's text as an answer (result/digest.ts's lines,
 * noise masked): the runner's banner, its own lines and blank lines aside, each of `paths`
 * (the spellings the call asked for) masked, go test's `(cached)` read as a
 * time; `null` past the read limit, or when nothing is left.
 */
export function answerDigest(text: string, paths: readonly string[]): string | null {
  if (text.length > ANSWER_READ_LIMIT) return null;
  let lines = text.split('\n');
  const banner = runnerBanner(text);
  if (banner !== null) lines = lines.slice(banner.lines).filter((line) => !MANAGER_LINE.test(line.trimEnd()));
  const asked = paths.filter((path) => path.length > 0).slice(0, MASKED_PATHS).sort((a, b) => b.length - a.length);
  if (asked.length > 0) lines = lines.map((line) => asked.reduce(masked, line));
  if (text.includes('(cached)')) lines = lines.map(asTimed);
  // Blank lines say nothing, and the runner spaces its banner with them (npm after it, a last newline or none).
  lines = lines.filter((line) => line.trim() !== '');
  // A banner alone says nothing of what ran (a script that prints nothing): no answer to compare.
  return lines.length === 0 ? null : linesDigest(lines.join('\n'));
}

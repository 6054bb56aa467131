/**
 * The mutation campaign in chunks, and its score. Stryker writes its
 * incremental file only when a run ends, and a run narrowed with `--mutate`
 * writes only the files it mutated; so each chunk gets a file of its own,
 * seeded with the stored results of its files, and its results are merged back
 * into the store after it ends.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const STORE = 'reports/mutation/incremental.json';
const CHUNK_DIR = '.stryker-tmp/chunks';
/** What `npm run mutate` passes to the parity test (docs/mutation.md, "Which tests run"). */
const PARITY_SESSIONS = '300';

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface FileResult {
  mutants: Mutant[];
  [key: string]: unknown;
}
/** The mutation-testing-report-schema document Stryker reads and writes. */
interface Report {
  files: Record<string, FileResult>;
  testFiles?: Record<string, unknown>;
  [key: string]: unknown;
}

function readReport(path: string): Report | null {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Report) : null;
}

function writeReport(path: string, report: Report): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

/** Source lines per chunk: a chunk is about half an hour on two cores, so a stopped campaign loses little. */
const CHUNK_LINES = 600;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/**
 * The campaign's chunks: the files of src/lib in path order (so a folder's
 * files stay together), cut into comma-separated lists of about CHUNK_LINES
 * source lines. Each chunk pays one initial test run (about 1.5 minutes).
 */
export function chunks(root = 'src/lib', limit = CHUNK_LINES): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let lines = 0;
  for (const file of sourceFiles(root)) {
    const size = readFileSync(file, 'utf8').split('\n').length;
    if (current.length > 0 && lines + size > limit) {
      out.push(current.join(','));
      current = [];
      lines = 0;
    }
    current.push(file);
    lines += size;
  }
  if (current.length > 0) out.push(current.join(','));
  return out;
}

/** Whether a report file name falls under a chunk: a comma-separated list of files or globs (`dir/**\/*.ts`, `dir/*.ts`). */
function inChunk(file: string, chunk: string): boolean {
  return chunk.split(',').some((part) => {
    if (part.endsWith('/**/*.ts')) return file.startsWith(part.slice(0, -'**/*.ts'.length)) && file.endsWith('.ts');
    if (part.endsWith('/*.ts')) {
      const dir = part.slice(0, -'*.ts'.length);
      return file.startsWith(dir) && !file.slice(dir.length).includes('/') && file.endsWith('.ts');
    }
    return file === part;
  });
}

/** The stored results of a chunk's files, as a report Stryker can read incrementally. */
function seed(store: Report | null, chunk: string): Report | null {
  if (store === null) return null;
  const files = Object.fromEntries(Object.entries(store.files).filter(([file]) => inChunk(file, chunk)));
  return { ...store, files };
}

/** The store with a chunk's files replaced by its new results (files of the chunk that are gone are dropped). */
export function merge(store: Report | null, chunk: string, result: Report): Report {
  if (store === null) return result;
  const kept = Object.entries(store.files).filter(([file]) => !inChunk(file, chunk));
  return {
    ...result,
    files: Object.fromEntries([...kept, ...Object.entries(result.files)].sort(([a], [b]) => a.localeCompare(b))),
    testFiles: { ...(store.testFiles ?? {}), ...(result.testFiles ?? {}) },
  };
}

export interface Score {
  file: string;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  other: number;
}

/** Killed / (killed + survived), timeouts counted as killed and no-coverage as survived (issue 16). */
export function scoreOf(s: Pick<Score, 'killed' | 'timeout' | 'survived' | 'noCoverage'>): number {
  const detected = s.killed + s.timeout;
  const total = detected + s.survived + s.noCoverage;
  return total === 0 ? 100 : (100 * detected) / total;
}

export function scores(report: Report): Score[] {
  return Object.entries(report.files).map(([file, result]) => {
    const s: Score = { file, killed: 0, timeout: 0, survived: 0, noCoverage: 0, other: 0 };
    for (const mutant of result.mutants) {
      if (mutant.status === 'Killed') s.killed += 1;
      else if (mutant.status === 'Timeout') s.timeout += 1;
      else if (mutant.status === 'Survived') s.survived += 1;
      else if (mutant.status === 'NoCoverage') s.noCoverage += 1;
      else s.other += 1;
    }
    return s;
  });
}

export function scoreTable(report: Report): string {
  const rows = scores(report);
  const total = rows.reduce((t, r) => ({ ...t, killed: t.killed + r.killed, timeout: t.timeout + r.timeout, survived: t.survived + r.survived, noCoverage: t.noCoverage + r.noCoverage, other: t.other + r.other }), {
    file: 'all',
    killed: 0,
    timeout: 0,
    survived: 0,
    noCoverage: 0,
    other: 0,
  });
  const line = (r: Score): string =>
    `${r.file.padEnd(44)} ${scoreOf(r).toFixed(1).padStart(6)} %  killed ${String(r.killed).padStart(5)}  timeout ${String(r.timeout).padStart(3)}  survived ${String(r.survived).padStart(4)}  no coverage ${String(r.noCoverage).padStart(3)}${r.other > 0 ? `  other ${r.other}` : ''}`;
  return [...rows.map(line), line(total)].join('\n');
}

/** Survivors and uncovered mutants, one line each: where, which mutator, what it became. */
export function survivorList(report: Report): string {
  const lines: string[] = [];
  for (const [file, result] of Object.entries(report.files)) {
    for (const m of result.mutants) {
      if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
      lines.push(`${file}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName} ${JSON.stringify(m.replacement ?? '').slice(0, 100)}`);
    }
  }
  return lines.join('\n');
}

/**
 * Stryker's `--mutate` ranges (`file:line:column-line:column`) of the mutants a
 * file's stored results leave standing: after a test is added to an existing
 * file, incremental mode would reuse them (a TAP test is known by its file
 * name, not its content), so they are run again with `--force`.
 */
export function standingRanges(store: Report, file: string, timeouts = false): string[] {
  const result = store.files[file];
  if (result === undefined) return [];
  // Stryker's columns are 0-based where the report's are 1-based.
  return result.mutants
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage' || (timeouts && m.status === 'Timeout'))
    .map((m) => `${file}:${m.location.start.line}:${m.location.start.column - 1}-${m.location.end.line}:${m.location.end.column - 1}`);
}

function runChunk(chunk: string, extra: readonly string[], ranges: readonly string[] = [chunk]): boolean {
  const file = join(CHUNK_DIR, `${chunk.split(',')[0]?.replace(/[^A-Za-z0-9]+/g, '-') ?? 'chunk'}.json`);
  const seeded = seed(readReport(STORE), chunk);
  rmSync(file, { force: true });
  if (seeded !== null) writeReport(file, seeded);
  console.log(`\n== ${chunk.replaceAll(',', ' ')}${ranges.length > 1 || ranges[0] !== chunk ? ` (${ranges.length} standing mutants)` : ''}`);
  const run = spawnSync('npx', ['stryker', 'run', '--mutate', ranges.join(','), '--incrementalFile', file, ...extra], {
    stdio: 'inherit',
    env: { ...process.env, PARITY_SESSIONS: process.env.PARITY_SESSIONS ?? PARITY_SESSIONS },
  });
  const result = readReport(file);
  if (run.status !== 0 || result === null) return false;
  writeReport(STORE, merge(readReport(STORE), chunk, result));
  return true;
}

export async function mutateCli(argv: readonly string[]): Promise<number> {
  let args = argv;
  if (args.includes('--score')) {
    const store = readReport(STORE);
    if (store === null) {
      console.error(`no stored results in ${STORE}; run \`npm run mutate\` first`);
      return 1;
    }
    console.log(scoreTable(store));
    if (args.includes('--survivors')) console.log(`\n${survivorList(store)}`);
    return 0;
  }
  // `--concurrency N` is handed to Stryker (the config's 2 fills both cores; 1 leaves one free).
  const at = args.indexOf('--concurrency');
  const concurrency = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && !/^[1-9]\d*$/.test(concurrency ?? '')) {
    console.error(`--concurrency needs a positive whole number, not ${JSON.stringify(concurrency ?? '')}`);
    return 2;
  }
  args = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const unknown = args.find((a) => a.startsWith('-') && a !== '--force' && a !== '--standing' && a !== '--timeouts');
  if (unknown !== undefined) {
    console.error(`unknown option ${unknown}; usage: npm run mutate [-- <file or glob> …] [--force] [--concurrency N] | --standing [--timeouts] [<file or glob> …] | --score [--survivors]`);
    return 2;
  }
  const given = args.filter((a) => !a.startsWith('-')).map((a) => relative(process.cwd(), a));
  const extra = [...(args.includes('--force') ? ['--force'] : []), ...(concurrency === undefined ? [] : ['--concurrency', concurrency])];
  let ok = true;
  if (args.includes('--standing')) {
    // Run again every stored survivor and uncovered mutant (of the given files, when some are given) in one Stryker run;
    // with --timeouts the timed-out ones too, since a run on a loaded machine can time out a mutant that would survive.
    const store = readReport(STORE);
    const timeouts = args.includes('--timeouts');
    const standing = (file: string): string[] => (store === null ? [] : standingRanges(store, file, timeouts));
    const files = Object.keys(store?.files ?? {}).filter((file) => standing(file).length > 0 && (given.length === 0 || given.some((chunk) => inChunk(file, chunk))));
    const ranges = files.flatMap(standing);
    if (ranges.length > 0) ok = runChunk(files.join(','), ['--force', ...extra.filter((a) => a !== '--force')], ranges);
    const after = readReport(STORE);
    if (after !== null) console.log(`\n${scoreTable(after)}`);
    return ok ? 0 : 1;
  }
  for (const chunk of given.length > 0 ? given : chunks()) {
    const started = performance.now();
    ok = runChunk(chunk, extra) && ok;
    console.log(`== ${chunk.replaceAll(',', ' ')}: ${((performance.now() - started) / 60000).toFixed(1)} min`);
  }
  const store = readReport(STORE);
  if (store !== null) console.log(`\n${scoreTable(store)}`);
  return ok ? 0 : 1;
}

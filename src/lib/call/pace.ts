/**
 * A build or test tool's pace options: how many jobs, threads or workers it
 * runs at once (`make -j 4`, `cargo test --jobs 4`, `ctest --parallel 4`,
 * `cmake --build b -j 4`, `mvn -T 1C`, `./gradlew test --max-workers=4`,
 * `go test -p 4`, `npx jest --maxWorkers=2`), and go test's `-count=1`,
 * which only turns the test cache off. They change how fast a run goes, not
 * which targets or tests it runs, so a run respelled in them is the same
 * run, as a run respelled in its reporting options is (respelled.ts).
 *
 * A pace option's value is a number (a count of jobs, Maven's `1C` a thread
 * per core), read per tool: another program's `-j 4` or `-p 4` may mean
 * anything, and a word the option does not take (`make -j test`: `-j` alone,
 * then the target) stays. `-count` is set aside at 1 only: `-count=3` runs
 * each test three times. A flag alone (`-j4`, `--parallel`, `-T1C`) is set
 * aside already, as any flag alone is; what this adds is the number given as
 * the next word or after `=`.
 *
 * It is a likely reading, not an exact one (a run's output interleaves
 * otherwise at another pace, a test may race): like every reading of
 * respelled.ts, it joins two calls only when they returned the very same
 * result, nothing changed.
 */
import { nameOf, valueOf, type Command } from '../shell/act/syntax.js';

/** A count of jobs. */
const COUNT = /^\d{1,4}$/;
/** A load average (`make -l 2.5`). */
const LOAD = /^\d{1,4}(?:\.\d{1,2})?$/;
/** Maven's threads: a count, or a count per core (`1C`, `0.5C`). */
const THREADS = /^\d{1,4}(?:\.\d{1,2})?C?$/;
/** cargo's jobs: a count, or `default`. */
const JOBS = /^(?:\d{1,4}|default)$/;

/** Per tool, its pace options and the values each takes (given as the next word, or after `=`). */
type Paces = ReadonlyMap<string, RegExp>;

const MAKE: Paces = new Map([['-j', COUNT], ['--jobs', COUNT], ['-l', LOAD], ['--load-average', LOAD]]);
const CARGO: Paces = new Map([['-j', JOBS], ['--jobs', JOBS]]);
const CTEST: Paces = new Map([['-j', COUNT], ['--parallel', COUNT]]);
const MAVEN: Paces = new Map([['-T', THREADS], ['--threads', THREADS]]);
const GRADLE: Paces = new Map([['--max-workers', COUNT]]);
/** go test's: packages at once, parallel tests at once, and the cache turned off (`-count=1`; flags take one dash or two). */
const GO_TEST: Paces = new Map([['-p', COUNT], ['--p', COUNT], ['-parallel', COUNT], ['--parallel', COUNT], ['-count', /^1$/], ['--count', /^1$/]]);

/** jest's and vitest's workers: a count, or a share of the cores (`50%`). */
const WORKERS = /^\d{1,4}%?$/;

const PACES: ReadonlyMap<string, Paces> = new Map([
  ['make', MAKE],
  ['gmake', MAKE],
  ['ninja', new Map([['-j', COUNT], ['-l', LOAD]])],
  ['cargo', CARGO],
  ['ctest', CTEST],
  // `cmake --build build -j 4`, `--parallel 4`: the native build tool's jobs.
  ['cmake', CTEST],
  ['mvn', MAVEN],
  ['mvnw', MAVEN],
  ['./mvnw', MAVEN],
  ['gradle', GRADLE],
  ['gradlew', GRADLE],
  ['./gradlew', GRADLE],
]);

/** The project's node test runners, by their name or through `npx`. */
const NODE_PACES: ReadonlyMap<string, Paces> = new Map([
  ['jest', new Map([['-w', WORKERS], ['--maxWorkers', WORKERS]])],
  ['vitest', new Map([['--maxWorkers', WORKERS], ['--minWorkers', WORKERS]])],
]);

/** The command's pace options (`null`: its program has none we know); go's only on `go test`, a node tool's also by `npx` (front-end.ts writes its front-ends so). */
export function pacesOf(command: Command): Paces | null {
  const name = nameOf(command);
  if (name === 'go') return valueOf(command.words[1]) === 'test' ? GO_TEST : null;
  if (name === 'npx') return NODE_PACES.get(valueOf(command.words[1]) ?? '') ?? null;
  return name === null ? null : (PACES.get(name) ?? NODE_PACES.get(name) ?? null);
}

/** Whether a word is one of `paces` with a value it takes attached (`--jobs=4`, `-count=1`, `--max-workers=2`). */
export function paceAttached(paces: Paces, v: string): boolean {
  const eq = v.indexOf('=');
  const takes = eq > 0 ? paces.get(v.slice(0, eq)) : undefined;
  return takes !== undefined && takes.test(v.slice(eq + 1));
}

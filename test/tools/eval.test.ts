/**
 * `npm run eval`: labelled trajectories and DSH session logs replayed through
 * the built plugin, scored by the corpus's metrics. The sessions here are
 * written for these tests in the corpus's format (the real corpus is
 * third-party data and stays in ../shared).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import { EVAL_USAGE } from '../../tools/eval/cli.js';
import { regressions, type Expected } from '../../tools/eval/check.js';
import { parseLabelled, resultOf } from '../../tools/eval/labelled.js';
import { figuresOf, sessionResult, spread } from '../../tools/eval/metrics.js';
import { replayEpisode } from '../../tools/eval/replay.js';
import { builtPlugin } from '../../tools/eval/systems.js';
import { jsonl, records, REPO, runTool, stuckSteps, tempDir, writeSession, type ToolRun } from './support.js';

interface Line {
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly result: string;
  readonly is_error?: boolean;
  readonly exit_code?: number;
  readonly agent?: string;
}

function trajectory(label: Record<string, unknown>, calls: readonly Line[], group = 'test-group'): string {
  const meta = { meta: { repo: 'this-repo', path: 'x', commit: '0', group, harness: 'test', model: 'none', task: 't', outcome: {}, label } };
  return [JSON.stringify(meta), ...calls.map((call, i) => JSON.stringify({ i, is_error: false, ...call }))].join('\n') + '\n';
}

const find: Line = { tool: 'bash', input: { command: 'find_file "JsonParser"' }, result: 'No matches found for "JsonParser"', exit_code: 0 };
const look = (n: number): Line => ({ tool: 'read', input: { file_path: `src/f${n}.ts` }, result: `file ${n}` });

/** A loop from call 2: fourteen identical finds answered the same. */
const LOOP = trajectory({ class: 'loop', loop_start: 2, kind: 'failing retry (identical)' }, [look(1), look(2), ...Array.from({ length: 14 }, () => find)]);
/** A good run: distinct reads. */
const GOOD = trajectory({ class: 'good' }, Array.from({ length: 8 }, (_, n) => look(n)));

function corpus(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'test-group'));
  writeFileSync(join(dir, 'test-group', 'loop-1.jsonl'), LOOP);
  writeFileSync(join(dir, 'test-group', 'good-1.jsonl'), GOOD);
  writeFileSync(join(dir, 'README.md'), 'not a session');
  return dir;
}

const run = (args: readonly string[]): Promise<ToolRun> => runTool('eval', args);

describe('reading labelled trajectories', () => {
  it('reads the label, names the session <group>/<file>, and numbers the calls', () => {
    const episode = parseLabelled('/c/test-group/loop-1.jsonl', LOOP);
    assert.equal(episode.name, 'test-group/loop-1');
    assert.deepEqual(episode.label, { class: 'loop', loopStart: 2, kind: 'failing retry (identical)' });
    assert.equal(episode.calls, 16);
  });

  it('shapes results by the replay rules: bash carries its exit code in the value and is never isError', () => {
    assert.deepEqual(resultOf({ tool: 'bash', result: 'x', is_error: true, exit_code: 2 }), {
      isError: false,
      content: [{ type: 'text', text: 'x' }],
      value: { kind: 'foreground', exitCode: 2 },
    });
    assert.deepEqual(resultOf({ tool: 'bash', result: '', timed_out: true }).value, { kind: 'foreground', timedOut: true });
    assert.deepEqual(resultOf({ tool: 'edit', result: 'rejected', is_error: true }), { isError: true, content: [{ type: 'text', text: 'rejected' }] });
  });

  it('refuses a file without a label, or a loop without its start, naming the file', () => {
    assert.throws(() => parseLabelled('/c/a.jsonl', '{"meta": {"label": {"class": "stuck"}}}\n'), /\/c\/a\.jsonl: meta\.label\.class must be one of/);
    assert.throws(() => parseLabelled('/c/a.jsonl', '{"meta": {"label": {"class": "loop"}}}\n'), /loop_start must be a call index/);
    assert.throws(() => parseLabelled('/c/a.jsonl', '{"meta": {"label": {"class": "good"}}}\n{"i": 0}\n'), /a\.jsonl:2: a call needs a "tool" name/);
  });
});

describe('the metrics', () => {
  it('a loop is noticed and gated at or after its start, and the distance is counted from its first call', async () => {
    const episode = parseLabelled('/c/test-group/loop-1.jsonl', LOOP);
    const system = { label: 'ours', short: 'ours', role: 'ours', plugin: 'repeat-tool-breaker', apply: await builtPlugin(), config: { onLimit: 'deny', stale: {} }, gates: true } as const;
    const result = sessionResult(episode, await replayEpisode(episode, system));
    // Finds at calls 2..15: the 3rd same result (call 4) is advised, the call after the 4th (call 6) denied.
    assert.equal(result.firstNotice, 4);
    assert.equal(result.firstDenial, 6);
    const figures = figuresOf([result]);
    assert.deepEqual([figures.loopsNoticed, figures.loopsGated, figures.toNotice, figures.toGate], [1, 1, { median: 2, max: 2 }, { median: 4, max: 4 }]);
    assert.equal(figures.loopCallsRun, 4, 'calls 2 to 5 of the loop ran');
  });

  const unstopped = { stoppedAt: undefined, refused: 0, modelChars: 0, resolved: undefined };
  it('a good session counts as noticed or gated anywhere; a loop never gated costs all its calls', () => {
    const figures = figuresOf([
      { session: 'g', class: 'good', loopStart: undefined, calls: 5, firstNotice: 1, firstDenial: undefined, notices: 1, denials: 0, noticeSummary: 'x', denialReason: undefined, ...unstopped },
      { session: 'l', class: 'loop', loopStart: 3, calls: 10, firstNotice: undefined, firstDenial: undefined, notices: 0, denials: 0, noticeSummary: undefined, denialReason: undefined, ...unstopped },
    ]);
    assert.deepEqual([figures.goodNoticed, figures.goodGated, figures.loopsNoticed, figures.loopCallsRun], [1, 0, 0, 7]);
  });

  it('the median of an even count is the mean of the middle two; none is undefined', () => {
    assert.deepEqual(spread([4, 1, 5, 2]), { median: 3, max: 5 });
    assert.equal(spread([]), undefined);
  });
});

describe('npm run eval', () => {
  it('says how many sessions it read, then prints one row per system, ours first, with the loop and the good run counted', async () => {
    const result = await run([corpus(), '--systems', 'ours,0.5.2', '--preset', 'recommended']);
    assert.equal(result.status, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines[0], '2 sessions: 1 loop, 1 good, 0 progress');
    assert.match(lines[2] ?? '', /^ +loops +calls to +good runs +progress$/);
    assert.match(lines[3] ?? '', /^system +noticed +gated +calls run +notice +gate +noticed +gated +gated$/);
    assert.match(lines[5] ?? '', /^this plugin, preset recommended +1\/1 +1\/1 +\d+ +.* 0\/1 +0\/1 +0\/0$/);
    assert.match(lines[6] ?? '', /^0\.5\.2 +1\/1 +1\/1 /);
    assert.match(result.stdout, /calls to notice \/ gate: from the loop's first call to the first notice \/ denial, median\/max/);
  });

  it('the metrics table fits 100 columns, with the three systems of the real corpus', async () => {
    const result = await run([corpus(), '--preset', 'recommended']);
    assert.equal(result.status, 0, result.stderr);
    const widest = Math.max(...result.stdout.split('\n').map((line) => Array.from(line).length));
    assert.ok(widest <= 100, `${widest} columns`);
  });

  it('--help prints the usage without building, and names no path outside the repository', () => {
    const before = statSync(join(REPO, 'dist', 'index.js')).mtimeMs;
    const help = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'tools', 'eval', 'main.ts'), '--help'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.equal(help.stdout, EVAL_USAGE);
    assert.equal(help.stderr, '', 'no build output');
    assert.equal(statSync(join(REPO, 'dist', 'index.js')).mtimeMs, before, 'dist/ untouched');
    assert.doesNotMatch(EVAL_USAGE, /\.\.\/|shared\/corpus/, 'no path outside the repository');
    assert.match(EVAL_USAGE, /test\/host/, 'says where the reminder row comes from');
  });

  it('--sessions adds where each system first noticed and gated, +N from the loop start; --json has it all', async () => {
    const dir = corpus();
    const sessions = await run([dir, '--systems', 'ours', '--preset', 'recommended', '--sessions']);
    assert.match(sessions.stdout, /test-group\/loop-1 +loop +16 +2 +4 \(\+2\) +5 \(\+3\)/);
    const json = JSON.parse((await run([dir, '--systems', 'ours', '--json'])).stdout) as { systems: { figures: { loops: number }; sessions: { firstDenial: unknown }[] }[] };
    assert.equal(json.systems[0]?.figures.loops, 1);
    assert.ok(json.systems[0]?.sessions.some((session) => session.firstDenial === null), 'an absent figure is null, not missing');
  });

  it('--ablate prints the preset and then the preset with each part off', async () => {
    const result = await run([corpus(), '--systems', 'ours', '--preset', 'recommended', '--ablate']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^preset recommended /m);
    assert.match(result.stdout, /^without stale +1\/1 +1\/1 /m, 'without stale the repeat track gates at 12');
    assert.match(result.stdout, /^without editRetry /m);
    assert.equal((await run([corpus(), '--ablate'])).status, 2, 'no preset to ablate is a usage error');
  });

  it('--record writes the figures; --check passes on them and fails, naming the figure, when one is worse', async () => {
    const dir = corpus();
    const expected = join(tempDir(), 'expected.json');
    assert.equal((await run([dir, '--preset', 'recommended', '--record', '--expected', expected])).status, 0);
    const recorded = JSON.parse(readFileSync(expected, 'utf8')) as Expected;
    assert.deepEqual([recorded.loopsGated, recorded.gateMedian, recorded.goodGated], [1, 3, 0]);
    assert.equal((await run([dir, '--preset', 'recommended', '--check', '--expected', expected])).status, 0);
    const worse = await run([dir, '--check', '--expected', expected]);
    assert.equal(worse.status, 1);
    assert.match(worse.stderr, /gateMedian: 11, expected at most 3/);
  });

  it("--record holds the words of the asks, the preset's and the defaults', and the text per gated loop; --check fails when one grows", async () => {
    const dir = corpus();
    const expected = join(tempDir(), 'expected.json');
    const recorded = await run([dir, '--preset', 'recommended', '--record', '--expected', expected, '--field', join(tempDir(), 'none')]);
    assert.equal(recorded.status, 0, recorded.stderr);
    const figures = JSON.parse(readFileSync(expected, 'utf8')) as Expected;
    for (const key of ['askWordsMedian', 'askWordsMax', 'defaultsAskWordsMedian', 'defaultsAskWordsMax', 'modelCharsMedian', 'refusedMax'] as const) {
      assert.ok(typeof figures[key] === 'number' && figures[key] > 0, `${key}: ${figures[key]}`);
    }
    // The preset ends the loop's turn after its third refused call (stopAfter: 3); the good run goes on.
    assert.deepEqual([figures.goodStopped, figures.progressStopped, figures.loopsStopped], [0, 0, 1]);
    writeFileSync(expected, JSON.stringify({ ...figures, defaultsAskWordsMax: 1, modelCharsMedian: 10 }));
    const worse = await run([dir, '--preset', 'recommended', '--check', '--expected', expected, '--field', join(tempDir(), 'none')]);
    assert.equal(worse.status, 1);
    assert.match(worse.stderr, /defaultsAskWordsMax: \d+, expected at most 1/);
    assert.match(worse.stderr, /modelCharsMedian: \d+, expected at most 10/);
    assert.match(worse.stdout, /^this plugin, defaults \+ onLimit ask +\d+\/\d+ /m, 'the defaults asking have a row of the texts table');
  });

  it('reads DSH session logs with a labels file beside trajectories, and counts an unlabelled log nowhere', async () => {
    const dir = tempDir();
    writeSession(dir, 'stuck', jsonl(records(stuckSteps(14))));
    writeSession(dir, 'other', jsonl(records(stuckSteps(3))));
    const labels = join(dir, 'labels.json');
    writeFileSync(labels, JSON.stringify({ stuck: 'stuck' }));
    const result = await run([dir, '--systems', 'ours', '--labels', labels]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /defaults +1\/1 +1\/1 /);
    assert.match(result.stderr, /eval: 1 session carries no label and is counted nowhere/);
    assert.match(result.stdout, /^2 sessions: 1 loop, 0 good, 0 progress, 1 unlabelled$/m);
  });

  it('a bad flag, config or labels file is a usage error, status 2', async () => {
    assert.equal((await run([corpus(), '--warnAt', '5,7'])).status, 2);
    assert.equal((await run([corpus(), '--set', 'onlimit=deny'])).status, 2);
    assert.equal((await run([corpus(), '--systems', 'brake'])).status, 2);
    assert.equal((await run([])).status, 2);
  });
});

describe('regressions', () => {
  const base: Expected = { corpus: 'c', config: {}, loops: 2, good: 3, progress: 0, loopsNoticed: 2, loopsGated: 2, noticeMedian: 2, gateMedian: 4, goodNoticed: 1, goodGated: 0, progressGated: 0 };
  it('better or equal is no regression; each worse figure is one line; another corpus is refused outright', () => {
    assert.deepEqual(regressions({ ...base, loopsGated: 2, gateMedian: 3 }, base), []);
    assert.deepEqual(regressions({ ...base, loopsGated: 1, goodGated: 1 }, base), ['loopsGated: 1, expected at least 2', 'goodGated: 1, expected at most 0']);
    assert.deepEqual(regressions({ ...base, gateMedian: null }, base), ['gateMedian: none, expected at most 4']);
    assert.match(regressions({ ...base, loops: 3 }, base)[0] ?? '', /^the corpus has 3 loops/);
  });
});

describe('tools/eval/expected.json', () => {
  it('meets the acceptance of issue 31 on the development split: every loop noticed, 22 or more gated, median 5 or less, at most 1 good run noticed, nothing gated that was good', () => {
    const expected = JSON.parse(readFileSync(new URL('../../tools/eval/expected.json', import.meta.url), 'utf8')) as Expected;
    assert.deepEqual([expected.loops, expected.good, expected.progress], [23, 82, 1], 'recorded on the 106 sessions of ../shared/corpus/real-dev');
    assert.deepEqual(expected.config, { onLimit: 'deny', preset: 'recommended' });
    assert.equal(expected.loopsNoticed, 23);
    assert.ok(expected.loopsGated >= 22, `${expected.loopsGated} loops gated`);
    assert.ok(expected.gateMedian !== null && expected.gateMedian <= 5, `median ${expected.gateMedian} calls to the gate`);
    assert.equal(expected.goodGated, 0);
    assert.equal(expected.progressGated, 0);
    assert.ok(expected.goodNoticed <= 1, `${expected.goodNoticed} good sessions noticed`);
  });

  // The acceptance of issues 39 and 41: asks of at most 40 words median and 60 at most (met since P16: the
  // bounds below are its figures); at most 8,000 characters median and 20,000 at most per gated loop; at most
  // 3 refused calls median and 5 at most. The model's text and the refused calls are held to the figures
  // recorded with the stop (stopAfter: 3); the other bounds are the figures of 0.7.0, so that a record can
  // only bring them down.
  const ceiling = (value: number | null | undefined, bound: number, what: string): void => {
    assert.ok(typeof value === 'number' && value <= bound, `${what}: ${value}, at most ${bound}`);
  };

  it('holds the texts to no more than P16 gives the operator and 0.7.0 gave the model (issue 39)', () => {
    const expected = JSON.parse(readFileSync(new URL('../../tools/eval/expected.json', import.meta.url), 'utf8')) as Expected;
    ceiling(expected.askWordsMedian, 39, 'words of an ask, median');
    ceiling(expected.askWordsMax, 44, 'words of an ask, at most');
    ceiling(expected.defaultsAskWordsMedian, 38, 'words of an ask with the defaults, median');
    ceiling(expected.defaultsAskWordsMax, 39, 'words of an ask with the defaults, at most');
    ceiling(expected.modelCharsMedian, 2_291, 'characters the model reads per gated loop, median');
    ceiling(expected.modelCharsMax, 7_467, 'characters the model reads per gated loop, at most');
  });

  it('stops no good or progress run, and every loop run but one after at most 3 refused calls median, 5 at most (issue 41)', () => {
    const expected = JSON.parse(readFileSync(new URL('../../tools/eval/expected.json', import.meta.url), 'utf8')) as Expected;
    assert.equal(expected.goodStopped, 0);
    assert.equal(expected.progressStopped, 0);
    ceiling(expected.refusedMedian, 3, 'calls refused per gated loop, median');
    ceiling(expected.refusedMax, 5, 'calls refused per gated loop, at most');
    // The two loop runs that resolved later and are now stopped are named in docs/efficacy.md.
    ceiling(expected.stoppedResolved, 2, 'loop runs stopped that resolved later');
    ceiling(expected.loopsStopped === undefined ? undefined : 23 - expected.loopsStopped, 1, 'loop runs not stopped');
  });

  it('records the field as its users get it, and misses no more of the loops it gates than 0.7.0 did (issue 40)', () => {
    const expected = JSON.parse(readFileSync(new URL('../../tools/eval/expected.json', import.meta.url), 'utf8')) as Expected;
    assert.deepEqual(Object.keys(expected.field ?? {}), ['openhands', 'gemini', 'qwen', 'opencode', 'cline', 'roo']);
    const dominance = expected.dominance;
    assert.ok(dominance !== undefined, 'dominance is recorded');
    assert.equal(dominance.held + dominance.misses, dominance.peerGated);
    assert.equal(dominance.missed.length, dominance.misses, 'every miss is named');
    ceiling(dominance.misses, 13, 'loops gated later than one call after the earliest peer, or never');
  });
});

/**
 * The field in `npm run eval` (issue 40): other agents' loop detectors loaded
 * from beside the repository as rows of their own, dominance (where this plugin
 * gates each loop a peer gates, against the earliest peer), and `--check` over
 * both. The peers here are stubs written for these tests, in the field's shape
 * (a module exporting `apply(ctx, config)`); the real field stays in ../shared.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import type { Expected } from '../../tools/eval/check.js';
import { regressions } from '../../tools/eval/check.js';
import { dominanceOf } from '../../tools/eval/dominance.js';
import type { SystemRun } from '../../tools/eval/evaluate.js';
import { FIELD_DIR, fieldSystems } from '../../tools/eval/field.js';
import { figuresOf, type SessionResult } from '../../tools/eval/metrics.js';
import { REPO, runTool, tempDir, type ToolRun } from './support.js';

/** A peer that denies the `limit`-th identical call in a row and every one after it. */
const PEER = `export function apply(ctx, config = {}) {
  const limit = config.limit ?? 3
  let last = ''
  let count = 0
  ctx.tools.guard((exec) => {
    const key = JSON.stringify([exec.name, exec.arguments])
    count = key === last ? count + 1 : 1
    last = key
    return count >= limit ? 'stub peer: the same call again' : undefined
  })
}
`;

function field(peers: Record<string, string>): string {
  const dir = tempDir();
  // The field's shared wiring exports no apply: it is not a peer.
  writeFileSync(join(dir, 'common.mjs'), 'export const wiring = true\n');
  for (const [file, text] of Object.entries(peers)) writeFileSync(join(dir, file), text);
  return dir;
}

function trajectory(label: Record<string, unknown>, commands: readonly string[]): string {
  const meta = { meta: { group: 'g', outcome: { resolved: false }, label } };
  const lines = commands.map((command, i) => ({ i, tool: 'bash', input: { command }, result: `out of ${command}`, is_error: false, exit_code: 1 }));
  return [meta, ...lines].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

function corpus(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'g'));
  writeFileSync(join(dir, 'g', 'loop.jsonl'), trajectory({ class: 'loop', loop_start: 1 }, ['ls', ...Array.from({ length: 14 }, () => 'make')]));
  writeFileSync(join(dir, 'g', 'good.jsonl'), trajectory({ class: 'good' }, ['ls', 'make', 'make test', 'git diff']));
  return dir;
}

const run = (args: readonly string[]): Promise<ToolRun> => runTool('eval', args);

describe('loading the field', () => {
  it('is looked for beside the repository, never inside it', () => {
    assert.equal(relative(REPO, FIELD_DIR), join('..', 'shared', 'field'));
  });

  it('reads every peer file but the shared wiring: the peers it knows by name and config, any other by its file; variants only when asked', async () => {
    const dir = field({ 'opencode.mjs': PEER, 'cline.mjs': PEER, 'newcomer.mjs': PEER });
    const rows = await fieldSystems({ dir });
    assert.deepEqual(
      rows.map((system) => [system.short, system.role, system.config]),
      [
        ['opencode', 'peer', { mode: 'documented' }],
        ['cline', 'peer', {}],
        ['newcomer', 'peer', {}],
      ],
    );
    const withVariants = await fieldSystems({ dir, variants: true });
    assert.deepEqual(withVariants.slice(3).map((system) => [system.short, system.role, system.config]), [['opencode-shipped', 'variant', { mode: 'shipped' }]]);
    assert.deepEqual(await fieldSystems({ dir: join(dir, 'absent') }), []);
  });
});

describe('dominance', () => {
  const session = (name: string, cls: 'loop' | 'good', firstDenial: number | undefined): SessionResult => ({
    session: name,
    class: cls,
    loopStart: cls === 'loop' ? 10 : undefined,
    calls: 40,
    firstNotice: undefined,
    firstDenial,
    notices: 0,
    denials: firstDenial === undefined ? 0 : 1,
    noticeSummary: undefined,
    denialReason: undefined,
    stoppedAt: undefined,
    refused: 0,
    modelChars: 0,
    resolved: undefined,
  });
  const runOf = (short: string, gates: readonly (number | undefined)[]): SystemRun => {
    const sessions = gates.map((at, index) => session(`s${index}`, index === 4 ? 'good' : 'loop', at));
    return { system: short, short, role: short === 'ours' ? 'ours' : 'peer', gates: true, figures: figuresOf(sessions), sessions };
  };

  it('holds a loop gated no later than one call after the earliest peer; later, or never, is a miss; loops no peer gates and good runs are not counted', () => {
    //                        s0  s1  s2         s3         s4 (good)
    const ours = runOf('ours', [13, 15, undefined, 20, undefined]);
    const a = runOf('a', [12, 13, 14, undefined, 3]);
    const b = runOf('b', [14, 13, undefined, undefined, undefined]);
    const dominance = dominanceOf(ours, [a, b]);
    assert.deepEqual([dominance.peerGated, dominance.held, dominance.misses, dominance.missed], [3, 1, 2, ['s1', 's2']]);
    assert.deepEqual(
      dominance.sessions.map((row) => [row.session, row.earliest, row.peers, row.ours, row.lag, row.miss]),
      [
        ['s0', 12, ['a'], 13, 1, false],
        ['s1', 13, ['a', 'b'], 15, 2, true],
        ['s2', 14, ['a'], undefined, undefined, true],
      ],
    );
  });
});

describe('npm run eval with the field', () => {
  it('prints the field in a table of its own, this plugin first, with the dominance figure; --sessions adds the loop by loop table', async () => {
    // A peer quicker than the preset (the 2nd identical call), so that the loop is a miss.
    const quick = field({ 'roo.mjs': PEER.replace('config.limit ?? 3', 'config.limit ?? 2') });
    const result = await run([corpus(), '--systems', 'ours,field', '--field', quick, '--preset', 'recommended', '--sessions']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^this plugin, preset recommended +1\/1 +1\/1 /m);
    assert.match(result.stdout, /^Roo Code \(the 4th identical call\) +0\/1 +1\/1 +1 +— +1\/1 +0\/1 +0\/1 +0\/0$/m);
    assert.match(result.stdout, /^dominance: of the 1 loop a peer gates, this plugin gates 0 no later than 1 call\nafter the earliest peer; 1 miss \(--sessions names them\)\.$/m);
    assert.match(result.stdout, /^g\/loop +1 +2 \(\+1\) +roo +\d+ \(\+\d+\) +\+\d+ +miss$/m);
    const widest = Math.max(...result.stdout.split('\n').map((line) => Array.from(line).length));
    assert.ok(widest <= 100, `${widest} columns`);
  });

  it('says when the field is not there, and prints the rest', async () => {
    const result = await run([corpus(), '--systems', 'ours,field', '--field', join(tempDir(), 'nothing')]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /the field's rows are left out: .* is not there/);
    assert.doesNotMatch(result.stdout, /dominance/);
  });

  it('--record keeps the field and the dominance; --check holds them: another field is refused, and more misses fail', async () => {
    const dir = corpus();
    const expected = join(tempDir(), 'expected.json');
    const slow = field({ 'roo.mjs': PEER.replace('config.limit ?? 3', 'config.limit ?? 12') });
    assert.equal((await run([dir, '--preset', 'recommended', '--field', slow, '--record', '--expected', expected])).status, 0);
    const recorded = JSON.parse(readFileSync(expected, 'utf8')) as Expected;
    assert.deepEqual(recorded.dominance, { peerGated: 1, held: 1, misses: 0, missed: [] });
    assert.equal(recorded.field?.roo?.loopsGated, 1);
    assert.equal((await run([dir, '--preset', 'recommended', '--field', slow, '--check', '--expected', expected])).status, 0);
    const moved = await run([dir, '--preset', 'recommended', '--field', field({ 'roo.mjs': PEER }), '--check', '--expected', expected]);
    assert.equal(moved.status, 1);
    assert.match(moved.stderr, /the field is not the one expected.json was recorded with/);
    const absent = await run([dir, '--preset', 'recommended', '--field', join(tempDir(), 'none'), '--check', '--expected', expected]);
    assert.equal(absent.status, 0, 'without the field, this plugin is checked alone');
    assert.match(absent.stderr, /the field's rows are left out/);
    const kept = await run([dir, '--preset', 'recommended', '--field', join(tempDir(), 'none'), '--record', '--expected', expected]);
    assert.match(kept.stderr, /the field is not here: its recorded rows and dominance are kept/);
    assert.deepEqual((JSON.parse(readFileSync(expected, 'utf8')) as Expected).dominance, recorded.dominance);
  });

  it('more misses than recorded is a regression, naming the loops newly missed', () => {
    const base = { corpus: 'c', config: {}, loops: 2, good: 0, progress: 0, loopsNoticed: 2, loopsGated: 2, noticeMedian: 1, gateMedian: 2, goodNoticed: 0, goodGated: 0, progressGated: 0 };
    const peer = { loopsNoticed: 0, loopsGated: 2, noticeMedian: null, gateMedian: 2, gateMax: 3, goodNoticed: 0, goodGated: 0, progressGated: 0, loopCallsRun: 4 };
    const expected: Expected = { ...base, field: { p: peer }, dominance: { peerGated: 2, held: 1, misses: 1, missed: ['a'] } };
    assert.deepEqual(regressions({ ...expected, dominance: { peerGated: 2, held: 1, misses: 1, missed: ['b'] } }, expected), []);
    assert.deepEqual(regressions({ ...expected, dominance: { peerGated: 2, held: 0, misses: 2, missed: ['a', 'b'] } }, expected), ['dominance misses: 2, expected at most 1 (newly missed: b)']);
    assert.match(regressions({ ...expected, field: { p: { ...peer, loopsGated: 1 } } }, expected)[0] ?? '', /the field is not the one/);
    assert.deepEqual(regressions({ ...base, field: { p: peer }, dominance: expected.dominance }, base), ['the field was measured, but expected.json records none: --record it']);
  });
});

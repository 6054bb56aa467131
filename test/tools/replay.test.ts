import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ceilingMessage } from '../../src/lib/text/message.js';
import { replaySession, tracksIn, type SessionReport } from '../../tools/lib/replay.js';
import { parseSessionLog } from '../../tools/lib/session-log.js';
import {
  hasZstd,
  jsonl,
  pooledRecords,
  records,
  runTool,
  spawnTool,
  stuckSteps,
  tempDir,
  writeSession,
  zstdFrames,
  type CallStep,
  type Step,
} from './support.js';

function replay(steps: readonly Step[], config: unknown = {}, answer: 'none' | 'approve' | 'decline' = 'none'): Promise<SessionReport> {
  return replaySession(parseSessionLog('/corpus/case/session.jsonl', jsonl(records(steps))), { config, answer });
}

const outcomes = (report: SessionReport): string[] =>
  report.trajectory.map(
    (call) =>
      `${call.call}:${call.outcome}${call.by === undefined ? '' : `/${call.by}`}${call.notices.length > 0 ? `[${call.notices.join('|')}]` : ''}`,
  );

describe('replaying one session', () => {
  it('warns at 7, asks for a summary at 11, asks the operator at 12 and denies after, under the defaults', async () => {
    const report = await replay(stuckSteps(14));
    assert.deepEqual(outcomes(report).slice(5), [
      '6:ran',
      '7:ran[cmd \u201cecho:echo same-output\u201d × 7]',
      '8:ran',
      '9:ran',
      '10:ran',
      '11:ran[cmd \u201cecho:echo same-output\u201d × 11]',
      '12:denied/approval',
      '13:denied/plugin',
      '14:denied/plugin',
    ]);
    assert.deepEqual(report.advisories, { warn: 1, summarize: 1, 'fail-warn': 0 });
    assert.equal(report.asked, 1);
    assert.equal(report.denied, 3);
    assert.deepEqual(report.deniedBy, { plugin: 2, approval: 1 });
    assert.deepEqual(report.gatedBy, { repeat: 3, failure: 0 });
    assert.deepEqual(report.peaks.cmd, { fingerprint: 'cmd:echo:echo same-output', count: 14 });
    assert.deepEqual(report.failureStreaks, {});
  });

  it('lets the gated call run when the operator approves, and stops counting its measures for the turn', async () => {
    const report = await replay(stuckSteps(14), {}, 'approve');
    assert.equal(report.asked, 1);
    assert.equal(report.denied, 0);
    assert.ok(report.trajectory.every((call) => call.outcome === 'ran'), 'every call runs once the operator approves');
  });

  it('denies without asking under onLimit: deny', async () => {
    const report = await replay(stuckSteps(13), { onLimit: 'deny' });
    assert.equal(report.asked, 0);
    assert.deepEqual(outcomes(report).slice(11), ['12:denied/plugin', '13:denied/plugin']);
  });

  it('starts counting afresh after a human message', async () => {
    const report = await replay([...stuckSteps(10), { human: 'try something else' }, ...stuckSteps(10)]);
    assert.equal(report.humanMessages, 1);
    assert.deepEqual(report.advisories, { warn: 2, summarize: 0, 'fail-warn': 0 });
    assert.equal(report.denied, 0);
    assert.equal(report.peaks.cmd?.count, 10);
  });

  it('warns at the third failure in a row, gates at the fifth, and measures the longest failure streak', async () => {
    const failing: Step[] = Array.from({ length: 6 }, (_, at) => ({
      call: 'bash',
      args: { command: 'curl -sS https://api.example.invalid/health', description: `check ${at}` },
      text: 'curl: (6) Could not resolve host: api.example.invalid\n[exit code: 6]',
    }));
    const report = await replay(failing);
    assert.deepEqual(report.advisories, { warn: 0, summarize: 0, 'fail-warn': 1 });
    assert.deepEqual(report.trajectory[2]?.notices, ['host \u201capi.example.invalid\u201d failed x3']);
    assert.deepEqual(outcomes(report).slice(4), ['5:ran', '6:denied/approval']);
    assert.deepEqual(report.gatedBy, { repeat: 0, failure: 1 });
    // The live session ran all six; the mirror measures what the session did.
    assert.equal(report.failureStreaks.host?.count, 6);
  });

  it('borrows the last identical result for a call the replay runs but the live session was refused', async () => {
    const steps: Step[] = [
      ...stuckSteps(3),
      {
        call: 'bash',
        args: { command: 'echo same-output' },
        text: 'Error: REPEAT_TOOL_BLOCKED: this `bash` call was stopped',
        isError: true,
      },
    ];
    const report = await replay(steps);
    assert.equal(report.inferred, 1);
    assert.equal(report.trajectory[3]?.inferred, true);
    assert.deepEqual(report.failureStreaks, {}, 'the borrowed success is not a failure');
  });

  it('reports a call gated by the opt-in sequence track as gated by that track, denied or asked about', async () => {
    const cycle = ['grep -rn TODO src', 'curl -s http://127.0.0.1:9/items', 'cat notes.txt', 'echo checked'];
    const steps: Step[] = Array.from({ length: 20 }, (_, at) => ({
      call: 'bash',
      args: { command: cycle[at % 4]!, description: `step ${at + 1}` },
      text: 'ok\n',
    }));
    const sequence = { length: 4, count: 3, limit: 4 };
    const denied = await replay(steps, { onLimit: 'deny', sequence });
    assert.deepEqual(outcomes(denied).slice(15), [
      '16:ran',
      '17:denied/plugin',
      '18:denied/plugin',
      '19:denied/plugin',
      '20:denied/plugin',
    ]);
    assert.deepEqual(denied.trajectory[16]?.tracks, ['sequence']);
    assert.deepEqual(denied.gatedBy, { repeat: 0, failure: 0, sequence: 4 });
    const asked = await replay(steps, { sequence });
    assert.equal(asked.trajectory[16]?.asked, true);
    assert.deepEqual(asked.trajectory[16]?.tracks, ['sequence'], 'the ask names the cycle');
    assert.ok(asked.denied > 0, 'unattended, the ask is refused');
    assert.equal(asked.gatedBy.sequence, asked.denied);
  });

  it('reports a denial of a spent approval (the opt-in exemption ceiling) as gated by the ceiling, not by a track', async () => {
    const report = await replay(stuckSteps(18), { exemptionCeiling: 2 }, 'approve');
    // 12 is asked about and approved; the allowance covers 2 more calls; then the ceiling denies without asking.
    assert.deepEqual(outcomes(report).slice(11), ['12:ran', '13:ran', '14:ran', '15:denied/plugin', '16:denied/plugin', '17:denied/plugin', '18:denied/plugin']);
    assert.equal(report.asked, 1);
    assert.deepEqual(report.trajectory[14]?.tracks, ['ceiling']);
    assert.deepEqual(report.gatedBy, { repeat: 0, failure: 0, ceiling: 4 });
    const unset = await replay(stuckSteps(18), {}, 'approve');
    assert.deepEqual(unset.gatedBy, { repeat: 0, failure: 0 }, 'no ceiling count when the ceiling is off');
  });

  it('reads every combination of tracks a denial names', () => {
    const by = (tracks: string): string =>
      `REPEAT_TOOL_BLOCKED: bash call not run: repeated 12 times (limit 12). It was stopped before it ran, by the ${tracks} of the loop breaker:`;
    assert.deepEqual(tracksIn(by('repeat track')), ['repeat']);
    assert.deepEqual(tracksIn(by('sequence track')), ['sequence']);
    assert.deepEqual(tracksIn(by('repeat and failure tracks')), ['repeat', 'failure']);
    assert.deepEqual(tracksIn(by('failure and sequence tracks')), ['failure', 'sequence']);
    assert.deepEqual(tracksIn(by('repeat, failure and sequence tracks')), ['repeat', 'failure', 'sequence']);
    // An ask names no track (P16): the gate line the plugin logs for it does (text/log-line.ts).
    const rejected = 'the user rejected tool "bash"';
    assert.deepEqual(tracksIn(rejected, ['gate, asked the operator: bash, sequence: \u201ca \u2192 b\u201d 4/4']), ['sequence']);
    assert.deepEqual(tracksIn(rejected, ['advisory: cmd \u201cx\u201d failed x3', 'gate, asked the operator: bash, failure: cmd \u201cx\u201d 5/5; repeat: exact \u201cx\u201d 12/12']), ['repeat', 'failure']);
    assert.deepEqual(tracksIn(rejected, ['gate, denied: stale, repeat: exact \u201cbash:{"command":"echo; stale: x, failure: y"}\u201d 12/12']), ['repeat'], 'the model\u2019s text and the tool\u2019s name name no track');
    assert.deepEqual(tracksIn(rejected, ['gate, denied at the exemption ceiling: bash, exact \u201cbash:{}\u201d']), ['ceiling']);
    assert.deepEqual(tracksIn(ceilingMessage('bash', ['cmd:echo:echo x'], 2, 'x')), ['ceiling']);
    assert.deepEqual(tracksIn(by('stale and edit-retry tracks')), ['stale', 'edit-retry']);
    assert.deepEqual(tracksIn(by('repeat, stale and timeout tracks')), ['repeat', 'stale', 'timeout']);
  });

  it('counts the denials and advisories of the real-loop tracks when their config turns them on', async () => {
    const stale = await replay(stuckSteps(8), { stale: {}, onLimit: 'deny' });
    assert.ok((stale.gatedBy.stale ?? 0) > 0, JSON.stringify(stale.gatedBy));
    assert.equal(stale.advisories.track, 1, 'the stale advisory at the third same result');
    const off = await replay(stuckSteps(8), { onLimit: 'deny' });
    assert.equal(off.gatedBy.stale, undefined, 'no stale count when the track is off');
    assert.equal(off.advisories.track, undefined, 'nor a track advisory count');
  });
});

describe('replaying steps of several calls in DSH’s commit order', () => {
  const read: CallStep = { call: 'read', args: { file_path: 'logs/build.log' }, text: 'step 3/5 test: running\n' };
  /** One read, then steps of three identical reads: the gate (12) falls inside the fifth step. */
  const pooledReads = (steps: number): (readonly CallStep[])[] => [[read], ...Array.from({ length: steps }, () => [read, read, read])];
  const replayPooled = (steps: Parameters<typeof pooledRecords>[0], config: unknown = {}): Promise<SessionReport> =>
    replaySession(parseSessionLog('/corpus/pool/session.jsonl', jsonl(pooledRecords(steps))), { config, answer: 'none' });

  it('gates every call of a pool before the first of them settles: an ask inside a pool is answered before the next call is judged (P8)', async () => {
    const report = await replayPooled(pooledReads(5));
    assert.deepEqual(outcomes(report).slice(9), [
      '10:ran',
      '11:ran[exact \u201cread:{"file_path":"logs/build.log"}\u201d × 11]',
      // Call 12's refusal settles only after call 11's body, but call 13's policy already knows it was not approved.
      '12:denied/approval',
      '13:denied/plugin',
      '14:denied/plugin',
      '15:denied/plugin',
      '16:denied/plugin',
    ]);
    assert.equal(report.asked, 1);
  });

  it('settles one call at a time when each call is its own step', async () => {
    const report = await replayPooled(pooledReads(5).flat().map((call) => [call]));
    assert.deepEqual(outcomes(report).slice(11, 13), ['12:denied/approval', '13:denied/plugin']);
    assert.equal(report.asked, 1);
  });

  it('settles a refused call at once when every call before it in the step has settled', async () => {
    // Under deny the refusal is the guard's own: the pool's verdicts match one-at-a-time ones.
    const pooled = await replayPooled(pooledReads(5), { onLimit: 'deny' });
    const single = await replayPooled(pooledReads(5).flat().map((call) => [call]), { onLimit: 'deny' });
    assert.deepEqual(outcomes(pooled), outcomes(single));
    assert.deepEqual(outcomes(pooled).slice(11), ['12:denied/plugin', '13:denied/plugin', '14:denied/plugin', '15:denied/plugin', '16:denied/plugin']);
  });

  it('passes over calls DSH skipped after a stop: no hook sees them, the report says skipped', async () => {
    const skipped: CallStep = {
      ...read,
      text: 'Error: tool call aborted before dispatch',
      isError: true,
      error: { name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH' },
    };
    const stopped: CallStep = { call: 'bash', args: { command: 'sleep 30', description: 'wait' }, text: 'Error: tool call aborted', isError: true };
    // Eleven reads ran; the step stopped would have taken two more past the gate.
    const report = await replayPooled([...pooledReads(3), [read], [stopped, skipped, skipped]]);
    assert.deepEqual(outcomes(report).slice(10), ['11:ran[exact \u201cread:{"file_path":"logs/build.log"}\u201d × 11]', '12:ran', '13:skipped', '14:skipped']);
    assert.equal(report.skipped, 2);
    assert.equal(report.asked, 0);
    assert.equal(report.denied, 0);
    assert.equal(report.calls, 14);
  });
});

describe('replaying streamed calls', () => {
  it('replays a call the model streamed in pieces exactly like one it sent whole', async () => {
    const whole = records(stuckSteps(14));
    // The same log as DSH writes it when the model streams: each call's arguments as a packed run of deltas before its tool/call.
    const streamed = whole.flatMap((record) => {
      if (record.type !== 'tool/call') return [record];
      const data = record.data as { turn: number; step: number; callId: string; name: string; arguments: string };
      const args = data.arguments;
      const cuts = [0, 5, 11, 17, args.length];
      const pieces = cuts.slice(1).map((end, at) => args.slice(cuts[at], end));
      const row = {
        type: 'tool-call-chunks',
        seq0: 1000 + Number(record.seq),
        time0: 1,
        data: { turn: data.turn, step: data.step, index: 0, dt: [0, 0, 0], id: data.callId, name: data.name, args: pieces },
      };
      return [row, record];
    });
    const log = parseSessionLog('/corpus/case/session.jsonl', jsonl(streamed));
    assert.equal(log.records.filter((r) => r.type === 'assistant/chunk').length, 14 * 4, 'the streamed log holds the deltas');
    const report = await replaySession(log, {});
    assert.equal(report.denied, 3);
    assert.deepEqual(report, await replaySession(parseSessionLog('/corpus/case/session.jsonl', jsonl(whole)), {}));
  });
});

describe('npm run replay', () => {
  it(
    'prints one row per session and a total, and an error row for each file it cannot read, without stopping',
    { skip: hasZstd ? false : 'needs zstd' },
    async () => {
      const dir = tempDir();
      writeSession(dir, 'stuck', zstdFrames([jsonl(records(stuckSteps(14)))]), 'session.jsonl.zstd');
      const whole = zstdFrames([jsonl(records(stuckSteps(2))), jsonl(records(stuckSteps(2)).slice(1))]);
      writeSession(dir, 'truncated', whole.subarray(0, whole.length - 3), 'session.jsonl.zstd');
      writeSession(dir, 'not-a-log', jsonl([{ name: 'package', version: '1.0.0' }]));
      writeSession(dir, 'future', jsonl([...records(stuckSteps(1)), { type: 'future/event', seq: 9, time: 1, data: {} }]));
      const run = await runTool('replay', [dir]);
      assert.equal(run.status, 0, run.stderr);
      const lines = run.stdout.trimEnd().split('\n');
      assert.deepEqual(lines[0]?.split(/\s{2,}/), [
        'session',
        'calls',
        'peak',
        'warn',
        'summarize',
        'fail-warn',
        'asked',
        'denied',
        'fail streak',
      ]);
      assert.match(lines[1] ?? '', /^-+( +-+){8}$/);
      const rows = new Map(lines.slice(2, 6).map((line) => [line.split(/\s+/)[0], line.split(/\s{2,}/).slice(1)]));
      assert.deepEqual(rows.get('future'), ['error', '-', '-', '-', '-', '-', '-', '-']);
      assert.deepEqual(rows.get('not-a-log'), ['error', '-', '-', '-', '-', '-', '-', '-']);
      assert.deepEqual(rows.get('stuck'), ['14', 'cmd 14', '1', '1', '0', '1', '3', '-']);
      assert.deepEqual(rows.get('truncated'), ['error', '-', '-', '-', '-', '-', '-', '-']);
      assert.deepEqual(lines[6]?.split(/\s{2,}/), ['total (1 session)', '14', '1', '1', '0', '1', '3']);
      assert.equal(lines[7], '3 of 4 files could not be replayed:');
      assert.match(run.stdout, /future[/\\]session\.jsonl: unknown record type "future\/event"/);
      assert.match(run.stdout, /not-a-log[/\\]session\.jsonl: not a DSH session log/);
      assert.match(run.stdout, /truncated[/\\]session\.jsonl\.zstd: truncated zstd frame 2/);
    },
  );

  it('replays a log with a torn last line, and says so under the table', async () => {
    const dir = tempDir();
    writeSession(dir, 'crashed', `${jsonl(records(stuckSteps(3)))}{"type":"tool/ca`);
    const run = await runTool('replay', [dir]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^crashed +3 /m);
    assert.match(run.stdout, /^1 session replayed with warnings \(skipped records\); --json lists them\.$/m);
  });

  it('exits 1 when no file could be replayed, 2 for a usage error (the entry file, in a child process)', () => {
    const dir = tempDir();
    writeSession(dir, 'junk', 'not json at all\n');
    const failed = spawnTool('replay', [dir]);
    assert.equal(failed.status, 1);
    assert.match(failed.stdout, /^junk +error /m);
    const usage = spawnTool('replay', [dir, '--answer', 'maybe']);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /^replay: --answer must be one of none, approve, decline \(got "maybe"\)\n\nusage: npm run replay/);
  });

  it('--json prints a stable machine shape', async () => {
    const dir = tempDir();
    writeSession(dir, 'stuck', jsonl(records(stuckSteps(12))));
    writeSession(dir, 'junk', 'not json\n');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ onLimit: 'deny' }));
    const run = await runTool('replay', [dir, '--json', '--config', join(dir, 'config.json')]);
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { sessions: Record<string, unknown>[] } & Record<string, unknown>;
    assert.deepEqual(Object.keys(report), ['version', 'config', 'answer', 'totals', 'sessions']);
    assert.deepEqual(report.config, { onLimit: 'deny' });
    assert.deepEqual(report.totals, {
      files: 2,
      failedFiles: 1,
      calls: 12,
      sessionsWarned: 1,
      sessionsGated: 1,
      advisories: 2,
      warn: 1,
      summarize: 1,
      failWarn: 0,
      asked: 0,
      denied: 1,
      inferred: 0,
    });
    const [junk, stuck] = report.sessions;
    assert.deepEqual(Object.keys(junk ?? {}), ['ok', 'session', 'path', 'error']);
    assert.deepEqual(Object.keys(stuck ?? {}), [
      'ok',
      'session',
      'path',
      'calls',
      'humanMessages',
      'peaks',
      'failureStreaks',
      'advisories',
      'asked',
      'denied',
      'deniedBy',
      'gatedBy',
      'inferred',
      'skipped',
      'trajectory',
      'warnings',
    ]);
    assert.deepEqual((stuck?.trajectory as unknown[])[11], {
      call: 12,
      tool: 'bash',
      outcome: 'denied',
      notices: [],
      asked: false,
      tracks: ['repeat'],
      inferred: false,
      by: 'plugin',
    });
  });
});

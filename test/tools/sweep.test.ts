import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseSessionLog } from '../../tools/lib/session-log.js';
import { escapeXml, scatterSvg, ticks } from '../../tools/sweep/svg.js';
import {
  configOf,
  expandGrid,
  parseAxis,
  settingLabel,
  sweep,
  sweepTable,
  type Axis,
  type AxisValue,
  type Label,
  type Setting,
  type SweepRow,
} from '../../tools/lib/sweep.js';
import { RESPELLED_PYTEST } from '../support/respellings.js';
import { jsonl, records, runTool, spawnTool, stuckSteps, tempDir, writeSession, type Step } from './support.js';

/** Five distinct commands, each run once: ordinary work. */
const healthy: Step[] = Array.from({ length: 5 }, (_, at) => ({ call: 'bash', args: { command: `ls dir${at}` }, text: 'a\nb\n' }));

const logs = [
  parseSessionLog('/corpus/healthy/session.jsonl', jsonl(records(healthy))),
  parseSessionLog('/corpus/stuck/session.jsonl', jsonl(records(stuckSteps(14)))),
  parseSessionLog('/corpus/short-loop/session.jsonl', jsonl(records(stuckSteps(8, 'echo other')))),
];
const labels = new Map<string, Label>([
  ['healthy', 'good'],
  ['stuck', 'stuck'],
  ['short-loop', 'stuck'],
]);

/** Checks that every tag opened is closed, in order, and nothing stray sits outside the root. */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  const tags = svg.matchAll(/<(\/?)([a-zA-Z]+)((?:\s+[a-zA-Z:-]+="[^"<]*")*)\s*(\/?)>/g);
  let consumed = 0;
  for (const tag of tags) {
    const [whole, closing, name, , selfClosing] = tag;
    consumed += whole.length;
    if (selfClosing === '/') continue;
    if (closing === '/') assert.equal(stack.pop(), name, `</${name ?? ''}> closes the open tag`);
    else stack.push(name ?? '');
  }
  assert.deepEqual(stack, [], 'every tag is closed');
  const text = svg.replace(/<[^>]*>/g, '');
  assert.doesNotMatch(text, /[<>]|&(?!#\d+;|amp;|lt;|gt;|quot;)/, 'text holds no raw markup characters');
  assert.ok(consumed > 0 && svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), 'the chart is an SVG element with its namespace');
}

describe('the sweep grid', () => {
  it('reads comma lists, with off for a stage or cap turned off', () => {
    assert.deepEqual(parseAxis('warnAt', '5, 7,off'), [5, 7, null]);
    assert.deepEqual(parseAxis('onLimit', 'ask,deny'), ['ask', 'deny']);
    assert.throws(() => parseAxis('cap', '9,many'), /--cap takes numbers or off \(got "many"\)/);
  });

  it('replays every combination, the first axis varying slowest, written in axis order', () => {
    const grid = new Map<Axis, AxisValue[]>([
      ['cap', [9, 12]],
      ['warnAt', [5, 7]],
    ]);
    assert.deepEqual(expandGrid(grid).map(settingLabel), ['warnAt=5 cap=9', 'warnAt=5 cap=12', 'warnAt=7 cap=9', 'warnAt=7 cap=12']);
  });

  it('sets the four action caps with --cap and the host cap with --hostCap, over the base limits', () => {
    const [setting] = expandGrid(
      new Map<Axis, AxisValue[]>([
        ['cap', [9]],
        ['hostCap', [null]],
      ]),
    );
    assert.ok(setting !== undefined, 'the grid expands to one setting');
    assert.deepEqual(configOf({ limits: { 'verb:curl': 30 }, window: 20 }, setting), {
      window: 20,
      limits: { 'verb:curl': 30, exact: 9, cmd: 9, net: 9, sink: 9, host: null },
    });
  });
});

describe('the act axis', () => {
  it('--act sets limits.act over the base limits; off is null', () => {
    const settings = expandGrid(new Map<Axis, AxisValue[]>([['act', parseAxis('act', 'off,12')]]));
    assert.deepEqual(settings.map(settingLabel), ['act=off', 'act=12']);
    assert.deepEqual(configOf({ limits: { host: 24 } }, settings[1] as (typeof settings)[number]), { limits: { host: 24, act: 12 } });
  });

  it('a loop that respells its command on every call is gated only with act on', async () => {
    const respelled: Step[] = RESPELLED_PYTEST.map((command, at) => ({ call: 'bash', args: { command, description: `try ${at + 1}` }, text: '3 passed\n' }));
    const corpus = [parseSessionLog('/corpus/respelled/session.jsonl', jsonl(records(respelled)))];
    const rows = await sweep(corpus, expandGrid(new Map<Axis, AxisValue[]>([['act', [null, 12]]])), { labels: new Map([['respelled', 'stuck']]) });
    assert.deepEqual(
      rows.map((row) => [row.setting, row.sessionsGated, row.stuckCaught]),
      [
        ['act=off', 0, 0],
        ['act=12', 1, 1],
      ],
    );
  });
});

describe('the opt-in settings as sweep axes', () => {
  it('reads --sequence as off, <length>x<count> or <length>x<count>x<limit>, and refuses anything else naming the form', () => {
    assert.deepEqual(parseAxis('sequence', 'off, 4x3,4X3x5'), [null, '4x3', '4x3x5']);
    assert.throws(() => parseAxis('sequence', '4-3'), /--sequence takes off, <length>x<count> or <length>x<count>x<limit>, e\.g\. 4x3 or 4x3x5 \(got "4-3"\)/);
    assert.throws(() => parseAxis('sequence', 'on'), /--sequence takes off/);
  });

  it('reads --progress as ignore, results and/or changes, and --exemptionCeiling as numbers or off', () => {
    assert.deepEqual(parseAxis('progress', 'ignore,results,changes'), ['ignore', 'results', 'changes']);
    assert.throws(() => parseAxis('progress', 'results,on'), /--progress takes ignore, results and\/or changes \(got "on"\)/);
    assert.deepEqual(parseAxis('exemptionCeiling', 'off,5,20'), [null, 5, 20]);
    assert.throws(() => parseAxis('exemptionCeiling', 'few'), /--exemptionCeiling takes numbers or off/);
  });

  it('lays each over the base config as the plugin reads it: sequence as a mapping, off as null', () => {
    const settings = expandGrid(
      new Map<Axis, AxisValue[]>([
        ['sequence', ['4x3x5', null]],
        ['progress', ['results']],
        ['exemptionCeiling', [5]],
      ]),
    );
    assert.deepEqual(settings.map(settingLabel), ['sequence=4x3x5 progress=results exemptionCeiling=5', 'sequence=off progress=results exemptionCeiling=5']);
    assert.deepEqual(configOf({ window: 20 }, settings[0] as Setting), {
      window: 20,
      sequence: { length: 4, count: 3, limit: 5 },
      progress: 'results',
      exemptionCeiling: 5,
    });
    assert.deepEqual(configOf({ sequence: { length: 3 } }, settings[1] as Setting).sequence, null);
    assert.deepEqual(configOf({}, expandGrid(new Map<Axis, AxisValue[]>([['sequence', ['4x3']]]))[0] as Setting).sequence, { length: 4, count: 3, limit: null });
  });

  /** Four commands in turn, five times: no call repeats often enough for the repeat track. */
  const cycle = ['grep -rn TODO src', 'curl -s http://127.0.0.1:9/items', 'cat notes.txt', 'echo checked'];
  const cycling: Step[] = Array.from({ length: 20 }, (_, at) => ({ call: 'bash', args: { command: cycle[at % 4] as string }, text: 'ok\n' }));
  /** One status poll whose result changes every time: progress, not a loop. */
  const polling: Step[] = Array.from({ length: 14 }, (_, at) => ({ call: 'bash', args: { command: 'cat /tmp/job.status' }, text: `progress ${at * 7}%\n` }));
  const optInLogs = [
    parseSessionLog('/corpus/cycling/session.jsonl', jsonl(records(cycling))),
    parseSessionLog('/corpus/polling/session.jsonl', jsonl(records(polling))),
    parseSessionLog('/corpus/stuck/session.jsonl', jsonl(records(stuckSteps(18)))),
  ];
  const counts = (rows: readonly SweepRow[]): unknown[] =>
    rows.map((row) => [row.setting, row.skipped ?? [row.sessionsWarned, row.sessionsGated, row.messagesDelivered, row.callsBlocked]]);

  it('shows what each opt-in track changes: the cycle warned and gated, the poll let through, approvals capped', async () => {
    const grid = new Map<Axis, AxisValue[]>([
      ['sequence', [null, '4x3', '4x3x4']],
      ['progress', ['ignore', 'results']],
      ['exemptionCeiling', [null, 2]],
    ]);
    const rows = await sweep(optInLogs, expandGrid(grid), { answer: 'approve' });
    assert.deepEqual(counts(rows), [
      // warned: polling and stuck (× 7, × 11); gated (asked): polling and stuck; approved, so nothing is blocked.
      ['sequence=off progress=ignore exemptionCeiling=off', [2, 2, 4, 0]],
      // stuck: the approval at call 12 covers 2 more calls; 15–18 are denied.
      ['sequence=off progress=ignore exemptionCeiling=2', [2, 2, 4, 4]],
      // the poll's results differ: it is warned but no longer gated.
      ['sequence=off progress=results exemptionCeiling=off', [2, 1, 4, 0]],
      ['sequence=off progress=results exemptionCeiling=2', [2, 1, 4, 4]],
      // the cycle gets its advisory.
      ['sequence=4x3 progress=ignore exemptionCeiling=off', [3, 2, 5, 0]],
      ['sequence=4x3 progress=ignore exemptionCeiling=2', [3, 2, 5, 4]],
      ['sequence=4x3 progress=results exemptionCeiling=off', [3, 1, 5, 0]],
      ['sequence=4x3 progress=results exemptionCeiling=2', [3, 1, 5, 4]],
      // and with a limit, the gate: asked at call 17 and approved; the ceiling then denies call 20.
      ['sequence=4x3x4 progress=ignore exemptionCeiling=off', [3, 3, 5, 0]],
      ['sequence=4x3x4 progress=ignore exemptionCeiling=2', [3, 3, 5, 5]],
      ['sequence=4x3x4 progress=results exemptionCeiling=off', [3, 2, 5, 0]],
      ['sequence=4x3x4 progress=results exemptionCeiling=2', [3, 2, 5, 5]],
    ]);
  });

  it('skips a sequence the plugin refuses, and a ceiling no approval reaches, with the reason', async () => {
    const grid = new Map<Axis, AxisValue[]>([
      ['sequence', ['4x3x2', '8x3']],
      ['exemptionCeiling', [null, 2]],
    ]);
    const rows = await sweep(optInLogs, expandGrid(grid), { answer: 'none' });
    // The reasons are the plugin's own load errors, naming the key (their wording is the config's business).
    assert.deepEqual(
      rows.map((row) => row.setting),
      ['sequence=4x3x2 exemptionCeiling=off', 'sequence=4x3x2 exemptionCeiling=2', 'sequence=8x3 exemptionCeiling=off', 'sequence=8x3 exemptionCeiling=2'],
    );
    for (const row of rows.slice(0, 2)) assert.match(row.skipped ?? '', /^`sequence\.limit` .*\(got 2\)/);
    for (const row of rows.slice(2)) assert.match(row.skipped ?? '', /^`sequence\.count` × `sequence\.length` is 3 × 8 = 24 calls, more than `window` \(16\)/);
    const ceiling = expandGrid(new Map<Axis, AxisValue[]>([['exemptionCeiling', [null, 2]]]));
    assert.deepEqual(counts(await sweep(optInLogs, ceiling, { answer: 'none' })), [
      ['exemptionCeiling=off', [2, 2, 4, 10]],
      ['exemptionCeiling=2', 'exemptionCeiling with --answer none: no ask is approved, so no exemption is granted; use --answer approve'],
    ]);
    assert.deepEqual(counts(await sweep(optInLogs, ceiling, { answer: 'approve', base: { onLimit: 'deny' } })), [
      ['exemptionCeiling=off', [2, 2, 4, 10]],
      ['exemptionCeiling=2', 'exemptionCeiling with onLimit deny: nothing is asked, so no exemption is granted'],
    ]);
    // A ceiling in the base config is not the grid's business: the rows are replayed.
    const base = await sweep(optInLogs, expandGrid(new Map<Axis, AxisValue[]>([['warnAt', [5]]])), { answer: 'none', base: { exemptionCeiling: 2 } });
    assert.equal(base[0]?.skipped, undefined);
  });
});

describe('sweeping a corpus', () => {
  it('gives one row per setting: sessions warned and gated, messages, calls blocked, good sessions touched and stuck sessions gated', async () => {
    const grid = new Map<Axis, AxisValue[]>([
      ['warnAt', [5, 7]],
      ['summarizeAt', [null]],
      ['cap', [9, 12]],
    ]);
    const rows = await sweep(logs, expandGrid(grid), { labels });
    assert.deepEqual(
      rows.map(({ setting, sessionsWarned, sessionsGated, messagesDelivered, callsBlocked, goodTouched, stuckCaught }) => [
        setting,
        sessionsWarned,
        sessionsGated,
        messagesDelivered,
        callsBlocked,
        goodTouched,
        stuckCaught,
      ]),
      [
        // stuck: 14 identical calls; short-loop: 8; healthy: 5 distinct.
        ['warnAt=5 summarizeAt=off cap=9', 2, 1, 2, 6, 0, 1],
        ['warnAt=5 summarizeAt=off cap=12', 2, 1, 2, 3, 0, 1],
        ['warnAt=7 summarizeAt=off cap=9', 2, 1, 2, 6, 0, 1],
        ['warnAt=7 summarizeAt=off cap=12', 2, 1, 2, 3, 0, 1],
        // short-loop is warned (8 calls) but never reaches a cap: not caught.
      ],
    );
  });

  it('skips a setting whose stages could not fire in order, and one the plugin would refuse, with the reason', async () => {
    const grid = new Map<Axis, AxisValue[]>([
      ['summarizeAt', [11]],
      ['cap', [9, 1]],
    ]);
    const rows = await sweep(logs, expandGrid(grid), { labels });
    assert.deepEqual(
      rows.map((row) => [row.setting, row.skipped]),
      [
        ['summarizeAt=11 cap=9', 'summarizeAt >= cap: the gate comes first, so the summary never fires'],
        [
          'summarizeAt=11 cap=1',
          '`limits.exact` must be a number >= 2, or null to stop counting it (got 1); a cap below 2 would deny the first call',
        ],
      ],
    );
    const table = sweepTable(rows, labels, ['healthy', 'stuck', 'short-loop']);
    assert.match(table, /^summarizeAt=11 cap=9 +skipped +- +- +- +- +-$/m);
    assert.match(table, /^skipped summarizeAt=11 cap=9: summarizeAt >= cap/m);
  });

  it('shows good touched (any advisory or gate) and stuck caught (gated) against the labelled totals', async () => {
    const rows = await sweep(logs, expandGrid(new Map()), { labels });
    const lines = sweepTable(rows, labels, ['healthy', 'stuck', 'short-loop']).split('\n');
    assert.deepEqual(lines[0]?.split(/\s{2,}/), [
      'setting',
      'sessions warned',
      'sessions gated',
      'messages delivered',
      'calls blocked',
      'good touched',
      'stuck caught',
    ]);
    assert.deepEqual(lines[2]?.split(/\s+/), ['base', '2', '1', '3', '3', '0/1', '1/2']);
  });
});

describe('npm run sweep', () => {
  it('exits 2 with the usage for a grid value it cannot read (the entry file, in a child process)', () => {
    const run = spawnTool('sweep', [tempDir(), '--cap', '9,many']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^sweep: --cap takes numbers or off \(got "many"\)\n\nusage: npm run sweep/);
  });
  it('takes the opt-in settings on the command line, one row per combination', async () => {
    const dir = tempDir();
    writeSession(dir, 'stuck', jsonl(records(stuckSteps(18))));
    const run = await runTool('sweep', [
      dir,
      '--sequence',
      'off,4x3x4',
      '--progress',
      'ignore,results',
      '--exemptionCeiling',
      'off,2',
      '--answer',
      'approve',
      '--json',
      '--svg',
      join(dir, 'chart.svg'),
    ]);
    assert.equal(run.status, 0, run.stderr);
    const rows = (JSON.parse(run.stdout) as { rows: SweepRow[] }).rows;
    assert.equal(rows.length, 8);
    assert.deepEqual(rows[7]?.values, { sequence: '4x3x4', progress: 'results', exemptionCeiling: 2 });
    assert.deepEqual(
      rows.map((row) => row.callsBlocked),
      [0, 4, 0, 4, 0, 4, 0, 4],
    );
  });

  it('--preset lays a preset under the grid: the stale track gates a stuck session the defaults let run to the cap', async () => {
    const dir = tempDir();
    writeSession(dir, 'stuck', jsonl(records(stuckSteps(10))));
    const run = async (extra: string[]): Promise<SweepRow[]> => {
      const result = await runTool('sweep', [dir, '--onLimit', 'deny', '--json', '--svg', join(dir, 'chart.svg'), ...extra]);
      assert.equal(result.status, 0, result.stderr);
      return (JSON.parse(result.stdout) as { rows: SweepRow[] }).rows;
    };
    assert.deepEqual((await run([])).map((row) => row.callsBlocked), [0]);
    assert.deepEqual((await run(['--preset', 'recommended'])).map((row) => row.callsBlocked), [7], 'the same echo answered the same way three times back to back (stale.backToBack): calls 4 to 10');
  });

  it('--preset refuses a name it does not know, with the plugin’s message', async () => {
    const result = await runTool('sweep', [tempDir(), '--preset', 'recomended']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /did you mean `recommended`\?/);
  });
});

describe('the sweep chart', () => {
  it('is well-formed SVG with one dot per distinct point and every label escaped', () => {
    const svg = scatterSvg(
      [
        { label: 'warnAt=5 <a&b>', x: 3, y: 2 },
        { label: 'warnAt=7', x: 3, y: 2 },
        { label: 'warnAt=9', x: 10, y: 1 },
      ],
      { title: 'messages vs caught', xLabel: 'messages', yLabel: 'stuck caught', yMax: 2 },
    );
    assertWellFormed(svg);
    assert.equal(svg.match(/<circle /g)?.length, 2);
    assert.ok(svg.includes(escapeXml('warnAt=5 <a&b>')), 'a label with markup characters is shown escaped');
    assert.ok(svg.includes('>warnAt=7</text>'), 'a plain label is shown as it is');
  });

  it('puts round ticks up to at least the largest value', () => {
    assert.deepEqual(ticks(7), [0, 2, 4, 6, 8]);
    assert.deepEqual(ticks(1), [0, 1]);
  });

  it('is written by npm run sweep next to the table (or the --json rows), from the corpus labels.json', async () => {
    const dir = tempDir();
    writeSession(dir, 'healthy', jsonl(records(healthy)));
    writeSession(dir, 'stuck', jsonl(records(stuckSteps(14))));
    writeFileSync(join(dir, 'labels.json'), JSON.stringify({ healthy: 'good', stuck: 'stuck' }));
    const run = await runTool('sweep', [dir, '--warnAt', '5,7', '--svg', join(dir, 'chart.svg')]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      run.stdout
        .trimEnd()
        .split('\n')
        .slice(2)
        .map((line) => line.split(/\s{2,}/)),
      [
        ['warnAt=5', '1', '1', '2', '3', '0/1', '1/1'],
        ['warnAt=7', '1', '1', '2', '3', '0/1', '1/1'],
      ],
    );
    const svg = readFileSync(join(dir, 'chart.svg'), 'utf8');
    assertWellFormed(svg);
    assert.match(svg, />warnAt=5<\/text>/);

    const json = await runTool('sweep', [dir, '--cap', '12,1', '--json', '--svg', join(dir, 'chart.svg')]);
    assert.equal(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { rows: Record<string, unknown>[] } & Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), ['version', 'sessions', 'labels', 'base', 'answer', 'rows']);
    assert.deepEqual(parsed.sessions, ['healthy', 'stuck']);
    assert.deepEqual(parsed.rows[0], {
      setting: 'cap=12',
      values: { cap: 12 },
      sessionsWarned: 1,
      sessionsGated: 1,
      messagesDelivered: 2,
      callsBlocked: 3,
      goodTouched: 0,
      stuckCaught: 1,
    });
    assert.equal(
      parsed.rows[1]?.skipped,
      '`limits.exact` must be a number >= 2, or null to stop counting it (got 1); a cap below 2 would deny the first call',
    );
  });
});

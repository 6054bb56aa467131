/**
 * `npm run sweep -- <corpus dirs or files> --warnAt 5,7,9 --cap 9,12,16 … [--svg file] [--json]`
 *
 * Replays a corpus under every combination of the given settings and prints one
 * row per setting: sessions warned, sessions gated, advisory messages
 * delivered, calls blocked and, with a `labels.json` ({"<session>": "good" |
 * "stuck"}), known-good sessions touched (any advisory or gate) and stuck
 * sessions caught (the gate engaged: a call asked about or denied). Writes an
 * SVG chart of messages delivered against stuck sessions caught.
 *
 * Exit status: 0 on success, 1 when no log could be read, 2 for a usage error.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigFile } from './lib/config-file.js';
import { progressLine } from './lib/progress.js';
import type { Answer } from './lib/replay-host.js';
import { collectLogFiles, readSessionLog, sessionName, type SessionLog } from './lib/session-log.js';
import { scatterSvg } from './lib/svg.js';
import { userPath } from './lib/user-path.js';
import { AXES, expandGrid, parseAxis, parseLabels, sweep, sweepTable, type Axis, type AxisValue, type Label } from './lib/sweep.js';

const USAGE = `usage: npm run sweep -- <corpus directories or session logs> [grid] [options]

grid (comma lists; every combination is replayed; off turns a stage or cap off):
  --window 12,16        --warnAt 5,7,9        --summarizeAt 9,11
  --cap 9,12,16         (limits.exact, cmd, net and sink together)
  --hostCap 12,16       (limits.host)
  --failWarnAt 2,3      --failLimit 4,5,off   --onLimit ask,deny
options:
  --config <file>   base config (.json or YAML, as for replay); the grid is laid over it
  --labels <file>   labels.json ({"<session>": "good" | "stuck"}); default: labels.json
                    in the first corpus directory, when present
  --answer <a>      none (default), approve or decline
  --svg <file>      where the chart goes (default: sweep.svg in the current directory)
  --markdown        print the table as Markdown
  --json            print the rows as JSON
`;

function usage(message: string): never {
  process.stderr.write(`sweep: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function attempt<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    usage((error as Error).message);
  }
}

async function main(): Promise<void> {
  const axisOptions = Object.fromEntries(AXES.map((axis) => [axis, { type: 'string' as const }]));
  const { values, positionals: given } = attempt(() =>
    parseArgs({
      allowPositionals: true,
      options: {
        ...axisOptions,
        config: { type: 'string' },
        labels: { type: 'string' },
        answer: { type: 'string', default: 'none' },
        svg: { type: 'string', default: 'sweep.svg' },
        markdown: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  const flags = values as Record<string, string | boolean | undefined>;
  const positionals = given.map(userPath);
  if (flags.help === true) {
    process.stdout.write(USAGE);
    return;
  }
  const answer = flags.answer as Answer;
  if (!['none', 'approve', 'decline'].includes(answer)) usage(`--answer must be none, approve or decline (got ${JSON.stringify(answer)})`);
  const grid = new Map<Axis, AxisValue[]>();
  for (const axis of AXES) {
    const given = flags[axis];
    if (typeof given === 'string')
      grid.set(
        axis,
        attempt(() => parseAxis(axis, given)),
      );
  }
  const base = typeof flags.config === 'string' ? attempt(() => loadConfigFile(userPath(flags.config as string))) : {};
  if (positionals.length === 0) usage('name a corpus directory or session logs');

  let labelsPath = typeof flags.labels === 'string' ? userPath(flags.labels) : undefined;
  const firstDir = positionals.find((path) => existsSync(path) && statSync(path).isDirectory());
  if (labelsPath === undefined && firstDir !== undefined && existsSync(join(firstDir, 'labels.json')))
    labelsPath = join(firstDir, 'labels.json');
  const labels: Map<string, Label> | undefined =
    labelsPath === undefined ? undefined : attempt(() => parseLabels(readFileSync(labelsPath as string, 'utf8'), labelsPath as string));

  const files = collectLogFiles(positionals);
  const logs: SessionLog[] = [];
  for (const file of files) {
    try {
      logs.push(readSessionLog(file));
    } catch (error) {
      process.stderr.write(`sweep: skipping ${file}: ${(error as Error).message}\n`);
    }
  }
  if (logs.length === 0) {
    process.stderr.write(`sweep: no readable session logs under ${positionals.join(', ')}\n`);
    process.exitCode = 1;
    return;
  }
  const sessions = logs.map((log) => sessionName(log.path));
  const settings = expandGrid(grid);
  const started = process.hrtime.bigint();
  const rows = await sweep(logs, settings, {
    base,
    answer,
    ...(labels === undefined ? {} : { labels }),
    onSetting: progressLine('swept', settings.length),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;

  const replayed = rows.filter((row) => row.skipped === undefined);
  const svgPath = userPath(flags.svg as string);
  const stucks = labels === undefined ? undefined : sessions.filter((session) => labels.get(session) === 'stuck').length;
  writeFileSync(
    svgPath,
    scatterSvg(
      replayed.map((row) => ({
        label: row.setting,
        x: row.messagesDelivered,
        y: labels === undefined ? row.sessionsGated : (row.stuckCaught ?? 0),
      })),
      {
        title: `Sweep over ${logs.length} sessions: advisories delivered vs ${labels === undefined ? 'sessions gated' : 'stuck sessions caught'}`,
        xLabel: 'advisory messages delivered',
        yLabel: labels === undefined ? 'sessions gated' : 'stuck sessions caught',
        ...(stucks === undefined ? {} : { yMax: stucks }),
      },
    ),
  );
  if (flags.json === true) {
    process.stdout.write(
      `${JSON.stringify({ version: 1, sessions, labels: labels === undefined ? null : Object.fromEntries(labels), base, answer, rows }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(`${sweepTable(rows, labels, sessions, flags.markdown === true)}\n`);
  }
  process.stderr.write(`swept ${settings.length} settings over ${logs.length} sessions in ${seconds.toFixed(2)} s; chart: ${svgPath}\n`);
}

await main();

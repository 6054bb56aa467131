/**
 * The body of `npm run sweep` (see tools/sweep/main.ts), callable in process.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../src/lib/config/config.js';
import { asUsage, runCli, UsageError, type Io } from '../lib/cli.js';
import { loadConfigFile } from '../lib/config-file.js';
import { progressLine } from '../lib/progress.js';
import type { Answer } from '../lib/replay-host.js';
import { collectLogFiles, readSessionLog, sessionName, type SessionLog } from '../lib/session-log.js';
import { scatterSvg } from './svg.js';
import { AXES, CONFIG_OPTIONS, expandGrid, parseAxis, parseLabels, sweep, sweepTable, type Axis, type AxisValue } from '../lib/sweep.js';
import { userPath } from '../lib/user-path.js';

export const SWEEP_USAGE = `usage: npm run sweep -- <corpus directories or session logs> [grid] [options]

grid (comma lists; every combination is replayed; off turns a stage or cap off):
  --window 12,16        --warnAt 5,7,9        --summarizeAt 9,11
  --cap 9,12,16         (limits.exact, cmd, net and sink together)
  --hostCap 12,16       (limits.host)
  --act off,12          (limits.act: the opt-in act: measure, off by default)
  --failWarnAt 2,3      --failLimit 4,5,off   --onLimit ask,deny
opt-in features, also grid axes (off and ignore are the plugin's defaults):
  --sequence off,4x3,4x3x5      the sequence track: <length>x<count>[x<limit>]
  --progress ignore,results,changes
                                progress-aware gating (changes: a rerun after a change counts from 1)
  --exemptionCeiling off,5,20   calls an approved exemption allows (with --answer approve)
options:
  --config <file>   base config (.json or YAML, as for replay); the grid is laid over it
  --preset <name>   a preset (recommended) in the base config; the grid's settings override it
  --labels <file>   labels.json ({"<session>": "good" | "stuck"}); default: labels.json
                    in the first corpus directory, when present
  --answer <a>      none (default), approve or decline
  --svg <file>      where the chart goes (default: sweep.svg in the current directory)
  --markdown        print the table as Markdown
  --json            print the rows as JSON
`;

/** `labels.json` in the first corpus directory, when there is one. */
function defaultLabels(paths: readonly string[]): string | undefined {
  const dir = paths.find((path) => existsSync(path) && statSync(path).isDirectory());
  const path = dir === undefined ? undefined : join(dir, 'labels.json');
  return path !== undefined && existsSync(path) ? path : undefined;
}

/** Runs the sweep tool; resolves to its exit status. */
export function sweepCli(args: readonly string[], io: Io): Promise<number> {
  return runCli('sweep', SWEEP_USAGE, io, async () => {
    const { values, positionals: given } = asUsage(() =>
      parseArgs({
        args: [...args],
        allowPositionals: true,
        options: {
          ...CONFIG_OPTIONS,
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
      io.out(SWEEP_USAGE);
      return 0;
    }
    const answer = flags.answer as Answer;
    if (!['none', 'approve', 'decline'].includes(answer))
      throw new UsageError(`--answer must be none, approve or decline (got ${JSON.stringify(answer)})`);
    const grid = new Map<Axis, AxisValue[]>();
    for (const axis of AXES) {
      const list = flags[axis];
      if (typeof list === 'string')
        grid.set(
          axis,
          asUsage(() => parseAxis(axis, list)),
        );
    }
    const fromFile = typeof flags.config === 'string' ? asUsage(() => loadConfigFile(userPath(flags.config as string))) : {};
    const base = typeof flags.preset === 'string' ? { ...fromFile, preset: flags.preset } : fromFile;
    asUsage(() => resolveConfig(base));
    if (positionals.length === 0) throw new UsageError('name a corpus directory or session logs');

    const labelsPath = typeof flags.labels === 'string' ? userPath(flags.labels) : defaultLabels(positionals);
    const labels = labelsPath === undefined ? undefined : asUsage(() => parseLabels(readFileSync(labelsPath, 'utf8'), labelsPath));

    const files = collectLogFiles(positionals);
    const logs: SessionLog[] = [];
    for (const file of files) {
      try {
        logs.push(readSessionLog(file));
      } catch (error) {
        io.err(`sweep: skipping ${file}: ${(error as Error).message}\n`);
      }
    }
    if (logs.length === 0) {
      io.err(`sweep: no readable session logs under ${positionals.join(', ')}\n`);
      return 1;
    }
    const sessions = logs.map((log) => sessionName(log.path));
    const settings = expandGrid(grid);
    const onSetting = io.progress === undefined ? undefined : progressLine('swept', settings.length, io.progress);
    const started = process.hrtime.bigint();
    const rows = await sweep(logs, settings, {
      base,
      answer,
      ...(labels === undefined ? {} : { labels }),
      ...(onSetting === undefined ? {} : { onSetting }),
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
      io.out(
        `${JSON.stringify({ version: 1, sessions, labels: labels === undefined ? null : Object.fromEntries(labels), base, answer, rows }, null, 2)}\n`,
      );
    } else {
      io.out(`${sweepTable(rows, labels, sessions, flags.markdown === true)}\n`);
    }
    io.err(`swept ${settings.length} settings over ${logs.length} sessions in ${seconds.toFixed(2)} s; chart: ${svgPath}\n`);
    return 0;
  });
}

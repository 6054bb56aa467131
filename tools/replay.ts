/**
 * `npm run replay -- <session files or dirs> [--config file.yml] [--answer none|approve|decline] [--json]`
 *
 * Replays recorded DSH session logs through the plugin with a config and
 * reports, per session: calls, the peak count per measure, advisories by stage,
 * calls asked about and denied, the longest failure streak per measure; then
 * totals. A file that cannot be replayed is an error row, never an abort.
 *
 * Exit status: 0 when at least one file was replayed, 1 when every file
 * failed, 2 for a usage error (a bad flag, an unreadable or invalid config, no files).
 */
import { parseArgs } from 'node:util';
import { loadConfigFile } from './lib/config-file.js';
import { jsonReport, replayFiles, summaryTable } from './lib/report.js';
import { collectLogFiles } from './lib/session-log.js';
import { progressLine } from './lib/progress.js';
import type { Answer } from './lib/replay-host.js';
import { userPath } from './lib/user-path.js';

const USAGE = `usage: npm run replay -- <session.jsonl[.zstd] files or directories> [options]

  --config <file>    plugin config: .json, or YAML (maps, lists, scalars); the file may
                     also be a DSH patch overlay holding the repeat-tool-breaker row
  --answer <answer>  how the operator answers an ask: none (default, what headless DSH
                     does: the host denies), approve or decline
  --json             print the machine-readable report instead of the table
`;

const ANSWERS: readonly Answer[] = ['none', 'approve', 'decline'];

function usage(message: string): never {
  process.stderr.write(`replay: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        config: { type: 'string' },
        answer: { type: 'string', default: 'none' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    process.stdout.write(USAGE);
    return;
  }
  const answer = values.answer as Answer;
  if (!ANSWERS.includes(answer)) usage(`--answer must be one of ${ANSWERS.join(', ')} (got ${JSON.stringify(values.answer)})`);
  let config: Record<string, unknown> = {};
  if (values.config !== undefined) {
    try {
      config = loadConfigFile(userPath(values.config));
    } catch (error) {
      usage((error as Error).message);
    }
  }
  if (positionals.length === 0) usage('name at least one session log or directory');
  const files = collectLogFiles(positionals.map(userPath));
  if (files.length === 0) usage(`no session logs (*.jsonl, *.jsonl.zstd) under ${positionals.join(', ')}`);

  const started = process.hrtime.bigint();
  const results = await replayFiles(files, { config, answer, onFile: progressLine('replayed', files.length) });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (values.json === true) process.stdout.write(`${JSON.stringify(jsonReport(results, { config, answer }), null, 2)}\n`);
  else {
    const calls = results.reduce((sum, result) => sum + (result.ok ? result.calls : 0), 0);
    process.stdout.write(`${summaryTable(results)}\n`);
    process.stderr.write(`replayed ${calls} calls from ${files.length} files in ${seconds.toFixed(2)} s\n`);
  }
  if (results.every((result) => !result.ok)) process.exitCode = 1;
}

await main();

/**
 * The body of `npm run replay` (see tools/replay/main.ts), callable in process.
 */
import { parseArgs } from 'node:util';
import { asUsage, runCli, UsageError, type Io } from '../lib/cli.js';
import { loadConfigFile } from '../lib/config-file.js';
import { progressLine } from '../lib/progress.js';
import type { Answer } from '../lib/replay-host.js';
import { jsonReport, replayFiles, summaryTable } from '../lib/report.js';
import { collectLogFiles } from '../lib/session-log.js';
import { userPath } from '../lib/user-path.js';

export const REPLAY_USAGE = `usage: npm run replay -- <session.jsonl[.zstd] files or directories> [options]

  --config <file>    plugin config: .json, or YAML (maps, lists, scalars); the file may
                     also be a DSH patch overlay holding the repeat-tool-breaker row
  --answer <answer>  how the operator answers an ask: none (default, what headless DSH
                     does: the host denies), approve or decline
  --json             print the machine-readable report instead of the table
`;

const ANSWERS: readonly Answer[] = ['none', 'approve', 'decline'];

/** Runs the replay tool; resolves to its exit status. */
export function replayCli(args: readonly string[], io: Io): Promise<number> {
  return runCli('replay', REPLAY_USAGE, io, async () => {
    const { values, positionals } = asUsage(() =>
      parseArgs({
        args: [...args],
        allowPositionals: true,
        options: {
          config: { type: 'string' },
          answer: { type: 'string', default: 'none' },
          json: { type: 'boolean', default: false },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    );
    if (values.help === true) {
      io.out(REPLAY_USAGE);
      return 0;
    }
    const answer = values.answer as Answer;
    if (!ANSWERS.includes(answer))
      throw new UsageError(`--answer must be one of ${ANSWERS.join(', ')} (got ${JSON.stringify(values.answer)})`);
    const config = values.config === undefined ? {} : asUsage(() => loadConfigFile(userPath(values.config as string)));
    if (positionals.length === 0) throw new UsageError('name at least one session log or directory');
    const files = collectLogFiles(positionals.map(userPath));
    if (files.length === 0) throw new UsageError(`no session logs (*.jsonl, *.jsonl.zstd) under ${positionals.join(', ')}`);

    const started = process.hrtime.bigint();
    const onFile = io.progress === undefined ? undefined : progressLine('replayed', files.length, io.progress);
    const results = await replayFiles(files, { config, answer, ...(onFile === undefined ? {} : { onFile }) });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (values.json === true) io.out(`${JSON.stringify(jsonReport(results, { config, answer }), null, 2)}\n`);
    else {
      const calls = results.reduce((sum, result) => sum + (result.ok ? result.calls : 0), 0);
      io.out(`${summaryTable(results)}\n`);
      io.err(`replayed ${calls} calls from ${files.length} files in ${seconds.toFixed(2)} s\n`);
    }
    return results.every((result) => !result.ok) ? 1 : 0;
  });
}

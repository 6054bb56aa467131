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
import { standardIo } from '../lib/cli.js';
import { replayCli } from './cli.js';

process.exitCode = await replayCli(process.argv.slice(2), standardIo);

/**
 * `npm run eval -- <corpus directories or files> [--preset recommended] [--sessions] [--ablate] [--check] [--json]`
 *
 * Exit status: 0 on success, 1 when nothing could be read or `--check` finds a
 * figure worse than tools/eval/expected.json, 2 for a usage error.
 */
import { standardIo } from '../lib/cli.js';
import { evalCli } from './cli.js';

process.exitCode = await evalCli(process.argv.slice(2), standardIo);

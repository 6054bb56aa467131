/**
 * `npm run eval -- <corpus directories or files> [--preset recommended] [--sessions] [--ablate] [--check] [--json]`
 * (`--help` for the rest: the field, the texts and the stop)
 *
 * `--help` prints the usage and nothing else happens; any other run builds the
 * plugin first (`npm run build`, its output on stderr so that `--json` stays
 * JSON), because the eval replays `dist/`.
 *
 * Exit status: 0 on success, 1 when nothing could be read or `--check` finds a
 * figure worse than tools/eval/expected.json, 2 for a usage error.
 */
import { spawnSync } from 'node:child_process';
import { standardIo } from '../lib/cli.js';
import { EVAL_USAGE, evalCli } from './cli.js';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(EVAL_USAGE);
} else {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: ['ignore', process.stderr, process.stderr] });
  process.exitCode = build.status !== 0 ? 1 : await evalCli(args, standardIo);
}

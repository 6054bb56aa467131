/**
 * `npm run mutate [-- <file or glob> …] [--force] [--concurrency N] | --standing [--timeouts] [<file or glob> …] | --score [--survivors]`
 *
 * The mutation campaign over src/lib (docs/mutation.md), run one chunk at a
 * time: the files of src/lib in path order, cut every 600 lines or so.
 * Each chunk is one StrykerJS run with its own incremental file, seeded from
 * and merged back into the local (git-ignored) `reports/mutation/incremental.json`, so a
 * campaign stopped half-way keeps what it finished and a rerun tests only what
 * changed. `--standing` runs every stored survivor again, or those of the
 * given files, in one run (after tests were added, which incremental mode does
 * not always see), with `--timeouts` the timed-out ones too; `--score`
 * only prints the score of the stored results, `--survivors` lists them.
 *
 * Exit status: 0 when every chunk ran, 1 when one failed, 2 for a usage error.
 */
import { mutateCli } from './campaign.js';

process.exitCode = await mutateCli(process.argv.slice(2));

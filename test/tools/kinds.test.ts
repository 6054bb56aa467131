/**
 * The kinds of loop that look busy (issue 31), each as a session of our own in
 * the eval's format (test/fixtures/kinds/), beside its near-miss good twin:
 * `preset: recommended` gates the loop, within a bound of calls from its first
 * call, and leaves the twin alone (no notice, no denial). The sessions were
 * written for these tests; the real corpus stays in ../shared. They replay the
 * sources, so a mutant of a track (npm run mutate) meets them too; the built
 * package meets the real corpus in `npm run eval -- --check`.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readLabelled } from '../../tools/eval/labelled.js';
import { sessionResult, type SessionResult } from '../../tools/eval/metrics.js';
import { replayEpisode } from '../../tools/eval/replay.js';
import { apply } from '../../src/index.js';
import type { ApplyFunction } from '../../tools/lib/replay-host.js';

const KINDS = join(import.meta.dirname, '..', 'fixtures', 'kinds');

/** The plugin's `apply`, on the replay's stand-in for DSH's context (tools/lib/replay.ts hands it over the same way). */
const sources = apply as unknown as ApplyFunction;

/** Each loop, the twin it must not be confused with, and at most how many calls after its start the preset gates it. */
const PAIRS: readonly { kind: string; loop: string; twins: readonly string[]; gateWithin: number; config?: Record<string, unknown> }[] = [
  { kind: '1: an edit after which the check fails the same way', loop: 'same-error-after-edits', twins: ['new-error-after-edits'], gateWithin: 11 },
  { kind: '1: a rewrite after which the checks print what they printed', loop: 'same-answers-after-rewrites', twins: ['answers-move-after-rewrites'], gateWithin: 14 },
  { kind: '2: a value enumerated by hand, the same failure each time', loop: 'password-by-hand', twins: ['test-cases-one-by-one', 'paths-guessed-then-found'], gateWithin: 7 },
  { kind: '3: a long cycle answered the same', loop: 'seven-searches-in-a-cycle', twins: ['seven-searches-each-finding'], gateWithin: 7 },
  { kind: '4: an environment that stopped answering', loop: 'environment-not-answering', twins: ['long-build-to-the-background'], gateWithin: 4 },
  { kind: '5: inline code that keeps timing out', loop: 'inline-training-timing-out', twins: ['inline-snippets-answering'], gateWithin: 10 },
  { kind: '6: a succeeding call whose result is noisy', loop: 'noisy-download-again', twins: ['download-resumed-growing'], gateWithin: 2 },
  { kind: '7: a poll that keeps returning the same output', loop: 'poll-that-does-not-move', twins: ['poll-that-moves'], gateWithin: 4 },
  // Issue 40: the plainest loop gated as the field gates it; progress that looks like a loop left alone.
  { kind: 'issue 40: the very same call answered the same way back to back', loop: 'same-call-same-answer-four-times', twins: ['poll-answer-moving'], gateWithin: 3 },
  { kind: 'issue 40: a build timing out at the same place', loop: 'build-timeouts-same', twins: ['build-timeouts-shrinking'], gateWithin: 6 },
  { kind: 'issue 40: the same action, however spelled, answered the same way back to back', loop: 'no-ops-respelled-back-to-back', twins: ['quiet-commands-each-doing'], gateWithin: 3 },
  { kind: 'issue 40: the same rejected edit re-indented', loop: 'same-edit-reindented', twins: ['edit-reindented-lands'], gateWithin: 3 },
  { kind: 'issue 40: the same install between the same failing test runs', loop: 'test-then-same-install', twins: ['test-then-installs-different'], gateWithin: 6 },
  // Issue 40: respelled or wrapped, read as the command it runs (act:), or a value guessed by hand.
  { kind: '40.1: a passing test run respelled by its verbosity options, the same output', loop: 'verbosity-respelled-same-output', twins: ['verbosity-selecting-other-tests'], gateWithin: 6 },
  { kind: '40.2: a failing test run respelled by quoting (&amp;) or wrapped (set +H, bash -lc, sh -c)', loop: 'failing-run-quoted-and-wrapped', twins: ['wrapped-run-fixed-between'], gateWithin: 5 },
  { kind: '40.3: an environment variable name guessed in front of the same failing run', loop: 'environment-names-guessed', twins: ['environment-read-and-answering'], gateWithin: 6 },
  { kind: '40.4: the same failing run five times, then through tail', loop: 'same-failure-then-tail', twins: ['failure-fixed-then-tail'], gateWithin: 5 },
  { kind: '40.5: a window of one file re-read with its context respelled', loop: 'window-reread-with-context', twins: ['windows-of-different-patterns'], gateWithin: 7 },
  { kind: 'issue 40: a run respelled in its options only (logging, shell options, a shell by its path), the very same result', loop: 'run-respelled-by-options', twins: ['options-that-select-what-runs'], gateWithin: 3 },
  { kind: 'issue 40: a run respelled only in reporting options that take a separate value (dotnet -v q, --verbosity minimal, --logger "console;verbosity=detailed")', loop: 'dotnet-run-respelled-by-verbosity', twins: ['dotnet-runs-selecting-by-value'], gateWithin: 3 },
  { kind: 'issue 40: a failing build-and-test run respelled only in how many jobs it runs at once (make -j 4, -j8, --jobs=4, --jobs 2, -l 2)', loop: 'build-run-respelled-by-jobs', twins: ['build-runs-moving-at-each-pace'], gateWithin: 3 },
  { kind: 'issue 40: a suite under `timeout` killed at the same place each time (exit 124)', loop: 'timeout-killed-at-same-place', twins: ['timeout-killed-further-each-time'], gateWithin: 3 },
  { kind: 'issue 40: a round of calls each answered as the last, one of them stale', loop: 'open-search-round', twins: ['open-search-resolved'], gateWithin: 9 },
  { kind: 'issue 40: one failing run picked by a run option that is an inline-code letter elsewhere (cargo test -p), viewed again and again through tail and head', loop: 'package-failure-then-views', twins: ['package-fixed-then-views'], gateWithin: 3 },
  { kind: 'issue 40: a failing run viewed through PowerShell\'s Select-Object, the view respelled (-Last 30, select -last 40, -First 60)', loop: 'dotnet-failure-viewed-by-select', twins: ['dotnet-fixed-between-views'], gateWithin: 5 },
  { kind: 'issue 40: the same run started through front-ends of one environment (a venv activated or its binary named, python -m, uv run), the very same result', loop: 'venv-run-through-front-ends', twins: ['venv-runs-with-changes-between'], gateWithin: 3 },
  { kind: "issue 40: one file's window read again in a file tool, its path respelled (./, //, /./, the absolute path)", loop: 'file-read-in-new-spellings', twins: ['lookalike-paths-read-between-edits'], gateWithin: 3 },
  { kind: 'issue 40: the same test run started through npm, npx, yarn and pnpm, the same answer under each runner\'s banner', loop: 'vitest-run-through-package-managers', twins: ['vitest-runs-moving-through-package-managers'], gateWithin: 3 },
  { kind: 'issue 40: a missing file asked for again in new spellings, each error quoting the spelling asked', loop: 'missing-file-read-in-new-spellings', twins: ['missing-files-each-another'], gateWithin: 3 },
  { kind: "issue 40: two calls in turn, each answered as the round before (SWE-agent's goto and the same rejected edit, the window unchanged)", loop: 'window-and-rejected-edit-in-turn', twins: ['window-and-edit-until-it-lands'], gateWithin: 6 },
  { kind: 'issue 40: an install of what is there, respelled back to back (pip, pip3, python -m pip, --upgrade), each answered that nothing was to do', loop: 'reinstall-respelled-already-satisfied', twins: ['installs-until-one-lands'], gateWithin: 3 },
  { kind: 'issue 40: a poll respelled by its wait (sleep N &&, sleep N;, none): the same look answered the same way', loop: 'log-polled-through-new-waits', twins: ['log-polled-while-it-grows'], gateWithin: 3 },
  { kind: 'issue 40: the same failing run in new shell plumbing (a cd in front or not, a subshell, >/dev/stdout 2>&1, || true, ; echo "exit=$?", an assignment in front)', loop: 'failing-run-in-new-plumbing', twins: ['plumbing-around-runs-that-move'], gateWithin: 3 },
  { kind: "issue 40: the same failing run in PowerShell's plumbing (Push-Location, Set-Location or sl in front or not, 2>&1, *>&1, ; echo $LASTEXITCODE, ; $LASTEXITCODE)", loop: 'pwsh-run-in-new-plumbing', twins: ['pwsh-runs-in-two-directories'], gateWithin: 3 },
  { kind: "issue 40: SWE-agent's find_file with its directory left out, written as . or ./, or as the repository's path (joined by the answer that names it)", loop: 'search-place-written-out', twins: ['search-places-each-another'], gateWithin: 4 },
  // Issue 40: the same edit sent again, after it landed or after it was rejected, the file unchanged.
  { kind: 'issue 40: the same edits re-applied at drifting ranges, each accepted', loop: 'same-edit-reapplied', twins: ['same-fix-at-several-sites', 'same-block-placed-by-line', 'edit-undone-and-redone', 'file-recreated-after-rm'], gateWithin: 6 },
  { kind: 'issue 40: the same rejected edit resent without reading the file', loop: 'same-rejected-edit-resent', twins: ['rejected-edit-placed-after-reading'], gateWithin: 4 },
  // `timeouts.respelled` is opt-in (docs/efficacy.md: a `python -` script or a test run respelled after one of
  // its runs fit cannot be told from this loop, so the preset leaves it off): the pair is replayed with it on.
  { kind: 'issue 40: a job made to fit, then respelled past its time again', loop: 'encode-respelled-after-it-fit', twins: ['suite-retried-until-cached', 'encode-respelled-until-it-fits'], gateWithin: 6, config: { timeouts: { respelled: 3 } } },
];

async function replay(name: string, config: unknown): Promise<SessionResult> {
  const episode = readLabelled(join(KINDS, `${name}.jsonl`));
  const system = { label: 'ours', short: 'ours', role: 'ours', plugin: 'repeat-tool-breaker', apply: sources, config, gates: true } as const;
  return sessionResult(episode, await replayEpisode(episode, system));
}

const PRESET = { preset: 'recommended', onLimit: 'deny' };

describe('the loops that look busy, and their twins, under preset: recommended', () => {
  for (const { kind, loop, twins, gateWithin, config } of PAIRS) {
    const settings = { ...PRESET, ...config };
    it(`kind ${kind}: ${loop} is gated within ${gateWithin} calls of its start; ${twins.join(' and ')} run untouched`, async () => {
      const caught = await replay(loop, settings);
      assert.notEqual(caught.firstDenial, undefined, `${loop} is gated`);
      assert.ok((caught.firstDenial ?? 0) - (caught.loopStart ?? 0) <= gateWithin, `${loop} gated at call ${caught.firstDenial} (start ${caught.loopStart})`);
      assert.ok((caught.firstNotice ?? Infinity) <= (caught.firstDenial ?? 0), 'an advisory comes first, or with the gate');
      for (const twin of twins) {
        const left = await replay(twin, settings);
        assert.deepEqual([left.notices, left.denials], [0, 0], `${twin}: no notice, no denial (first notice: ${left.noticeSummary})`);
      }
    });
  }

  it('every session under test/fixtures/kinds is one of the pairs', () => {
    const named = new Set(PAIRS.flatMap((pair) => [pair.loop, ...pair.twins]));
    const files = readdirSync(KINDS).filter((file) => file.endsWith('.jsonl')).map((file) => file.slice(0, -'.jsonl'.length));
    assert.deepEqual(files.filter((file) => !named.has(file)), []);
    assert.equal(files.length, named.size);
  });

  it('the defaults stay 0.5.2: a poll whose answer moves is still gated by the repeat cap, a guessed password never', async () => {
    const moving = await replay('poll-that-moves', { onLimit: 'deny' });
    assert.notEqual(moving.firstDenial, undefined, 'the cap of 12 gates identical polls however their answer moves');
    const guessed = await replay('password-by-hand', { onLimit: 'deny' });
    assert.equal(guessed.firstDenial, undefined);
  });
});

// @ts-check
/**
 * StrykerJS over src/lib (`npm run mutate`; docs/mutation.md). The TAP runner
 * runs each test file as its own `node --import tsx` process, so a test file is
 * one "test": coverage is per file (a mutant runs only the files that load it)
 * and a mutant stops at the first file that fails. Files run in the order
 * below, cheapest and most specific first.
 */

/** The files a mutant may run, in this order. */
export const MUTATION_TEST_FILES = [
  // Unit files: about a second each, most of it tsx starting up.
  'test/unit/normalize-examples.test.ts',
  'test/unit/edges-oracle.test.ts',
  'test/unit/reading-edges.test.ts',
  'test/unit/breaker-edges.test.ts',
  'test/unit/normalize-oracle.test.ts',
  'test/unit/tables.test.ts',
  'test/unit/act-tables.test.ts',
  'test/unit/act-args.test.ts',
  'test/unit/act-directory-shells.test.ts',
  'test/unit/act-cat-pipe-assignments.test.ts',
  'test/unit/act-lex.test.ts',
  'test/unit/act-rules-count-paths.test.ts',
  'test/unit/act-rules-streams-views.test.ts',
  'test/unit/act-wrappers-syntax.test.ts',
  // The act: measure's whole-command files, right after its unit files: a rule's mutant only
  // they kill ran every covering file ahead of them first (by the store: 12.3 files per
  // rule mutant with these last, 9.5 here).
  'test/unit/act-rules.test.ts',
  'test/unit/act-measure.test.ts',
  'test/unit/act-corpus.test.ts',
  'test/unit/local-hosts.test.ts',
  'test/unit/url-fast-paths.test.ts',
  'test/unit/url-text-edges.test.ts',
  'test/unit/fingerprints.test.ts',
  'test/unit/failure-classifier.test.ts',
  'test/unit/failure-oracle.test.ts',
  'test/unit/fingerprint-oracle.test.ts',
  'test/unit/canonical-edges.test.ts',
  'test/unit/config.test.ts',
  'test/unit/config-edges.test.ts',
  'test/unit/settings-schema.test.ts',
  'test/unit/window.test.ts',
  'test/unit/occurrence-stages.test.ts',
  'test/unit/gate.test.ts',
  'test/unit/failure-track.test.ts',
  'test/unit/messages.test.ts',
  'test/unit/operator-texts.test.ts',
  'test/unit/notice.test.ts',
  'test/unit/scope.test.ts',
  'test/unit/policy-edges.test.ts',
  'test/unit/plugin-glue.test.ts',
  'test/unit/operator-log.test.ts',
  'test/unit/sequence.test.ts',
  'test/unit/stale.test.ts',
  'test/unit/real-loop-tracks.test.ts',
  'test/unit/outcome-tracks.test.ts',
  'test/unit/persistent-shell.test.ts',
  'test/unit/outcome.test.ts',
  'test/unit/change.test.ts',
  'test/unit/poll-program.test.ts',
  'test/unit/preset-config.test.ts',
  'test/unit/progress.test.ts',
  'test/unit/exemption-ceiling.test.ts',
  'test/unit/duplicate-text.test.ts',
  'test/unit/tracks-edges.test.ts',
  'test/unit/tracks-stages.test.ts',
  'test/unit/opt-in-config.test.ts',
  'test/unit/live-settings.test.ts',
  'test/unit/card-form.test.ts',
  'test/unit/i18n.test.ts',
  'test/unit/plugin-shape.test.ts',
  'test/unit/deviations.test.ts',
  'test/unit/fixture-corpus.test.ts',
  // The tools that run the plugin in-process over recorded sessions.
  'test/tools/config-file.test.ts',
  'test/tools/replay-fidelity.test.ts',
  'test/tools/corpus.test.ts',
  // Parity with the oracle, sized down by PARITY_SESSIONS in `npm run mutate`.
  'test/parity/pools.test.ts',
  'test/parity/pool-order.test.ts',
  'test/parity/parity.test.ts',
];

/** Test files a mutant never runs, and why (test/unit/mutation-config.test.ts keeps this list complete). */
export const NOT_RUN = {
  'test/unit/normalize-linear.test.ts': 'timing ratios: under mutation load they would kill mutants by noise',
  'test/robustness/linear.test.ts': 'timing ratios, as above',
  'test/robustness/memory.test.ts': 'heap probes in child processes: minutes per mutant, and heap size is not what a mutant breaks',
  'test/robustness/hostile.test.ts': 'about 13 s (more, instrumented), and a survivor runs every file that covers it: it alone would add a third to the campaign; a mutant only it would kill survives and is triaged with a unit test',
  'test/robustness/opt-in.test.ts': 'its heap-retention probes fail under instrumentation and a loaded machine (seen in a dry run); its fuzz inputs are those of hostile.test.ts',
  'test/robustness/act.test.ts': 'spawns a heap probe per case; its act: inputs are covered by the act unit files',
  'test/unit/layout.test.ts': 'reads the source files\' imports and function lengths from disk (the instrumented sandbox would fail it for every mutant); no mutant changes the layout',
  'test/parity/oracle.test.ts': 'checks the oracle and the generator, not src/',
  'test/tools/replay.test.ts': 'spawns the replay tool; its in-process cases duplicate replay-fidelity',
  'test/tools/sweep.test.ts': 'spawns the sweep tool; what it tests is the tool, not src/lib',
  'test/tools/demo.test.ts': 'spawns the demo tool',
  'test/tools/session-log.test.ts': 'tools/lib only (log decoding)',
  'test/tools/mock-stream.test.ts': 'the host suite\'s mock model, not src/',
  'test/tools/progress.test.ts': 'tools/lib only (progress line)',
  'test/tools/mutate.test.ts': 'the mutation tool only (tools/mutate/campaign.ts, the campaign\'s bookkeeping)',
  'test/tools/eval.test.ts': 'tests tools/eval against the built dist/, not the mutated sources',
  'test/tools/eval-minimal.test.ts': 'tests tools/eval/minimal.ts and the eval against the built dist/, not the mutated sources',
  'test/tools/kinds.test.ts': 'replays the kinds\' sessions through the built dist/, not the mutated sources (test/unit/outcome-tracks.test.ts pins the same rules on src/)',
  'test/package/pack.test.ts': 'tests the packed build in dist/, not the mutated sources',
  'test/package/client-bundle.test.ts': 'tests the built web client bundle',
  'test/unit/card-store.test.ts': 'tests the card\'s store in client/ (Saved, the open state); the config it reaches through the form is card-form.test.ts\'s to check',
  'test/package/pack-json.test.ts': 'packs a copy of the tree, building it; never imports src/',
  'test/package/readme-commands.test.ts': "reads the README's command blocks, not src/",
  'test/package/readme-pair.test.ts': 'reads README.md, README.zh.md and their record (tools/readme-pair/pair.ts), not src/',
  'test/release/release-check.test.ts': 'tests the release tooling',
  'test/release/built-tag.test.ts': 'tests the release tooling (the release tag)',
  'test/release/workflows.test.ts': 'lints the CI workflows',
  'test/release/mutation-config.test.ts': 'checks this list',
  'test/release/assert-messages.test.ts': 'reads the test files\' source, not src/',
};

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['src/lib/**/*.ts'],
  testRunner: 'tap',
  plugins: ['@stryker-mutator/tap-runner'],
  tap: {
    testFiles: MUTATION_TEST_FILES,
    nodeArgs: ['--import', 'tsx', '--test-reporter=tap', '-r', '{{hookFile}}', '{{testFile}}'],
    forceBail: true,
  },
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  concurrency: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['test/host/node_modules', 'test/host/.work', 'test/web/.work', 'test/web/.artifacts', '.tmp', 'reports', 'dist'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};

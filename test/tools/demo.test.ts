/**
 * `npm run demo` is the first thing a new user runs: what it prints is checked
 * where they read it, on stdout (against the built plugin, which `npm test`
 * builds first).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spawnTool } from './support.js';

describe('npm run demo', () => {
  it('plays the stuck session under the defaults and points to the opt-in act', () => {
    const run = spawnTool('demo', []);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^done: 34 calls, 29 ran, 5 denied, 5 notices, 3 asks\.$/m);
    assert.match(run.stdout, /npm run demo -- --opt-in$/m);
    assert.doesNotMatch(run.stdout, /== A\. Sequence track/, 'the opt-in act is not part of the default demo');
  });

  it('shows each opt-in track once with --opt-in: the cycle, the poll let through, the spent approval, the duplicated context, the respelled loop', () => {
    const run = spawnTool('demo', ['--opt-in']);
    assert.equal(run.status, 0, run.stderr);
    const out = run.stdout;
    const scenes = out.split(/^== /m).slice(1);
    assert.deepEqual(
      scenes.map((text) => text.split('\n')[0]),
      [
        'A. Sequence track',
        'B. Progress-aware gating',
        'C. Exemption ceiling',
        'D. Duplicated context',
        'E. The act: measure: the same action, respelled on every call (limits: { act: 12 })',
      ],
    );
    const [sequence, progress, ceiling, duplicates, act] = scenes as [string, string, string, string, string];
    // Tokens and numbers are pinned here; the wording of the texts is the unit tests' business.
    assert.match(sequence, /^#12 bash npm test -- --grep retry\n {2}ran\n {2}model sees notice \[summary: [^\]\n]*× 3\]\n {4}CONVERGENCE_CHECK:/m);
    assert.match(sequence, /^#17 bash grep -rn "retry" src\/\n {2}denied by the guard.*\n {4}Error: REPEAT_TOOL_BLOCKED: /m);
    assert.match(sequence, /^#18 ran, nothing to report$/m, 'a call that breaks the cycle runs');
    assert.match(progress, /^#12–#13 ran, nothing to report$/m);
    assert.match(progress, /With the default \(progress: ignore\) the same polls stop: #12 is asked about and, unattended, denied; #13 is denied by the guard\./);
    assert.match(ceiling, /^#12 bash npm run build\n {2}operator sees ask:[\s\S]*operator answers: approve\n {2}ran\n#13–#14 ran, nothing to report\n#15 bash npm run build\n {2}denied by the guard.*\n {4}Error: REPEAT_TOOL_BLOCKED: /m);
    assert.match(duplicates, /^step 2: .*nothing added\nstep 3: .*\n {2}model sees notice \[summary: [^\]\n]*× 3[^\]\n]*\]\n {4}DUPLICATED_CONTEXT:/m);
    // act: counts one action across twelve spellings and gates the 12th; cmd: never gets past 2; off, all twelve run.
    assert.match(act, /^#11 .* act 11\/12 {2}cmd [12]\/12 {2}ran$/m);
    assert.match(act, /^#12 .* act 12\/12 {2}cmd [12]\/12 {2}denied$/m);
    assert.doesNotMatch(act, /cmd ([3-9]|1\d)\/12/);
    assert.match(act, /with the defaults \(act: off\): 12 ran, 0 stopped, 0 notices\./);
    assert.ok(out.split('\n').length < 150, `the opt-in act stays short (${out.split('\n').length} lines)`);
  });
});

/**
 * The `act:` measure in the plugin: off (and not computed) unless a cap is
 * set, so the defaults stay the reference's; on, it follows `cmd:`, ranks
 * between `cmd:` and `exact:`, and joins both tracks like any measure: a loop
 * that respells its command on every call is advised about and gated at its
 * cap, its failures are counted across spellings, and the gate's exemptions
 * and refusals apply to it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { fingerprints, isMeasured, limitFor, measureRank } from '../../src/lib/call/fingerprint.js';
import { identityKey } from '../../src/lib/call/identity.js';
import { markAll } from '../../src/lib/call/mark.js';
import { isActionKey } from '../../src/lib/memory/progress.js';
import { RESPELLED_PYTEST, RESPELLED_PYTEST_ACT } from '../support/respellings.js';
import { bash, deniedAt, failing, hitLines, newHost, noticedAt, summaries, type CallOutcome, shown } from '../support/session.js';

const fpsOf = (command: string, config: unknown = {}, name = 'bash'): string[] => fingerprints({ name, args: { command } }, resolveConfig(config)).fps;
const actOfCall = (command: string, config: unknown = { limits: { act: 12 } }): string | undefined => fpsOf(command, config).find((fp) => fp.startsWith('act:'));

/** Calls `n` of the respelled loop, spelling i on call i. */
async function respelledLoop(config: unknown, n: number, answer: 'none' | 'approve' | 'decline' = 'none', body = failing(0, 'ok')): Promise<CallOutcome[]> {
  const host = newHost(config);
  const agent = {};
  const out: CallOutcome[] = [];
  for (let i = 0; i < n; i += 1) {
    out.push(await host.call({ agent, ...bash(RESPELLED_PYTEST[i % RESPELLED_PYTEST.length] as string, { description: `try ${i + 1}` }), answer, body }));
  }
  return out;
}

describe('act: is opt-in', () => {
  test('DEFAULTS lists act with a null cap, so every decision stays the reference’s', () => {
    assert.ok(Object.hasOwn(DEFAULTS.limits, 'act'), 'DEFAULTS.limits lists act');
    assert.equal(DEFAULTS.limits.act, null);
  });

  test('with nothing configured, no call emits act: and the fingerprints are unchanged', () => {
    for (const command of RESPELLED_PYTEST) assert.ok(!fpsOf(command).some((fp) => fp.startsWith('act:')), command);
  });

  test('limits.act, or a full act: key alone, turns it on; null turns it off', () => {
    assert.equal(isMeasured('act', resolveConfig({}).limits), false);
    assert.equal(isMeasured('act', resolveConfig({ limits: { act: null } }).limits), false);
    assert.equal(isMeasured('act', resolveConfig({ limits: { act: 6 } }).limits), true);
    assert.equal(isMeasured('act', resolveConfig({ limits: { 'act:pytest -x tests': 4 } }).limits), true);
    assert.equal(isMeasured('act', resolveConfig({ limits: { 'act:pytest -x tests': null } }).limits), false);
    assert.equal(actOfCall('pytest -x -q tests', { limits: { 'act:pytest -x tests': 4 } }), RESPELLED_PYTEST_ACT);
    assert.equal(limitFor(RESPELLED_PYTEST_ACT, resolveConfig({ limits: { 'act:pytest -x tests': 4 } }).limits), 4);
  });

  test('a bad act cap fails loud at load, naming the key', () => {
    assert.throws(() => resolveConfig({ limits: { act: 1 } }), /`limits\.act` must be a number >= 2/);
  });
});

describe('act: among the fingerprints', () => {
  test('it comes right after cmd:, and only for shell tools', () => {
    const fps = fpsOf('curl -s https://a.com/x -o out.bin', { limits: { act: 12 } });
    const at = fps.findIndex((fp) => fp.startsWith('act:'));
    assert.ok(at > 0 && fps[at - 1]?.startsWith('cmd:'), fps.join('  '));
    assert.equal(fps[at], 'act:curl -s https://a.com/x -o out.bin');
    assert.deepEqual(fingerprints({ name: 'write', args: { command: 'ls' } }, resolveConfig({ limits: { act: 12 } })).fps.filter((fp) => fp.startsWith('act:')), []);
  });

  test('bash and shell read POSIX quoting; pwsh reads PowerShell quoting', () => {
    const on = resolveConfig({ limits: { act: 12 } });
    const act = (name: string, command: string) => fingerprints({ name, args: { command } }, on).fps.find((fp) => fp.startsWith('act:'));
    assert.equal(act('shell', 'cat a\\b'), 'act:cat ab');
    // In PowerShell `cat` is Get-Content's alias (the cmdlets rule); in sh it stays cat.
    assert.equal(act('pwsh', 'cat a\\b'), "act:Get-Content -Path 'a\\b'");
  });

  test('the measure table of docs/how-it-works.md shows the act: the plugin emits for its example command', () => {
    const readme = readFileSync(new URL('../../docs/how-it-works.md', import.meta.url), 'utf8');
    const act = actOfCall('curl -s --max-time 60 https://open-data.canada.ca/x -o /tmp/od.html') as string;
    assert.ok(readme.includes(`| \`${act}\``), act);
  });

  test('a blank command has no act:', () => {
    assert.equal(actOfCall('   '), undefined);
  });

  test('like cmd:, it stays when localHosts: allow relaxes a local call', () => {
    const fps = fpsOf('curl http://127.0.0.1:8080/health', { localHosts: 'allow', limits: { act: 12 } });
    assert.deepEqual(fps.map((fp) => fp.slice(0, fp.indexOf(':'))), ['exact', 'cmd', 'act']);
  });

  test('its tie-break rank sits between cmd: and exact:, and it is an action measure', () => {
    assert.ok(measureRank('cmd:x:x') < measureRank('act:x'), 'act: ranks after cmd:');
    assert.ok(measureRank('act:x') < measureRank('exact:bash:{}'), 'act: ranks before exact:');
    assert.equal(isActionKey('act:x'), true);
  });

  test('a huge command is counted under a bounded identity key and quoted within previewChars', () => {
    const command = `echo ${'x'.repeat(1 << 20)}`;
    const act = actOfCall(command) as string;
    assert.equal(act.length, command.length + 4);
    assert.ok(identityKey(act).length < 200, 'a huge action is counted under a short identity key');
    const [mark] = markAll([act], resolveConfig({ limits: { act: 12 } }));
    assert.ok((mark?.quote.length ?? 0) < 500, 'a huge action is quoted in under 500 characters');
    assert.ok((mark?.label.length ?? 0) <= 96, 'the label of a huge action fits in 96 characters');
  });
});

describe('act: in the occurrence track', () => {
  const cap = 12;

  test(`with limits.act ${cap} and onLimit deny, a loop respelled on every call is denied at call ${cap}, by act: alone`, async () => {
    const outcomes = await respelledLoop({ onLimit: 'deny', limits: { act: cap } }, cap + 1);
    assert.deepEqual(deniedAt(outcomes), [cap, cap + 1]);
    const denial = outcomes[cap - 1]?.denyReason ?? '';
    assert.deepEqual(hitLines(denial), [`- ${RESPELLED_PYTEST_ACT} ${cap}/${cap}`]);
  });

  test('the same loop with the defaults runs every call: no other measure sees a repeat', async () => {
    const outcomes = await respelledLoop({ onLimit: 'deny' }, 20);
    assert.deepEqual(deniedAt(outcomes), []);
    assert.deepEqual(noticedAt(outcomes), []);
  });

  test('advisories fire on act: at warnAt and summarizeAt, quoting the act: fingerprint', async () => {
    const outcomes = await respelledLoop({ limits: { act: cap } }, 11);
    assert.deepEqual(noticedAt(outcomes), [7, 11]);
    assert.deepEqual(summaries(outcomes[6] as CallOutcome), [`${shown(RESPELLED_PYTEST_ACT)} × 7`]);
  });

  test('onLimit ask: unattended, the gate call is refused; approved, the loop goes on for the turn', async () => {
    const refused = await respelledLoop({ limits: { act: cap } }, cap + 2, 'none');
    assert.equal(refused[cap - 1]?.asked, true);
    assert.deepEqual(deniedAt(refused), [cap, cap + 1, cap + 2]);
    const approved = await respelledLoop({ limits: { act: cap } }, cap + 4, 'approve');
    assert.equal(approved.filter((o) => o.asked).length, 1);
    assert.match(approved[cap - 1]?.askReason ?? '', /^Loop breaker: this would be the \d+th run of this command /, 'the question at the cap names the action as "this command" (P16), which DSH\u2019s box shows as it ran');
    assert.deepEqual(deniedAt(approved), []);
  });
});

describe('act: in the failure track', () => {
  test('failures of one action in changing spellings are one streak: warned at 3, gated after 5', async () => {
    const outcomes = await respelledLoop({ onLimit: 'deny', limits: { act: 12 } }, 7, 'none', failing(1, 'FAILED tests/test_api.py::test_login'));
    assert.deepEqual(noticedAt(outcomes), [3]);
    assert.ok(summaries(outcomes[2] as CallOutcome)[0]?.startsWith(`${shown(RESPELLED_PYTEST_ACT)} failed`), 'the failure advisory names the action');
    assert.deepEqual(deniedAt(outcomes), [6, 7]);
    assert.ok((outcomes[5]?.denyReason ?? '').includes(`- ${RESPELLED_PYTEST_ACT} `), 'the denial lists the failing action');
  });

  test('without act:, the same failing loop never builds a streak', async () => {
    const outcomes = await respelledLoop({ onLimit: 'deny' }, 7, 'none', failing(1, 'FAILED'));
    assert.deepEqual(deniedAt(outcomes), []);
  });
});

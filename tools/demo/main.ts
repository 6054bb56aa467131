/**
 * `npm run demo`: one scripted, stuck session against the BUILT plugin
 * (dist/index.js), on the in-process stand-in for the DSH tool pipeline.
 * No DSH and no model needed. Every number comes from DEFAULTS.
 * `npm run demo -- --opt-in` shows the opt-in tracks instead (tools/demo/opt-in.ts).
 */
import plugin, { DEFAULTS } from '../../dist/index.js';
import { fingerprints, limitFor } from '../../src/lib/call/fingerprint.js';
import { FakeHost, bashResult, type Answer, type CallOutcome, type HostResult } from '../../test/support/fake-host.js';
import { optInAct } from './opt-in.js';
import { bold, clip, cyan, describeNotice, dim, firstLine, green, indent, red, scene, textOf, yellow } from './print.js';

interface Step {
  command: string;
  /** Decoy arguments the model keeps changing. */
  description: string;
  timeoutMs: number;
  answer?: Answer;
  body?: (args: unknown) => HostResult;
}

const host = new FakeHost(plugin);
const agent = { id: 'demo-agent' };
/** A mirror of the window, for display only: what each earlier call committed. */
let shadow: string[][] = [];
let callNo = 0;
/** Consecutive failures per fingerprint, mirrored the same way. */
const streaks = new Map<string, number>();

function countOf(fp: string): number {
  return shadow.slice(-DEFAULTS.window).filter((fps) => fps.includes(fp)).length;
}

async function run(step: Step, verbose: boolean): Promise<CallOutcome> {
  callNo += 1;
  const args = { command: step.command, description: step.description, timeoutMs: step.timeoutMs };
  const { fps } = fingerprints({ name: 'bash', args }, DEFAULTS);
  const out = await host.call({ agent, name: 'bash', arguments: args, answer: step.answer ?? 'none', body: step.body });

  const capped = fps.filter((fp) => Number.isFinite(limitFor(fp, DEFAULTS.limits)));
  const uncapped = fps.filter((fp) => !capped.includes(fp));
  const failed = out.ran && (out.result.value as { exitCode?: number } | undefined)?.exitCode !== 0;
  for (const fp of out.ran ? capped : []) {
    if (failed) streaks.set(fp, (streaks.get(fp) ?? 0) + 1);
    else streaks.delete(fp);
  }
  const streak = (fp: string) => (streaks.has(fp) ? yellow(` fail ${streaks.get(fp)}/${String(failLimit)}`) : '');
  const tally = (fp: string) => `${countOf(fp) + 1}/${limitFor(fp, DEFAULTS.limits)}`;
  const head = `${bold(`#${String(callNo).padStart(2)}`)} bash ${cyan(firstLine(step.command))} ${dim(`(description "${step.description}", timeoutMs ${step.timeoutMs})`)}`;
  console.log(head);
  if (verbose) {
    for (const fp of capped) console.log(`     ${tally(fp).padStart(5)}  ${firstLine(fp, 96)}${streak(fp)}`);
    if (uncapped.length > 0) console.log(dim(`     no cap: ${uncapped.join('  ')}`));
  } else {
    console.log(`     ${capped.map((fp) => `${dim(`${fp.slice(0, fp.indexOf(':'))} ${tally(fp)}`)}${streak(fp)}`).join('  ')}`);
  }

  // Mirror the commit: a call that ran records every fingerprint, a stopped one only those that hit.
  const reason = out.denyReason ?? '';
  const named = (fp: string) => reason.includes(`- ${fp} `) || (out.askReason ?? '').includes(`- ${fp} `);
  shadow.push(out.ran ? fps : fps.filter(named));

  if (out.asked) console.log(`  ${bold('operator sees')} ${yellow('ask')}:\n${indent(clip(out.askReason ?? ''), '    ')}\n  ${dim(`operator answers: ${step.answer ?? 'nobody (unattended)'}`)}`);
  if (out.ran) {
    console.log(`  ${failed ? red('ran, failed') : green('ran')}${failed ? dim(` (${firstLine(textOf(out.result), 70)})`) : ''}`);
  } else {
    const ours = reason.startsWith('REPEAT_TOOL_BLOCKED');
    const note = ours ? '' : dim('\n    (DSH\'s own error for an ask nobody can answer; the plugin commits the hit anyway)');
    console.log(`  ${red(`denied by ${ours ? 'the guard' : 'the approval layer'}`)}, the body never ran; ${bold('model sees')}:\n${indent(clip(textOf(out.result), 16), '    ')}${note}`);
  }
  for (const notice of out.notices) console.log(`  ${bold('model sees')} ${describeNotice(notice)}`);
  return out;
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
const ok = (text: string) => () => bashResult(0, text);
const notFound = () => bashResult(22, 'curl: (22) The requested URL returned error: 404');

const { warnAt, summarizeAt, failWarnAt, failLimit, onLimit, window } = DEFAULTS;
const cap = limitFor('exact:', DEFAULTS.limits);

async function stuckSession(): Promise<void> {
  console.log(bold('dsh-repeat-tool-breaker demo'));
  console.log(dim(`defaults: window ${window}, warnAt ${warnAt}, summarizeAt ${summarizeAt}, cap ${cap} (host ${limitFor('host:', DEFAULTS.limits)}), failWarnAt ${failWarnAt}, failLimit ${failLimit}, onLimit ${onLimit}`));
  console.log(dim(`n/cap: calls in the window carrying that fingerprint, this one included; fail n/${String(failLimit)}: failures in a row`));

  scene('1. The same command, dressed up differently each time',
    'description and timeoutMs are decoys: they are dropped before fingerprinting, so every call is identical.');
  for (let i = 1; i <= cap + 1; i += 1) {
    const eventful = i === 1 || i === warnAt || i === summarizeAt || i >= cap;
    await run({ command: 'ls -la /workspace/data', description: ordinal(i), timeoutMs: 1000 * i, body: ok('total 0') }, eventful);
  }

  scene('2. Host-spelling ping-pong',
    'open-data.canada.ca is an alias of open.canada.ca, and --max-time is volatile: net:, host: and sink: collide.');
  for (let i = 1; i <= cap; i += 1) {
    const url = i % 2 === 1 ? 'https://open-data.canada.ca/x' : 'https://open.canada.ca/x';
    const command = `curl -s --max-time ${i % 2 === 1 ? 60 : 30} ${url} -o /tmp/od.html`;
    const eventful = i <= 2 || i === warnAt || i === summarizeAt || i === cap;
    await run({ command, description: `fetch the dataset (try ${i})`, timeoutMs: 60000, body: ok('') }, eventful);
  }

  scene('3. A failing endpoint',
    'Each path differs, so no repeat cap is near; the failure track follows host: through exit code 22.');
  const paths = ['v1/report', 'v1/reports', 'v2/reports', 'api/v2/reports', 'v2/report', 'v3/reports', 'reports'];
  for (const [i, path] of paths.entries()) {
    const eventful = i === 0 || i + 1 === failWarnAt || i >= (failLimit ?? paths.length);
    await run({ command: `curl -sS --fail https://api.example.invalid/${path}`, description: 'get the report', timeoutMs: 30000, body: notFound }, eventful);
  }

  scene('4. Recovery', 'A call that does not carry the failing fingerprint is never blocked.');
  await run({ command: 'grep -rn "api.example.invalid" /workspace/src', description: 'where is the endpoint configured?', timeoutMs: 10000, body: ok('src/config.ts:3: base: "https://api.example.invalid/v2"') }, true);

  scene('5. A human message', 'agent/pre-step with source.kind "user" clears the window, the streaks, the refusals.');
  await host.human(agent, 'The endpoint moved; try /v2/reports/latest.');
  shadow = [];
  streaks.clear();
  console.log(`${bold('human')}: The endpoint moved; try /v2/reports/latest.\n`);
  await run({ command: 'curl -sS --fail https://api.example.invalid/v2/reports/latest', description: 'as advised', timeoutMs: 30000, body: ok('') }, true);

  const denied = host.log.filter((o) => o.denied).length;
  console.log(`\n${bold('done')}: ${host.log.length} calls, ${host.log.filter((o) => o.ran).length} ran, ${denied} denied, ${host.log.reduce((n, o) => n + o.notices.length, 0)} notices, ${host.log.filter((o) => o.asked).length} asks.`);
  host.dispose();
  console.log(dim('The opt-in tracks (sequence, progress-aware gating, exemption ceiling, duplicated context) and the act: measure: npm run demo -- --opt-in'));
}

if (process.argv.slice(2).includes('--opt-in')) await optInAct();
else await stuckSession();

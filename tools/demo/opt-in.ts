/**
 * The second act of `npm run demo` (`npm run demo -- --opt-in`): each opt-in
 * track once, then the opt-in act: measure, on its own host with only that setting, against the BUILT plugin.
 * Quiet calls are folded into one line; every call that gets a notice, an ask
 * or a denial is printed with what the model and the operator read.
 */
import plugin from '../../dist/index.js';
import { bashResult, FakeHost, type Answer, type CallOutcome } from '../../test/support/fake-host.js';
import { actScene } from './act.js';
import { bold, clip, cyan, describeNotice, dim, firstLine, green, indent, red, scene, textOf, yellow } from './print.js';

interface Act {
  host: FakeHost;
  agent: object;
  calls: number;
  /** Numbers of the quiet calls not printed yet. */
  quiet: number[];
}

function start(config: unknown): Act {
  console.log(`${dim('config:')} ${cyan(JSON.stringify(config))}\n`);
  return { host: new FakeHost(plugin, config), agent: { id: 'demo-agent' }, calls: 0, quiet: [] };
}

function flushQuiet(act: Act): void {
  if (act.quiet.length === 0) return;
  const [first, last] = [act.quiet[0], act.quiet[act.quiet.length - 1]];
  console.log(dim(first === last ? `#${first} ran, nothing to report` : `#${first}–#${last} ran, nothing to report`));
  act.quiet = [];
}

/** A notice on one line: the summary the operator sees in the web UI's notice row. */
function summaryOf(notice: unknown): string {
  const source = (notice as { source?: { summary?: string } }).source;
  return `${yellow('notice')} ${dim(`[summary: ${source?.summary ?? '?'}]`)}`;
}

/**
 * One bash call. A call that ran with nothing to show is folded into the next
 * "ran" line; notices are shown in full only for the track the scene is about
 * (`full`), the others by their summary.
 */
async function call(act: Act, command: string, output: string, options: { answer?: Answer; full?: boolean } = {}): Promise<CallOutcome> {
  act.calls += 1;
  const answer = options.answer ?? 'none';
  const out = await act.host.call({ agent: act.agent, name: 'bash', arguments: { command, description: `step ${act.calls}` }, answer, body: () => bashResult(0, output) });
  if (out.ran && !out.asked && out.notices.length === 0) {
    act.quiet.push(act.calls);
    return out;
  }
  flushQuiet(act);
  if (out.ran && !out.asked && options.full !== true) {
    console.log(`${bold(`#${act.calls}`)} ${green('ran')}; ${bold('model sees')} ${out.notices.map(summaryOf).join(', ')}`);
    return out;
  }
  console.log(`${bold(`#${act.calls}`)} bash ${cyan(firstLine(command))}`);
  if (out.asked) console.log(`  ${bold('operator sees')} ${yellow('ask')}:\n${indent(clip(out.askReason ?? ''), '    ')}\n  ${dim(`operator answers: ${answer}`)}`);
  if (out.ran) console.log(`  ${green('ran')}`);
  else {
    const by = (out.denyReason ?? '').startsWith('REPEAT_TOOL_BLOCKED') ? 'the guard' : 'the approval layer';
    console.log(`  ${red(`denied by ${by}`)}, the body never ran; ${bold('model sees')}:\n${indent(clip(textOf(out.result), 14), '    ')}`);
  }
  for (const notice of out.notices) console.log(`  ${bold('model sees')} ${options.full === true ? describeNotice(notice) : summaryOf(notice)}`);
  return out;
}

function finish(act: Act): void {
  flushQuiet(act);
  act.host.dispose();
}

async function sequenceTrack(): Promise<void> {
  scene(
    'A. Sequence track',
    'Four different commands in turn. No call comes up 7 times in the window, so the occurrence track is silent;\n' +
      'the sequence track sees one cycle: an advisory at its 3rd repetition, the gate after its 4th.',
  );
  const act = start({ sequence: { length: 4, count: 3, limit: 4 }, onLimit: 'deny' });
  const cycle = ['grep -rn "retry" src/', 'curl -s http://127.0.0.1:8080/health', 'cat logs/app.log', 'npm test -- --grep retry'];
  for (let i = 0; i < 17; i += 1) await call(act, cycle[i % cycle.length] as string, 'no change', { full: true });
  await call(act, 'git log -3 --stat', 'a different route');
  finish(act);
}

async function progressGating(): Promise<void> {
  scene(
    'B. Progress-aware gating',
    'A status poll whose answer changes every time is progress, not a loop. With progress: results the repeat\n' +
      'gate waits while the results differ; the advisories at 7 and 11 still come.',
  );
  const act = start({ progress: 'results' });
  for (let i = 1; i <= 13; i += 1) await call(act, 'cat /var/run/build/status', `building: ${i * 7}% done`);
  finish(act);
  // The same polls under the defaults, not printed call by call: only where they part.
  const plain = new FakeHost(plugin, {});
  const agent = {};
  const outcomes: CallOutcome[] = [];
  for (let i = 1; i <= 13; i += 1) {
    outcomes.push(await plain.call({ agent, name: 'bash', arguments: { command: 'cat /var/run/build/status' }, body: () => bashResult(0, `building: ${i * 7}% done`) }));
  }
  plain.dispose();
  const verdict = (out: CallOutcome | undefined): string => (out?.ran === true ? 'runs' : out?.asked === true ? 'is asked about and, unattended, denied' : 'is denied by the guard');
  console.log(dim(`With the default (progress: ignore) the same polls stop: #12 ${verdict(outcomes[11])}; #13 ${verdict(outcomes[12])}.`));
}

async function exemptionCeiling(): Promise<void> {
  scene(
    'C. Exemption ceiling',
    'The operator approves the gate once. With exemptionCeiling: 2 the approval covers two more calls;\n' +
      'the next is denied without asking again, until a human message.',
  );
  const act = start({ exemptionCeiling: 2 });
  for (let i = 1; i <= 15; i += 1) await call(act, 'npm run build', 'build failed: same error', { answer: 'approve' });
  finish(act);
}

async function duplicatedContext(): Promise<void> {
  scene(
    'D. Duplicated context',
    'Another plugin re-attaches the same 2 KB of project notes to every step. At agent/pre-step the third copy\n' +
      'within two minutes earns one notice, appended to the step; no message is changed or dropped.',
  );
  const act = start({ duplicateText: {} });
  const notes = 'Project notes: the staging database is read-only on weekends; deploys go through CI only.\n'.repeat(24);
  for (let step = 1; step <= 3; step += 1) {
    const claimed = [{ id: `ctx-${step}`, role: 'user', content: [{ type: 'text', text: notes }], source: { kind: 'plugin', plugin: 'project-notes' } }];
    const decision = await act.host.step(act.agent, claimed);
    const added = (decision.messages ?? []).slice(claimed.length);
    console.log(`${bold(`step ${step}`)}: ${claimed.length} message claimed (${notes.length} characters of notes)${added.length === 0 ? dim(', nothing added') : ''}`);
    for (const notice of added) console.log(`  ${bold('model sees')} ${describeNotice(notice)}`);
  }
  finish(act);
}

/** Every opt-in track once, each on a host of its own. */
export async function optInAct(): Promise<void> {
  console.log(bold('dsh-repeat-tool-breaker demo, second act: the opt-in tracks'));
  console.log(dim('Each is off unless configured; with none set the plugin behaves as 0.5.2. See README, "Opt-in features".'));
  await sequenceTrack();
  await progressGating();
  await exemptionCeiling();
  await duplicatedContext();
  await actScene();
  console.log(`\n${bold('done')}.`);
}

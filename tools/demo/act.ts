/**
 * Scene E of the demo's opt-in act (`npm run demo -- --opt-in`): a model re-runs one test suite, respelling the
 * command on every call. `cmd:` sees fourteen different commands and never
 * counts past two; `act:` (turned on with `limits: { act: 12 }`) sees one
 * action and takes it through the advisories to the gate. The same calls with
 * the defaults run unhindered: that is why the measure is opt-in, and why it
 * exists. Drives the BUILT plugin on the in-process stand-in for DSH.
 */
import plugin from '../../dist/index.js';
import { resolveConfig } from '../../src/lib/config/config.js';
import { fingerprints, limitFor } from '../../src/lib/call/fingerprint.js';
import { FakeHost, bashResult, type HostResult } from '../../test/support/fake-host.js';
import { bold, cyan, dim, green, red, scene, textOf, yellow } from './print.js';
import { RESPELLED_PYTEST } from '../../test/support/respellings.js';

const CONFIG = { limits: { act: 12 } };
const passed = (): HostResult => bashResult(0, '41 passed in 3.2s');

/** The first `lines` lines of `text`, each cut at `width`. */
function head(text: string, lines: number, width = 100): string {
  const all = text.split('\n');
  const kept = all.slice(0, lines).map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line));
  if (all.length > lines) kept.push(`… (${all.length - lines} more lines)`);
  return kept.map((line) => `    ${line}`).join('\n');
}

export async function actScene(): Promise<void> {
  const cfg = resolveConfig(CONFIG);
  const cap = limitFor('act:', cfg.limits);
  scene(
    `E. The act: measure: the same action, respelled on every call (limits: { act: ${cap} })`,
    'The model re-runs its test suite, changing the spelling each time: flags bundled or reordered, python -m,\n' +
      './ and trailing slashes, 2>&1 | tail, a timeout. cmd: sees a new command almost every time; act: sees one action.',
  );
  const host = new FakeHost(plugin, CONFIG);
  const agent = { id: 'demo-act' };
  const seen: string[][] = [];
  const countOf = (fp: string): number => seen.slice(-cfg.window).filter((fps) => fps.includes(fp)).length + 1;
  for (let i = 0; i < cap; i += 1) {
    const command = RESPELLED_PYTEST[i] as string;
    const { fps } = fingerprints({ name: 'bash', args: { command } }, cfg);
    const act = fps.find((fp) => fp.startsWith('act:')) as string;
    const cmd = fps.find((fp) => fp.startsWith('cmd:')) as string;
    const counts = `${dim('act')} ${String(countOf(act)).padStart(2)}/${cap}  ${dim('cmd')} ${countOf(cmd)}/${limitFor(cmd, cfg.limits)}`;
    const out = await host.call({ agent, name: 'bash', arguments: { command, description: `run the tests (${i + 1})` }, body: passed });
    seen.push(out.ran ? fps : fps.filter((fp) => (out.askReason ?? '').includes(`- ${fp} `)));
    console.log(`${bold(`#${String(i + 1).padStart(2)}`)} ${cyan(command.padEnd(58))} ${counts}  ${out.ran ? green('ran') : red('denied')}`);
    if (i === 0) console.log(dim(`     ${act}`));
    for (const notice of out.notices as { source?: { summary?: string } }[]) console.log(`     ${yellow('notice')} ${dim(`[summary: ${notice.source?.summary ?? '?'}]`)}`);
    if (out.asked) console.log(`  ${bold('operator sees')} ${yellow('ask')}:\n${head(out.askReason ?? '', 6)}\n  ${dim('nobody answers (unattended): DSH refuses the call')}`);
    if (!out.ran) console.log(`  ${bold('model sees')}:\n${head(textOf(out.result), 3)}`);
  }
  const defaults = new FakeHost(plugin);
  for (const command of RESPELLED_PYTEST.slice(0, cap)) await defaults.call({ agent, name: 'bash', arguments: { command, description: 'run the tests' }, body: passed });
  const stopped = defaults.log.filter((o) => !o.ran).length;
  const notices = defaults.log.reduce((n, o) => n + o.notices.length, 0);
  console.log(`\n${dim(`The same ${cap} calls with the defaults (act: off): ${defaults.log.length - stopped} ran, ${stopped} stopped, ${notices} notices.`)}`);
  host.dispose();
  defaults.dispose();
}

/**
 * The body of `npm run eval` (tools/eval/main.ts), callable in process.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../src/lib/config/config.js';
import { layConfig, PRESETS, presetConfig } from '../../src/lib/config/preset.js';
import { asUsage, runCli, UsageError, type Io } from '../lib/cli.js';
import { loadConfigFile } from '../lib/config-file.js';
import { progressLine } from '../lib/progress.js';
import { AXES, CONFIG_OPTIONS, configOf, parseAxis, type Axis, type AxisValue } from '../lib/sweep.js';
import { userPath } from '../lib/user-path.js';
import { EXPECTED_PATH, expectedOf, readExpected, regressions } from './check.js';
import { readCorpus } from './corpus.js';
import { evaluate, type SystemRun } from './evaluate.js';
import { readLabels } from './from-session-log.js';
import { TOOL_SETS, withTools, type ToolSet } from './minimal.js';
import { ablationTable, LEGEND, metricsTable, sessionsTable } from './report.js';
import { builtPlugin, referencePlugin, reminderPlugin, REMINDER_DEFAULTS, REMINDER_ENTRY, type System } from './systems.js';
import type { Episode } from './episode.js';

export const EVAL_USAGE = `usage: npm run eval -- <corpus directories or files> [config] [options]

Replays sessions through the built plugin (it builds first), side by side with 0.5.2 and DSH's
repeat-tool-reminder, and prints how many it read and the metrics: loops noticed and gated,
calls from the loop's start to the first notice and the first denial (median/max), good
sessions noticed and gated, progress sessions gated, loop calls that ran. A corpus is a folder
of labelled trajectories (one .jsonl per session, its first line a meta record with the label:
loop, good or progress) or of DSH session logs (labelled with --labels).

The reminder's row needs DSH itself: it is read from test/host/node_modules, which
npm run test:host installs; without it the row is left out, and the eval says so.

config (laid over onLimit: deny; the last one given wins):
  --config <file>      plugin config: .json or YAML, or a DSH patch overlay with the row
  --preset <name>      a preset (recommended)
  --set <key>=<json>   one setting, e.g. --set stale='{"limit":3}' or --set warnAt=5
  --window 16  --warnAt 7  --summarizeAt 11  --cap 12  --hostCap 16  --act 12
  --failWarnAt 3  --failLimit 5  --onLimit deny  --sequence 4x3x5  --progress results
  --exemptionCeiling 5                 (one value each; npm run sweep takes grids)
options:
  --labels <file>      labels of DSH session logs: {"<session>": "good" | "stuck" | "loop" |
                       "progress" | {"class": "loop", "loop_start": 12}}
  --systems <list>     which systems: ours,0.5.2,reminder (default: all that are installed)
  --tools <set>        the tool set the results are handed in: one-shot (DSH's bash, read,
                       edit, write; the default) or minimal (the minimal preset's persistent
                       bash and str_replace_editor, tools/eval/minimal.ts)
  --sessions           one row per session: where each system first noticed and gated
  --ablate             the preset, then the preset with each of its parts turned off
  --check              exit 1 if this plugin's figures are worse than the expected ones
                       (replays this plugin only)
  --record             write this plugin's figures as the expected ones (this plugin only)
  --expected <file>    where they are kept (default tools/eval/expected.json)
  --markdown           tables as Markdown
  --json               everything as JSON
`;

const SYSTEM_NAMES = ['ours', '0.5.2', 'reminder'] as const;

/** `key=<json>`: the value parsed as JSON, or taken as a string when it is not JSON (`--set onLimit=ask`). */
function parseSet(text: string): [string, unknown] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set takes <key>=<value> (got ${JSON.stringify(text)})`);
  const raw = text.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  return [text.slice(0, eq), value];
}

interface Parsed {
  readonly paths: string[];
  readonly config: Record<string, unknown>;
  readonly flags: Record<string, unknown>;
}

function parse(args: readonly string[]): Parsed {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        ...CONFIG_OPTIONS,
        set: { type: 'string', multiple: true },
        labels: { type: 'string' },
        systems: { type: 'string' },
        tools: { type: 'string', default: 'one-shot' },
        sessions: { type: 'boolean', default: false },
        ablate: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
        record: { type: 'boolean', default: false },
        expected: { type: 'string' },
        markdown: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  const flags = values as Record<string, unknown>;
  let config: Record<string, unknown> = { onLimit: 'deny' };
  if (typeof flags.config === 'string') config = layConfig(config, asUsage(() => loadConfigFile(userPath(flags.config as string))));
  if (typeof flags.preset === 'string') config = layConfig(config, { preset: flags.preset });
  const grid: [Axis, AxisValue][] = [];
  for (const axis of AXES) {
    const text = flags[axis];
    if (typeof text !== 'string') continue;
    const choices = asUsage(() => parseAxis(axis, text));
    if (choices.length !== 1) throw new UsageError(`--${axis} takes one value here (got ${text}); npm run sweep replays grids`);
    grid.push([axis, choices[0] as AxisValue]);
  }
  config = configOf(config, { values: grid });
  for (const entry of (flags.set as string[] | undefined) ?? []) {
    const [key, value] = parseSet(entry);
    config = layConfig(config, { [key]: value });
  }
  asUsage(() => resolveConfig(config));
  return { paths: positionals.map(userPath), config, flags };
}

async function systemsFor(names: readonly string[], config: Record<string, unknown>, label: string): Promise<System[]> {
  const systems: System[] = [];
  for (const name of names) {
    if (name === 'ours') systems.push({ label, short: 'ours', plugin: 'repeat-tool-breaker', apply: await builtPlugin(), config, gates: true });
    else if (name === '0.5.2') {
      // 0.5.2 knows none of the later keys and ignores them; it gets the same onLimit.
      systems.push({ label: '0.5.2', short: '0.5.2', plugin: 'repeat-tool-breaker', apply: await referencePlugin(), config: { onLimit: config.onLimit }, gates: true });
    } else {
      const apply = await reminderPlugin();
      if (apply !== undefined) {
        systems.push({ label: 'repeat-tool-reminder rc.8', short: 'reminder', plugin: 'repeat-tool-reminder', apply, config: REMINDER_DEFAULTS, gates: false });
      }
    }
  }
  return systems;
}

/** `1 session`, `106 sessions`. */
function sessions(count: number): string {
  return `${count} ${count === 1 ? 'session' : 'sessions'}`;
}

/** What was read: `106 sessions: 23 loop, 82 good, 1 progress` (and the unlabelled ones, if any). */
export function corpusLine(episodes: readonly Episode[]): string {
  const { loop, good, progress, unlabelled } = countsOf(episodes);
  const parts = [`${loop} loop`, `${good} good`, `${progress} progress`];
  if (unlabelled > 0) parts.push(`${unlabelled} unlabelled`);
  return `${sessions(episodes.length)}: ${parts.join(', ')}`;
}

/** The sessions read, by label. */
function countsOf(episodes: readonly Episode[]): { loop: number; good: number; progress: number; unlabelled: number } {
  const count = (kind: string | undefined): number => episodes.filter((episode) => episode.label?.class === kind).length;
  return { loop: count('loop'), good: count('good'), progress: count('progress'), unlabelled: count(undefined) };
}

/** How the table names this plugin's configuration. */
function configLabel(config: Record<string, unknown>): string {
  const { onLimit, preset, ...rest } = config;
  const parts = [typeof preset === 'string' ? `preset ${preset}` : 'defaults'];
  if (Object.keys(rest).length > 0) parts.push(JSON.stringify(rest));
  if (onLimit !== 'deny') parts.push(`onLimit ${String(onLimit)}`);
  return `this plugin, ${parts.join(' + ')}`;
}

/** The preset's parts, each turned off in turn, as configurations without the `preset` key. */
function ablations(config: Record<string, unknown>): { label: string; config: Record<string, unknown> }[] {
  const name = config.preset;
  if (typeof name !== 'string') throw new UsageError('--ablate needs a preset (--preset recommended, or preset: in --config)');
  const preset = PRESETS[name];
  if (preset === undefined) throw new UsageError(`unknown preset ${JSON.stringify(name)}`);
  const { preset: _named, ...rest } = config;
  const variant = (skip: Set<string>): Record<string, unknown> => layConfig(presetConfig(preset, skip), rest);
  return [
    { label: `preset ${name}`, config: variant(new Set()) },
    ...preset.parts.map((part) => ({ label: `without ${part.name}`, config: variant(new Set([part.name])) })),
  ];
}

export function evalCli(args: readonly string[], io: Io): Promise<number> {
  return runCli('eval', EVAL_USAGE, io, async () => {
    const { paths, config, flags } = parse(args);
    if (flags.help === true) {
      io.out(EVAL_USAGE);
      return 0;
    }
    if (paths.length === 0) throw new UsageError('name a corpus directory or trajectory files');
    const names = typeof flags.systems === 'string' ? flags.systems.split(',').map((name) => name.trim()) : [...SYSTEM_NAMES];
    for (const name of names) {
      if (!(SYSTEM_NAMES as readonly string[]).includes(name)) throw new UsageError(`--systems takes ${SYSTEM_NAMES.join(', ')} (got ${JSON.stringify(name)})`);
    }
    const labels = typeof flags.labels === 'string' ? asUsage(() => readLabels(userPath(flags.labels as string))) : undefined;
    const tools = flags.tools as string;
    if (!(TOOL_SETS as readonly string[]).includes(tools)) throw new UsageError(`--tools takes ${TOOL_SETS.join(' or ')} (got ${JSON.stringify(tools)})`);
    const read = readCorpus(paths, labels);
    const corpus = { ...read, episodes: read.episodes.map((episode) => withTools(episode, tools as ToolSet)) };
    for (const skipped of corpus.skipped) io.err(`eval: skipping ${skipped.path}: ${skipped.error}\n`);
    if (corpus.episodes.length === 0) {
      io.err(`eval: nothing readable under ${paths.join(', ')}\n`);
      return 1;
    }
    const ours = configLabel(config);
    const wanted = flags.check === true || flags.record === true ? ['ours'] : names;
    const systems = await systemsFor(wanted, config, ours);
    if (wanted.includes('reminder') && !systems.some((system) => system.short === 'reminder')) {
      io.err(`eval: the repeat-tool-reminder row is left out: it runs DSH's own plugin from ${relative(process.cwd(), REMINDER_ENTRY)}, which is not installed (npm run test:host installs test/host)\n`);
    }
    const variants = flags.ablate === true ? ablations(config) : [];
    const total = corpus.episodes.length * (systems.length + variants.length);
    const onSession = io.progress === undefined ? undefined : progressLine('replayed', total, io.progress);
    let offset = 0;
    const tick = onSession === undefined ? undefined : (done: number): void => onSession(offset + done, total);
    const runs = await evaluate(corpus.episodes, systems, tick === undefined ? {} : { onSession: tick });
    offset += corpus.episodes.length * systems.length;
    const apply = await builtPlugin();
    const ablated: SystemRun[] = [];
    for (const variant of variants) {
      const [run] = await evaluate(corpus.episodes, [{ label: variant.label, short: variant.label, plugin: 'repeat-tool-breaker', apply, config: variant.config, gates: true }], tick === undefined ? {} : { onSession: tick });
      ablated.push(run as SystemRun);
      offset += corpus.episodes.length;
    }
    const mine = runs.find((run) => run.system === ours);
    const corpusName = paths.map((path) => relative(process.cwd(), path) || '.').join(', ');
    const expectedPath = typeof flags.expected === 'string' ? userPath(flags.expected) : EXPECTED_PATH;
    let status = 0;
    if (flags.record === true && mine !== undefined) {
      writeFileSync(expectedPath, `${JSON.stringify(expectedOf(mine.figures, corpusName, config), null, 2)}\n`);
      io.err(`eval: recorded the figures in ${expectedPath}\n`);
    }
    const worse = flags.check === true && mine !== undefined ? regressions(expectedOf(mine.figures, corpusName, config), asUsage(() => readExpected(expectedPath))) : [];
    if (flags.json === true) {
      // Absent figures are written as null, so every session has the same fields.
      const read = { sessions: corpus.episodes.length, ...countsOf(corpus.episodes) };
      const json = JSON.stringify({ version: 1, config, read, systems: runs, ablation: ablated, regressions: worse }, (_key, value: unknown) => value ?? null, 2);
      io.out(`${json}\n`);
    } else {
      const gates = new Map(systems.map((system) => [system.label, system.gates]));
      const markdown = flags.markdown === true;
      io.out(`${corpusLine(corpus.episodes)}\n\n`);
      io.out(`${metricsTable(runs, gates, markdown)}\n\n${LEGEND}\n`);
      if (ablated.length > 0) io.out(`\n${ablationTable(ablated, markdown)}\n`);
      if (flags.sessions === true) io.out(`\n${sessionsTable(runs, markdown)}\n`);
    }
    if (flags.check === true) {
      if (worse.length > 0) {
        io.err(`eval --check: worse than ${expectedPath}:\n${worse.map((line) => `  ${line}`).join('\n')}\n`);
        status = 1;
      } else io.err(`eval --check: no figure is worse than ${expectedPath}\n`);
    }
    const unlabelled = corpus.episodes.filter((episode) => episode.label === undefined).length;
    if (unlabelled > 0) io.err(`eval: ${sessions(unlabelled)} ${unlabelled === 1 ? 'carries' : 'carry'} no label and ${unlabelled === 1 ? 'is' : 'are'} counted nowhere (--labels)\n`);
    return status;
  });
}

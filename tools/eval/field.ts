/**
 * The field: other agents' loop detectors, each re-expressed as a DSH-shaped
 * plugin in `<repository>/../shared/field/<peer>.mjs` (its README says what
 * each one is). They are third-party rules kept beside the project, never in
 * it: the eval loads them from there when the folder is there, as rows beside
 * this plugin's, and says so when it is not.
 *
 * The rows are the peers as their users get them (the defaults they ship), but
 * for OpenCode, whose shipped rule reads one assistant message and so cannot
 * fire with one call per step: its row is the rule as documented (3 identical
 * calls in a row), as issue 40's table shows it. `--field-variants` adds the
 * other two settings the field offers: OpenCode as shipped, and Qwen Code with
 * its opt-in heuristics. Dominance is measured against the rows, never the
 * variants.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { applyOf, REPO, type System } from './systems.js';

/** Where the field is looked for: beside the repository, as in CI. */
export const FIELD_DIR = join(REPO, '..', 'shared', 'field');

/** The wiring every peer imports; not a peer. */
const SHARED_WIRING = 'common.mjs';

interface PeerRow {
  readonly file: string;
  readonly short: string;
  readonly label: string;
  readonly config: Readonly<Record<string, unknown>>;
}

/** The rows, in the order of the field's README. */
const ROWS: readonly PeerRow[] = [
  { file: 'openhands.mjs', short: 'openhands', label: 'OpenHands', config: {} },
  { file: 'gemini.mjs', short: 'gemini', label: 'Gemini CLI', config: {} },
  { file: 'qwen.mjs', short: 'qwen', label: 'Qwen Code (always-on rules)', config: {} },
  { file: 'opencode.mjs', short: 'opencode', label: 'OpenCode (3 identical calls)', config: { mode: 'documented' } },
  { file: 'cline.mjs', short: 'cline', label: 'Cline', config: {} },
  { file: 'roo.mjs', short: 'roo', label: 'Roo Code (the 4th identical call)', config: {} },
];

const VARIANTS: readonly PeerRow[] = [
  { file: 'opencode.mjs', short: 'opencode-shipped', label: 'OpenCode as shipped (per message)', config: { mode: 'shipped' } },
  { file: 'qwen.mjs', short: 'qwen-heuristics', label: 'Qwen Code with its heuristics', config: { heuristics: true } },
];

/** Whether the field is there to be measured. */
export function fieldPresent(dir = FIELD_DIR): boolean {
  return existsSync(dir);
}

/**
 * The field's systems: every peer file of the folder, those the table above
 * names with their label and config, any other by its file name with its
 * defaults; then the variants when asked for. Empty when the folder is not there.
 */
export async function fieldSystems(options: { variants?: boolean; dir?: string } = {}): Promise<System[]> {
  const dir = options.dir ?? FIELD_DIR;
  if (!fieldPresent(dir)) return [];
  const files = readdirSync(dir).filter((file) => file.endsWith('.mjs') && file !== SHARED_WIRING);
  const named = ROWS.filter((row) => files.includes(row.file));
  const others = files.filter((file) => !ROWS.some((row) => row.file === file)).sort();
  const rows: PeerRow[] = [...named, ...others.map((file) => ({ file, short: basename(file, '.mjs'), label: basename(file, '.mjs'), config: {} }))];
  const variants = options.variants === true ? VARIANTS.filter((row) => files.includes(row.file)) : [];
  const systems: System[] = [];
  for (const [role, list] of [['peer', rows], ['variant', variants]] as const) {
    for (const row of list) {
      // A peer's notices carry its own plugin name; alone on its host, every plugin notice is its own.
      systems.push({ label: row.label, short: row.short, role, apply: await applyOf(join(dir, row.file)), config: row.config, gates: true });
    }
  }
  return systems;
}

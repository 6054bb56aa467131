/**
 * The systems an eval compares, each a DSH plugin mounted on the replay host:
 * this plugin as built (`dist/`), the reference 0.5.2 (the devDependency
 * `reference-breaker`), and DSH's own `repeat-tool-reminder`, which ships with
 * DSH and is loaded from the host install of `test/host` when it is there (it
 * needs DSH's packages as peers, which the plugin's own install does not have).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApplyFunction } from '../lib/replay-host.js';
import { isMapping } from '../../src/lib/host/member.js';

export interface System {
  /** How the table names it. */
  readonly label: string;
  /** A short name for column headings: `ours`, `0.5.2`, `reminder`. */
  readonly short: string;
  /** `source.plugin` of the notices it writes. */
  readonly plugin: string;
  readonly apply: ApplyFunction;
  /** The config the system is mounted with. */
  readonly config: unknown;
  /** Whether the system can deny a call at all (the reminder only reminds). */
  readonly gates: boolean;
}

const REPO = join(import.meta.dirname, '..', '..');

async function applyOf(file: string): Promise<ApplyFunction> {
  const module: unknown = await import(pathToFileURL(file).href);
  const apply = isMapping(module) ? module.apply : undefined;
  if (typeof apply !== 'function') throw new Error(`${file} exports no apply()`);
  return apply as ApplyFunction;
}

/** This plugin as `npm run build` leaves it. */
export async function builtPlugin(): Promise<ApplyFunction> {
  const entry = join(REPO, 'dist', 'index.js');
  if (!existsSync(entry)) throw new Error('dist/index.js is missing: run `npm run build` (npm run eval does)');
  return applyOf(entry);
}

/** dsh-repeat-tool-breaker 0.5.2 from the registry. */
export async function referencePlugin(): Promise<ApplyFunction> {
  const require = createRequire(join(REPO, 'package.json'));
  return applyOf(require.resolve('reference-breaker'));
}

export const REMINDER_ENTRY = join(REPO, 'test', 'host', 'node_modules', '@deepseek-ai', 'dsh-repeat-tool-reminder', 'lib', 'index.js');

/** The reminder's shipped settings (its `Config` defaults in 0.1.0-rc.8). */
export const REMINDER_DEFAULTS = Object.freeze({ thresholds: [3, 5, 8], include: [], exclude: [], argumentsPreviewChars: 500 });

/** DSH's own repeat-tool-reminder, or `undefined` when the host is not installed. */
export async function reminderPlugin(): Promise<ApplyFunction | undefined> {
  return existsSync(REMINDER_ENTRY) ? applyOf(REMINDER_ENTRY) : undefined;
}

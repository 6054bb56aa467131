/**
 * The systems an eval compares, each a DSH plugin mounted on the replay host:
 * this plugin as built (`dist/`), the reference 0.5.2 (the devDependency
 * `reference-breaker`), and DSH's own `repeat-tool-reminder`, which ships with
 * DSH and is loaded from the host install of `test/host` when it is there (it
 * needs DSH's packages as peers, which the plugin's own install does not have).
 * The field's detectors are loaded by field.ts.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApplyFunction } from '../lib/replay-host.js';
import { isMapping } from '../../src/lib/host/member.js';

/**
 * What a system is to the report: this plugin, the reference, DSH's reminder,
 * a peer of the field as its users get it, or another setting of a peer; and
 * `asking`, this plugin with its defaults and `onLimit: ask`, which `--check`
 * replays beside a preset for the words of the defaults' asks.
 */
export type Role = 'ours' | 'asking' | 'reference' | 'reminder' | 'peer' | 'variant';

export interface System {
  /** How the table names it. */
  readonly label: string;
  /** A short name for column headings: `ours`, `0.5.2`, `reminder`, `gemini`. */
  readonly short: string;
  readonly role: Role;
  /** `source.plugin` of the notices it writes; `undefined`: every plugin notice on its host is its own. */
  readonly plugin?: string;
  readonly apply: ApplyFunction;
  /** The config the system is mounted with. */
  readonly config: unknown;
  /** Whether the system can deny a call at all (the reminder only reminds). */
  readonly gates: boolean;
  /** The config it is replayed with a second time, asking, for the words of its asks (the same object: it asks already). */
  readonly askConfig?: unknown;
}

/** The checkout's root: the field and the reminder are found relative to it. */
export const REPO = join(import.meta.dirname, '..', '..');

/** A module's `apply`, or an error naming the file. */
export async function applyOf(file: string): Promise<ApplyFunction> {
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

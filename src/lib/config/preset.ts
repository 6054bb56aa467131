/**
 * Presets: named bundles of settings chosen from measurement, so a user turns
 * on what works on real sessions with one line (`preset: recommended`)
 * instead of a dozen keys. A preset is laid between the defaults and the
 * user's config: every key the user writes overrides it (maps such as
 * `limits` and mappings such as `stale` merge one level deep, so
 * `limits: { exact: 9 }` changes one cap and keeps the preset's others).
 *
 * Each preset is a list of parts, one idea each, so the eval can turn them off
 * one at a time (`npm run eval -- --ablate`) and every part earns its place.
 * docs/efficacy.md gives the figures each part was chosen from.
 */
import { deepFreeze } from '../host/freeze.js';
import { isMapping } from '../host/member.js';
import { SETTINGS } from '../tracks/meta.js';

export interface PresetPart {
  /** A short name, used by `--ablate`. */
  readonly name: string;
  /** What the part does, in one line. */
  readonly what: string;
  /** The settings it adds, as a user would write them. */
  readonly config: Readonly<Record<string, unknown>>;
}

export interface Preset {
  readonly description: string;
  readonly parts: readonly PresetPart[];
}

export const PRESETS: Readonly<Record<string, Preset>> = deepFreeze({
  recommended: {
    description: 'The mechanisms and values that catch the loops real models make, chosen on recorded sessions (docs/efficacy.md).',
    parts: [
      {
        name: 'stale',
        what: 'the same call returning the same result, nothing changed in between: advised at the 3rd, gated after the 5th, or after the 3rd when the same action (however spelled, an edit however indented) came back to back, or two calls went in turn 3 rounds, each answered as before; once one call went stale 5 times, every call whose answer the model already has, until something new comes back',
        config: { stale: { warnAt: 3, limit: 5, backToBack: 3, cycle: 5 } },
      },
      {
        name: 'spin',
        what: 'a stretch of calls, whatever they are, that each return what they returned before: advised at the 5th in a row, gated after the 7th',
        config: { spin: { warnAt: 5, limit: 7 } },
      },
      {
        name: 'guess',
        what: 'one word of a command enumerated by hand (a password, a port, a path), failing the same way: advised at the 4th value, gated after the 6th',
        config: { guess: { warnAt: 4, limit: 6 } },
      },
      {
        name: 'editRetry',
        what: 'edits of one file rejected in a row, however respelled: advised at the 3rd, gated after the 4th; the same edit (the same text into the same file) sent again after it was rejected 3 times, the file neither changed nor read, or after it landed twice',
        config: { editRetry: { warnAt: 3, limit: 4, applied: 2, resent: 3 } },
      },
      {
        name: 'timeouts',
        what: 'one program running out of time again, whatever its flags, or different calls timing out in a row: advised at the 4th time-out, gated after the 5th',
        config: { timeouts: { warnAt: 4, limit: 5 } },
      },
      {
        name: 'failureProgress',
        what: 'progress is a new error: after a change a new error starts the streak again, the same error again extends it',
        config: { failureProgress: 'outcomes' },
      },
      {
        name: 'progress',
        what: 'progress is a new outcome: a run that returned something new (a poll that moved, a check that answers differently) counts from 1 again',
        config: { progress: 'outcomes' },
      },
      {
        name: 'act',
        what: 'the act: measure (a command whatever its spelling, the no-op `:` with any arguments included), capped at 12',
        config: { limits: { act: 12 } },
      },
      {
        name: 'stop',
        what: 'a model that keeps calling at a closed gate: the turn ends after the 3rd refused call of one loop, and is handed back',
        config: { stopAfter: 3 },
      },
    ],
  },
});

export const PRESET_NAMES: readonly string[] = Object.freeze(Object.keys(PRESETS));

/** Keys whose value is a map or mapping merged one level deep when a user config meets a preset: the core's maps, and each track's setting that says so. */
const MERGED: ReadonlySet<string> = new Set(['limits', 'ignoreArgs', 'hostAliases', ...SETTINGS.filter((setting) => setting.merged).map((setting) => setting.key)]);

/** Lays `over` on `under`: top-level keys replace, the merged keys merge one level when both sides are mappings. */
export function layConfig(under: Readonly<Record<string, unknown>>, over: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = MERGED.has(key) && isMapping(below) && isMapping(value) ? { ...below, ...value } : value;
  }
  return out;
}

/** A preset's settings, its parts laid in order; `skip` names parts left out (the ablation). */
export function presetConfig(preset: Preset, skip: ReadonlySet<string> = new Set()): Record<string, unknown> {
  let config: Record<string, unknown> = {};
  for (const part of preset.parts) if (!skip.has(part.name)) config = layConfig(config, part.config);
  return config;
}

/**
 * The schema of the live settings namespace, written without schemastery.
 *
 * DSH's settings service asks two things of a namespace schema: call it on the
 * merged layers to get the resolved value (a throw refuses the write), and
 * `toJSON()` it for the browser, which rehydrates that with its own copy of
 * schemastery. So the schema here is our own function: calling it is
 * `resolveConfig`, which refuses a bad value with the very message a bad YAML
 * config gets at load; and `toJSON()` emits schemastery's serialised form
 * (`{ uid, refs }`), built from DEFAULTS, so the `limits` fields follow the
 * measures the code knows, and each track brings its own node. Why not import
 * schemastery: docs/live-settings.md.
 */
import { cap, count, described, dictOf, names, nullable, object, oneOf, string, type SchemaNode } from '../setting/schema-node.js';
import type { Locale } from '../text/locale.js';
import { SETTINGS } from '../tracks/meta.js';
import { DEFAULTS, resolveConfigIn, type BreakerConfig } from './config.js';
import { PRESET_NAMES } from './preset.js';
import { inLocale } from './messages.js';
import { resolveStored, resolveWrite, type DroppedValue } from './stored.js';

export type { SchemaNode } from '../setting/schema-node.js';

/** What `toJSON()` returns: the root's uid, and every node by uid with its children replaced by theirs. */
export interface SerializedSchema {
  readonly uid: number;
  readonly refs: Readonly<Record<number, Record<string, unknown>>>;
}

/** The namespace schema as the settings service uses it. */
export interface SettingsSchema extends SchemaNode {
  (value?: unknown): BreakerConfig;
  toJSON(): SerializedSchema;
  /** Standard Schema v1, for hosts that validate through it (cordis 4 does for plugin configs). */
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): { value: BreakerConfig } | { issues: readonly { message: string }[] };
  };
}

function limitsNode(): SchemaNode {
  const dict: Record<string, SchemaNode> = {};
  // Every measure the code ships a cap for; a per-fingerprint cap (`verb:curl`) passes as an extra key.
  for (const [measure, value] of Object.entries(DEFAULTS.limits)) {
    dict[measure] = described(nullable(cap()), `Cap of the ${measure} measure; null stops counting it.`, value);
  }
  return described(object(dict), "The repeat track's caps, per measure or per full fingerprint: the count at which the gate meets a call.", DEFAULTS.limits);
}

/** The core settings' nodes, by key. */
function coreNodes(): Record<string, SchemaNode> {
  const D = DEFAULTS;
  return {
    window: described(count(4), 'Recent calls per agent that are counted.', D.window),
    onLimit: described(oneOf('ask', 'deny'), 'What the gate does at a cap or at the failure limit: ask the operator, or deny.', D.onLimit),
    localHosts: described(oneOf('deny', 'allow'), 'Whether purely local traffic is fingerprinted by target (deny) or relaxed (allow).', D.localHosts),
    warnAt: described(nullable(count(1)), "The repeat track's first advisory: how many times one measure comes up in the window to earn it; null turns it off.", D.warnAt),
    summarizeAt: described(nullable(count(1)), "The repeat track's second advisory (write down where you stand, change the approach): how many times one measure comes up to earn it; null turns it off.", D.summarizeAt),
    failWarnAt: described(nullable(count(1)), 'Failure advisory; null turns it off.', D.failWarnAt),
    failLimit: described(nullable(cap()), 'Consecutive failures at which the gate meets the call; null turns the failure gate off.', D.failLimit),
    includeLocal: described({ type: 'boolean', meta: {} }, 'Whether local hosts count towards the host: measure.', D.includeLocal),
    previewChars: described(count(1), 'Characters of a fingerprint quoted in messages.', D.previewChars),
    resultPreviewChars: described(count(1), 'Characters of the previous result quoted in a denial.', D.resultPreviewChars),
    exclude: described(names(), 'Tools never tracked (* wildcards allowed).', D.exclude),
    include: described(names(), 'When not empty, only these tools are tracked (* wildcards allowed).', D.include),
    ignoreArgs: described(dictOf(names()), 'Decoy argument names per tool (* for every tool), dropped before fingerprinting.', D.ignoreArgs),
    hostAliases: described(dictOf(string()), 'Host spellings folded into one host.', D.hostAliases),
    limits: limitsNode(),
    progress: described(
      oneOf('ignore', 'results', 'changes', 'outcomes'),
      'results: a repeat gate on an action waits while its recent results still differ; changes: a run after a change to the files counts from 1 again; outcomes: a run that returned something new (a poll that moved, a check that answers differently) counts from 1 again, and the same answer again counts on, changed files or not.',
      D.progress,
    ),
    failureProgress: described(
      oneOf('ignore', 'restart', 'outcomes'),
      'restart: a failure after a change to the files starts its streak again; one with a new error and nothing changed holds it; outcomes: only a new error after a change starts it again, and a failure already seen extends it, changed files or not.',
      D.failureProgress,
    ),
    preset: described(nullable(oneOf(...PRESET_NAMES)), 'A preset laid under these settings: recommended is what measured best on real sessions (docs/efficacy.md); null: none.', D.preset),
    exemptionCeiling: described(nullable(count(1)), 'The exemption ceiling: how many more calls like it one Allow once lets run this turn before they are denied without asking; null: no ceiling.', D.exemptionCeiling),
    stopAfter: described(nullable(count(1)), 'Refused calls of one loop in a turn after which the turn ends (its next model step is rejected); null: never.', D.stopAfter),
  };
}

/** The namespace's fields, in the order of DEFAULTS: the core's, and each track's own (`meta.setting.schema`). */
export function settingsTree(): SchemaNode {
  const nodes: Record<string, SchemaNode> = { ...coreNodes(), ...Object.fromEntries(SETTINGS.map((setting) => [setting.key, setting.schema])) };
  return {
    ...object(Object.fromEntries(Object.keys(DEFAULTS).map((key) => [key, nodes[key] as SchemaNode]))),
    meta: { default: {}, description: 'dsh-repeat-tool-breaker: the loop breaker on tool calls.' },
  };
}

/** Numbers every node depth first and puts it in `refs` with its children as uids, as schemastery's `toJSON` does. */
export function serialize(root: SchemaNode): SerializedSchema {
  const refs: Record<number, Record<string, unknown>> = {};
  let next = 0;
  const visit = (node: SchemaNode): number => {
    const uid = next;
    next += 1;
    // Type, meta and a constant's value as they are; the children by uid.
    const { dict, inner, sKey, list, ...entry } = node as SchemaNode & Record<string, unknown>;
    refs[uid] = entry;
    if (dict !== undefined) entry.dict = Object.fromEntries(Object.entries(dict).map(([key, child]) => [key, visit(child)]));
    if (inner !== undefined) entry.inner = visit(inner);
    if (sKey !== undefined) entry.sKey = visit(sKey);
    if (list !== undefined) entry.list = list.map(visit);
    return uid;
  };
  // JSON round trip: the defaults are frozen DEFAULTS; the wire gets plain copies.
  return JSON.parse(JSON.stringify({ uid: visit(root), refs })) as SerializedSchema;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * How the schema treats the section settings.yaml holds (plugin/settings.ts):
 * there a refused value is left out and the rest resolves (config/stored.ts),
 * and a section refused whole resolves to `fallback()` (the last value
 * accepted); either is reported, so the namespace stays registered. A write
 * may keep what the stored section leaves out, and is refused with our
 * message when it adds anything refused.
 */
export interface StoredSection {
  /** Whether `value` is the stored section merged over the base layer (not a write's candidate). */
  matches(value: unknown): boolean;
  /** The layer under the stored section (the row's config): what a value left out falls back to. */
  readonly base: unknown;
  /** The values the stored section leaves out, by `droppedKey`: a write may keep them. */
  leftOut(): ReadonlySet<string>;
  dropped(dropped: readonly DroppedValue[], value: unknown): void;
  fallback(): BreakerConfig;
  refused(error: unknown, value: unknown): void;
}

/** The stored section without the values it refuses, reported; the last value accepted when it is refused whole. */
function degrade(stored: StoredSection, value: unknown, error: unknown): BreakerConfig {
  try {
    const { config, dropped } = resolveStored(stored.base, value);
    stored.dropped(dropped, value);
    return config;
  } catch {
    stored.refused(error, value);
    return stored.fallback();
  }
}

/** `locale`: the language a refusal is thrown in (the operator's, plugin/settings.ts); English when not given. */
export function createSettingsSchema(locale: () => Locale = () => 'en', stored?: StoredSection): SettingsSchema {
  const tree = settingsTree();
  const resolve = (value?: unknown): BreakerConfig => {
    try {
      return resolveConfigIn(value ?? {}, locale);
    } catch (error) {
      if (stored === undefined) throw error;
      if (stored.matches(value)) return degrade(stored, value, error);
      try {
        return resolveWrite(stored.base, value, stored.leftOut());
      } catch (refused) {
        throw inLocale(refused, locale());
      }
    }
  };
  const standard: SettingsSchema['~standard'] = {
    version: 1,
    vendor: 'dsh-repeat-tool-breaker',
    validate(value) {
      try {
        return { value: resolve(value) };
      } catch (error) {
        return { issues: [{ message: messageOf(error) }] };
      }
    },
  };
  return Object.assign(resolve, tree, { toJSON: () => serialize(tree), '~standard': standard }) as SettingsSchema;
}

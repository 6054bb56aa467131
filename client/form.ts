/**
 * The card's staged form, as a pure function of the row's config (`base`),
 * the saved user layer (`user`), the drafts typed since, and the value the
 * host runs now (`value`). It says what every control shows, where the value
 * a reset returns to comes from (the defaults, the profile or the preset),
 * whether the saved layer overrides it, which drafts are refused (with
 * `resolveConfig`'s message in the card's words), which stages the caps make
 * dead, what a chosen preset sets, the values of the saved section the
 * breaker leaves out (or a saved section it refuses whole), what each fold
 * sums up, and the writes a save makes, all in the card's language (`words`).
 * No DOM, no host: the unit tests run it in Node.
 */
import { resolveConfig, type BreakerConfig } from '../src/lib/config/config.js';
import { configText, refusalOf } from '../src/lib/config/messages.js';
import { PRESETS, presetConfig } from '../src/lib/config/preset.js';
import { droppedKey, leftOut, removeFromSection, resolveStored, resolveWrite, sectionValueAt, type DroppedValue } from '../src/lib/config/stored.js';
import { shown as bounded } from '../src/lib/setting/check.js';
import type { ConfigMessage } from '../src/lib/text/refusal.js';
import { SETTINGS } from '../src/lib/tracks/meta.js';
import { format, parse } from './codec.js';
import { COPY, type Words } from './copy.js';
import { groupsFor, subKey, topKey, type Field, type Fold } from './fields.js';
import { isPlainObject, mergeLayers, messageOf, sameValue, type Layer } from './layers.js';
import { deadStages } from './stages.js';
import { inCardWords } from './wording.js';

/** What the person did to a field since the last save. */
export type Draft = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'reset' };

export interface FieldView {
  readonly field: Field;
  /** The label with what it belongs to ("Stale track › Gate after"), for sentences that name it out of place. */
  readonly fullLabel: string;
  /** What the control shows: the draft, or the value a save would run with (the saved one while that is refused). */
  readonly text: string;
  /** What a reset returns to: the value without the user's own. */
  readonly defaultText: string;
  /** Where `defaultText` comes from: the defaults and the profile, or the preset chosen. */
  readonly defaultFrom: 'default' | 'preset';
  /** Whether the saved user layer holds this field (a draft alone never makes it so). */
  readonly overridden: boolean;
  /** Overridden, and no reset staged yet: Reset to default is offered. */
  readonly resettable: boolean;
  /** settings.yaml's value of this field is left out (the breaker refuses it): why, in the card's words. */
  readonly dropped: string | undefined;
  /** That value is still in the section: Remove from settings.yaml is offered (a reset, staged). */
  readonly removable: boolean;
  readonly staged: boolean;
  /** A sub-setting of an opt-in track that is off. */
  readonly disabled: boolean;
  /** Why this field's draft (or saved value) cannot be saved: `resolveConfig`'s message in the card's words, or the card's own. */
  readonly error: string | undefined;
  /** Legal but likely unmeant: an advisory stage this value makes unreachable (stages.ts). */
  readonly warning: string | undefined;
  /** Host aliases: the entries below the user's own (the defaults, the profile), which always apply; shown read-only. */
  readonly fixed: readonly string[];
}

/** A field whose draft holds Save back, as the footer names it. */
export interface Problem {
  readonly path: string;
  readonly label: string;
}

/** A fold as the card shows it closed: its title, a one-line summary of its values, and what its fields hold. */
export interface FoldView {
  readonly id: string;
  readonly title: string;
  /** A track's fold opens under its switch (this path); the others are a row of their own. */
  readonly under: string | undefined;
  readonly summary: string;
  readonly staged: boolean;
  readonly overridden: boolean;
  /** A field in it has a refused draft, or a value of settings.yaml left out. */
  readonly problem: boolean;
}

export interface GroupView {
  readonly id: string;
  readonly title: string;
  /** Every field of the group in display order; a folded one names its fold (`field.fold`). */
  readonly fields: readonly FieldView[];
  readonly folds: readonly FoldView[];
}

/** One top-level key a save writes; `value: undefined` removes it from the user layer. */
export interface Write {
  readonly key: string;
  readonly value: unknown;
}

/** A value of the saved section (settings.yaml) the breaker leaves out, and what the drafts do to it. */
export interface DroppedView {
  /** Where it is in the section, as the refusal names it: `onlimit`, `window`, `limits.exactt`. */
  readonly path: string;
  /** The value as settings.yaml holds it, bounded. */
  readonly written: string;
  /** Why it is left out: `resolveConfig`'s refusal in the card's language, with YAML's words (it is the file's value). */
  readonly message: string;
  /** The field that shows this setting, where the card has one: a value typed there replaces it. */
  readonly field: string | undefined;
  /** That field's label with its place, for the link that goes to it. */
  readonly fieldLabel: string | undefined;
  /** `kept`: still in the section; `removed`: a save writes the section without it; `replaced`: a draft replaces it. */
  readonly state: 'kept' | 'removed' | 'replaced';
}

/** The saved section (settings.yaml) holds a value the breaker refuses, and no single value can be left out. */
export interface StoredProblem {
  /** `resolveConfig`'s refusal of it, in the card's words. */
  readonly message: string;
  /** The key the refusal names, as written in settings.yaml (`onlimit`, `limits.exactt`), when the section holds it. */
  readonly key: string | undefined;
  /** Reset of that key: the section without it. */
  readonly fix: readonly Write[];
  /** Reset of the whole section. */
  readonly clear: readonly Write[];
  /** What runs meanwhile: the profile's config and the defaults, or the settings in force before the edit. */
  readonly meanwhile: 'profile' | 'before';
}

/** What the preset chosen in the control sets, read from its parts (src/lib/config/preset.ts). */
export interface PresetPreview {
  readonly name: string;
  /** `adds`: a draft chooses it; `removes`: a draft drops the saved one; `applies`: it is saved. */
  readonly change: 'adds' | 'removes' | 'applies';
  readonly lines: readonly PresetLine[];
}

export interface PresetLine {
  readonly path: string;
  readonly label: string;
  /** What the preset sets. */
  readonly value: string;
  /** What applies instead (a setting of the user's or the profile's, or, when it is dropped, what comes back). */
  readonly instead: string | undefined;
}

export interface FormView {
  readonly groups: readonly GroupView[];
  /** Any draft is staged: the header says Unsaved and Discard drops them. */
  readonly dirty: boolean;
  readonly invalid: boolean;
  /** The fields with a refused draft (or saved value), in display order. */
  readonly problems: readonly Problem[];
  /** A refusal no single field explains. */
  readonly error: string | undefined;
  /** What Save writes, in an order whose every step is itself a valid config. */
  readonly writes: readonly Write[];
  /** The values of the saved section the breaker leaves out (the rest applies). */
  readonly dropped: readonly DroppedView[];
  readonly stored: StoredProblem | undefined;
  readonly preset: PresetPreview | undefined;
}

/** What each track's setting turns on with `{}`, by its key: what its fields show while it is off. */
const TRACK_DEFAULTS: ReadonlyMap<string, Readonly<Record<string, unknown>>> = new Map(SETTINGS.map((setting) => [setting.key, setting.defaults as Readonly<Record<string, unknown>>]));

function isTrack(key: string): boolean {
  return TRACK_DEFAULTS.has(key);
}

function record(config: BreakerConfig): Readonly<Record<string, unknown>> {
  return config as unknown as Record<string, unknown>;
}

/** A field's value in a resolved config; a track's sub-setting reads the track's defaults while it is off. */
export function valueAt(config: BreakerConfig, path: string): unknown {
  const top = record(config)[topKey(path)];
  const sub = subKey(path);
  if (sub === undefined) return top;
  if (isPlainObject(top)) return top[sub];
  return TRACK_DEFAULTS.get(topKey(path))?.[sub];
}

/** Host aliases the user added or sent elsewhere: the entries of `mine` that differ from `below`. */
function ownEntries(mine: unknown, below: unknown): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  if (!isPlainObject(mine)) return own;
  for (const [key, value] of Object.entries(mine)) if (!isPlainObject(below) || !sameValue(below[key], value)) own[key] = value;
  return own;
}

/** What a layer without its value for a top-level key resolves to (the value below the user's). */
type Below = (layer: Layer) => BreakerConfig;

function without(layer: Layer, top: string): Layer {
  const next = { ...layer };
  delete next[top];
  return next;
}

/** Whether `user` holds this field, in the sense that re-inheriting would change it. */
function isOverridden(field: Field, user: Layer, below: Below): boolean {
  const top = topKey(field.path);
  const sub = subKey(field.path);
  if (!Object.hasOwn(user, top)) return false;
  const mine = user[top];
  if (sub !== undefined) return isPlainObject(mine) && Object.hasOwn(mine, sub);
  if (field.kind.type === 'track') return (mine === null) === (record(below(without(user, top)))[top] !== null);
  return true;
}

/** A map field edited as a whole, written as the entries that differ from the layers below. */
function mapOverride(field: Field, edited: Record<string, unknown>, below: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(edited)) if (!sameValue(below[key], value)) out[key] = value;
  // A merged map cannot lose a key from below; an empty list is how ignoreArgs says "none". The aliases box holds only the user's own.
  if (field.kind.type === 'lists') for (const key of Object.keys(below)) if (!Object.hasOwn(edited, key)) out[key] = [];
  return out;
}

/** The user layer with one draft applied, or the draft's format error. */
function stage(user: Layer, field: Field, draft: Draft, below: Below, words: Words): Layer | string {
  const top = topKey(field.path);
  const sub = subKey(field.path);
  const next: Record<string, unknown> = { ...user };
  const mine = user[top];
  const under = (): BreakerConfig => below(without(user, top));
  const onBelow = (): boolean => record(under())[top] !== null;
  if (draft.kind === 'reset') {
    if (sub === undefined) {
      delete next[top];
      return next;
    }
    if (!isPlainObject(mine)) return next;
    const rest = { ...mine };
    delete rest[sub];
    // `{}` still matters for a track the user turned on over layers that leave it off.
    if (Object.keys(rest).length === 0 && (!isTrack(top) || onBelow())) delete next[top];
    else next[top] = rest;
    return next;
  }
  const parsed = parse(field, draft.text, words);
  if ('error' in parsed) return parsed.error;
  const { value } = parsed;
  if (sub !== undefined) {
    next[top] = { ...(isPlainObject(mine) ? mine : {}), [sub]: value };
  } else if (field.kind.type === 'track') {
    // On or off against what lies below the user's own value: the defaults, the profile, and the preset.
    const on = onBelow();
    if (value === true) {
      if (on && mine === null) delete next[top];
      else if (!on && !isPlainObject(mine)) next[top] = {};
    } else if (on) next[top] = null;
    else delete next[top];
  } else if ((field.kind.type === 'lists' || field.kind.type === 'aliases') && isPlainObject(value)) {
    const override = mapOverride(field, value, record(under())[top] as Record<string, unknown>);
    if (Object.keys(override).length === 0) delete next[top];
    else next[top] = override;
  } else {
    next[top] = value;
  }
  return next;
}

/** Why layers do not resolve: `resolveConfig`'s refusal as data (rendered when shown), or a foreign error's text. */
type Refusal = ConfigMessage | string;

const NONE: ReadonlySet<string> = new Set();

/**
 * What a save of `user` would run with, or why the host refuses it: the host's
 * rule for a write (config/stored.ts `resolveWrite`), which may keep the values
 * the saved section leaves out (`kept`) and adds nothing refused.
 */
function attempt(base: Layer, user: Layer, kept: ReadonlySet<string> = NONE): { config: BreakerConfig } | { error: Refusal } {
  try {
    return { config: resolveWrite(base, mergeLayers(base, user), kept) };
  } catch (error) {
    return { error: refusalOf(error) ?? messageOf(error) };
  }
}

/** The saved section as the host resolves it (config/stored.ts): without the values it refuses, or refused whole. */
function attemptStored(base: Layer, user: Layer): { config: BreakerConfig; dropped: readonly DroppedValue[] } | { error: Refusal } {
  try {
    return resolveStored(base, mergeLayers(base, user));
  } catch (error) {
    return { error: refusalOf(error) ?? messageOf(error) };
  }
}

/** A refusal in English: the text whose backquoted path names the field it is about. */
function english(refusal: Refusal): string {
  return typeof refusal === 'string' ? refusal : configText(refusal);
}

/** Puts the writes in an order where every intermediate user layer still resolves (one field per write). */
export function orderWrites(base: Layer, user: Layer, writes: readonly Write[]): Write[] {
  const ordered: Write[] = [];
  const left = [...writes];
  let current: Record<string, unknown> = { ...user };
  const applied = (layer: Record<string, unknown>, w: Write): Record<string, unknown> => {
    const next = { ...layer };
    if (w.value === undefined) delete next[w.key];
    else next[w.key] = w.value;
    return next;
  };
  while (left.length > 0) {
    // The host takes each write over the section as it stands then, keeping what that section leaves out.
    const kept = leftOut(base, mergeLayers(base, current));
    let at = left.findIndex((w) => 'config' in attempt(base, applied(current, w), kept));
    if (at === -1) at = 0;
    const [w] = left.splice(at, 1);
    ordered.push(w!);
    current = applied(current, w!);
  }
  return ordered;
}

/** The first backquoted config path a message names (`limits.exact` in "`limits.exact` must be …"). */
function namedPath(message: string): string | undefined {
  return /`([^`]+)`/.exec(message)?.[1];
}

/** Whether a raw layer sets a field's path itself (a non-mapping at the top, `null` say, sets every path below it). */
function setsPath(layer: unknown, path: string): boolean {
  if (!isPlainObject(layer)) return false;
  const top = topKey(path);
  const sub = subKey(path);
  if (!Object.hasOwn(layer, top)) return false;
  const value = layer[top];
  return sub === undefined || !isPlainObject(value) || Object.hasOwn(value, sub);
}

/** A preset's settings as field paths and values: a mapping under a track or `limits` by sub-key, anything else whole. */
function presetLeaves(name: string, fields: ReadonlyMap<string, Field>): [string, unknown][] {
  const preset = PRESETS[name];
  if (preset === undefined) return [];
  const leaves: [string, unknown][] = [];
  for (const [top, value] of Object.entries(presetConfig(preset))) {
    const kind = fields.get(top)?.kind.type;
    if (isPlainObject(value) && kind !== 'lists' && kind !== 'aliases') for (const [sub, inner] of Object.entries(value)) leaves.push([`${top}.${sub}`, inner]);
    else leaves.push([top, value]);
  }
  return leaves;
}

/** The section a Reset of the key `named` leaves: without that key, or without it inside its top-level mapping. */
function resetKey(user: Layer, named: string): Write[] {
  const top = topKey(named);
  const sub = subKey(named);
  if (!Object.hasOwn(user, top)) return [];
  const mine = user[top];
  if (sub === undefined || !isPlainObject(mine) || !Object.hasOwn(mine, sub)) return [{ key: top, value: undefined }];
  const rest = { ...mine };
  delete rest[sub];
  return [{ key: top, value: Object.keys(rest).length === 0 ? undefined : rest }];
}

/** What a field's value comes to in a fold's one-line summary; `undefined`: off, counted rather than listed. */
function brief(view: FieldView, countsOff: boolean, words: Words): string | undefined {
  const { kind } = view.field;
  if (kind.type === 'lists' || kind.type === 'aliases') {
    const lines = view.fixed.length + view.text.split('\n').filter((line) => line.trim() !== '').length;
    return lines === 0 ? words.none : words.fold.lines(lines);
  }
  if (countsOff && kind.type === 'number' && kind.nullWord !== undefined && view.text.trim() === kind.nullWord) return undefined;
  return view.text.trim() === '' ? words.none : view.text.trim();
}

/** A fold as it reads closed: each value it holds, and what its fields say (staged, overridden, a problem). */
function foldView(fold: Fold, views: readonly FieldView[], words: Words): FoldView {
  const inside = views.filter((view) => view.field.fold === fold.id);
  const parts: string[] = [];
  let off = 0;
  for (const view of inside) {
    const value = brief(view, fold.countsOff, words);
    if (value === undefined) off += 1;
    else parts.push(words.fold.pair(view.field.label, value));
  }
  if (off > 0) parts.push(words.fold.off(off));
  return {
    id: fold.id,
    title: fold.title,
    under: fold.under,
    summary: parts.join(' · '),
    staged: inside.some((view) => view.staged),
    overridden: inside.some((view) => view.overridden),
    problem: inside.some((view) => view.error !== undefined || view.dropped !== undefined),
  };
}

/** The values the saved section leaves out, each with what the drafts do to it. */
function droppedViews(dropped: readonly DroppedValue[], user: Layer, candidate: Layer, fields: ReadonlyMap<string, Field>, fullLabel: (field: Field) => string, words: Words): DroppedView[] {
  return dropped.map((drop) => {
    const was = sectionValueAt(user, drop.path);
    const now = sectionValueAt(candidate, drop.path);
    const field = fields.get(drop.path);
    return {
      path: drop.path,
      written: bounded(was),
      message: words.refusal(drop.refusal),
      field: field?.path,
      fieldLabel: field === undefined ? undefined : fullLabel(field),
      state: sameValue(now, was) ? 'kept' : now === undefined ? 'removed' : 'replaced',
    };
  });
}

/** What a reset draft of a value left out that no field shows does: the section without it (`onlimit`, `limits.exactt`). */
function removals(dropped: readonly DroppedValue[], typed: ReadonlyMap<string, Draft>, fields: ReadonlyMap<string, Field>): string[] {
  return dropped.filter((drop) => !fields.has(drop.path) && typed.get(drop.path)?.kind === 'reset').map((drop) => drop.path);
}

/**
 * Everything the card renders, from the layers and the drafts. `value` is what
 * the host runs now (the namespace's resolved value): while the saved section
 * is refused whole, that is what the fields show. A value of the saved
 * section the breaker refuses is left out, as the host leaves it out, and the
 * rest is shown as it applies.
 */
export function viewForm(base: Layer, user: Layer, typed: ReadonlyMap<string, Draft>, words: Words = COPY, value?: unknown): FormView {
  const plain = (refusal: Refusal): string => inCardWords(refusal, undefined, words);
  const lowerTry = attempt(base, {});
  if ('error' in lowerTry) {
    return { groups: [], dirty: false, invalid: true, problems: [], error: words.profileInvalid(plain(lowerTry.error)), writes: [], dropped: [], stored: undefined, preset: undefined };
  }
  const lower = lowerTry.config;
  const storedTry = attemptStored(base, user);
  const leftOutNow = 'config' in storedTry ? storedTry.dropped : [];
  // A save may keep what the saved section leaves out: the host takes it (config/stored.ts resolveWrite).
  const kept = new Set(leftOutNow.map(droppedKey));
  const below: Below = (layer) => {
    const result = attempt(base, layer, kept);
    return 'config' in result ? result.config : lower;
  };
  const running = ((): BreakerConfig => {
    try {
      return value === undefined ? lower : resolveConfig(value);
    } catch {
      return lower;
    }
  })();
  const saved = 'config' in storedTry ? storedTry.config : running;
  const storedError = 'error' in storedTry ? storedTry.error : undefined;
  const limitKeys = Object.keys(saved.limits);
  const groups = groupsFor(limitKeys, words);
  const fields = new Map(groups.flatMap((g) => g.fields.map((f) => [f.path, f] as const)));
  const fullLabel = (field: Field): string => words.within(field.within, field.label);
  const ownAliases = (config: BreakerConfig, layer: Layer): string => {
    const field = fields.get('hostAliases')!;
    return format(field, ownEntries(config.hostAliases, below(without(layer, 'hostAliases')).hostAliases));
  };
  const shownText = (field: Field, config: BreakerConfig, layer: Layer): string =>
    field.kind.type === 'aliases' ? ownAliases(config, layer) : format(field, valueAt(config, field.path));

  // A draft that reads as what the field shows without it is no edit: focusing a field and retyping it creates no override.
  // Drafts apply in display order, the preset first, so what they mean does not depend on the order they were typed in;
  // the removals of values left out that no field shows come before them.
  const stored = storedError === undefined ? undefined : english(storedError);
  const isStored = (refusal: Refusal): boolean => stored !== undefined && english(refusal) === stored;
  const drafts = new Map<string, Draft>();
  const errors = new Map<string, Refusal>();
  let candidate: Layer = user;
  for (const path of removals(leftOutNow, typed, fields)) {
    drafts.set(path, { kind: 'reset' });
    candidate = removeFromSection(candidate, path);
  }
  for (const [path, field] of presetFirst(fields)) {
    const draft = typed.get(path);
    if (draft === undefined) continue;
    if (draft.kind === 'text') {
      const so = attempt(base, candidate, kept);
      const before = 'config' in so ? shownText(field, so.config, candidate) : shownText(field, saved, user);
      if (draft.text.trim() === before.trim()) continue;
    }
    drafts.set(path, draft);
    const staged = stage(candidate, field, draft, below, words);
    if (typeof staged === 'string') errors.set(path, staged);
    else candidate = staged;
  }
  // Each draft alone over the saved layer: its own refusal belongs under its own field (the saved section's own is not the draft's).
  for (const [path, draft] of drafts) {
    const field = fields.get(path);
    if (errors.has(path) || field === undefined) continue;
    const alone = stage(user, field, draft, below, words);
    if (typeof alone === 'string') continue;
    const result = attempt(base, alone, kept);
    if ('error' in result && !isStored(result.error)) errors.set(path, result.error);
  }
  let formError: string | undefined;
  const combined = attempt(base, candidate, kept);
  if ('error' in combined && errors.size === 0) {
    const named = namedPath(english(combined.error));
    if (named !== undefined && fields.has(named) && (drafts.has(named) || isStored(combined.error))) errors.set(named, combined.error);
    else if (!isStored(combined.error)) formError = inCardWords(combined.error, named === undefined ? undefined : fields.get(named), words);
  }
  const shown = 'config' in combined ? combined.config : saved;
  const layerShown = 'config' in combined ? candidate : user;
  // Warnings follow what a save would run with; while that is refused, what runs now.
  const warnings = deadStages(shown, words);
  const dropOf = new Map(leftOutNow.map((drop) => [drop.path, drop] as const));
  const view = (field: Field): FieldView => {
    const draft = drafts.get(field.path);
    const top = topKey(field.path);
    const sub = subKey(field.path);
    const error = errors.get(field.path);
    const drop = dropOf.get(field.path);
    // A value left out that the drafts keep: the field shows what applies instead, and why its own is left out.
    const keeps = drop !== undefined && sameValue(sectionValueAt(candidate, field.path), sectionValueAt(user, field.path));
    const overridden = drop === undefined && isOverridden(field, user, below);
    // What a reset returns to, over the drafts when they resolve (a preset chosen and not yet saved included).
    const resetLayer = stage(layerShown, field, { kind: 'reset' }, below, words) as Layer;
    const under = below(resetLayer);
    const preset = under.preset === null ? undefined : PRESETS[under.preset];
    const fromPreset = preset !== undefined && setsPath(presetConfig(preset), field.path) && !setsPath(mergeLayers(base, resetLayer), field.path);
    const typedDraft = drafts.get(field.path);
    let text: string;
    if (typedDraft?.kind === 'text') text = typedDraft.text;
    else if (typedDraft?.kind === 'reset') text = shownText(field, under, resetLayer);
    else text = shownText(field, shown, layerShown);
    return {
      field,
      fullLabel: fullLabel(field),
      text,
      defaultText: field.kind.type === 'aliases' ? '' : format(field, valueAt(under, field.path)),
      defaultFrom: fromPreset ? 'preset' : 'default',
      overridden,
      resettable: overridden && draft?.kind !== 'reset',
      dropped: keeps ? words.dropped.field(inCardWords(drop.refusal, field, words)) : undefined,
      removable: keeps,
      staged: draft !== undefined,
      disabled: sub !== undefined && isTrack(top) && record(shown)[top] === null,
      error: error === undefined ? undefined : inCardWords(error, field, words),
      warning: warnings.get(field.path),
      fixed:
        field.kind.type === 'aliases'
          ? format(field, below(without(layerShown, 'hostAliases')).hostAliases)
              .split('\n')
              .filter((line) => line !== '')
          : [],
    };
  };
  const views = groups.map((g) => {
    const fieldViews = g.fields.map(view);
    return { id: g.id, title: g.title, fields: fieldViews, folds: g.folds.map((fold) => foldView(fold, fieldViews, words)) };
  });
  const invalid = errors.size > 0 || 'error' in combined;
  const keys = new Set([...Object.keys(user), ...Object.keys(candidate)]);
  const writes: Write[] = invalid ? [] : [...keys].filter((k) => !sameValue(user[k], candidate[k])).map((k) => ({ key: k, value: candidate[k] }));

  return {
    groups: views,
    dirty: drafts.size > 0,
    invalid,
    problems: views.flatMap((g) => g.fields.filter((f) => f.error !== undefined).map((f) => ({ path: f.field.path, label: f.fullLabel }))),
    error: formError,
    writes: orderWrites(base, user, writes),
    dropped: droppedViews(leftOutNow, user, candidate, fields, fullLabel, words),
    stored: storedError === undefined ? undefined : storedProblem(base, user, storedError, fields, running, lower, words),
    preset: presetPreview(saved, shown, drafts, fields, below, user, fullLabel, words),
  };
}

/** The fields in the order drafts apply: the preset first, then display order. */
function presetFirst(fields: ReadonlyMap<string, Field>): [string, Field][] {
  const preset = fields.get('preset');
  const rest = [...fields].filter(([path]) => path !== 'preset');
  return preset === undefined ? rest : [['preset', preset], ...rest];
}

/** A saved section refused whole: its refusal, the key it names, and the resets of that key and of the section. */
function storedProblem(base: Layer, user: Layer, error: Refusal, fields: ReadonlyMap<string, Field>, running: BreakerConfig, lower: BreakerConfig, words: Words): StoredProblem {
  const named = namedPath(english(error));
  const fix = named === undefined ? [] : resetKey(user, named);
  const first = fix[0]?.key;
  const rest = Object.keys(user)
    .filter((key) => key !== first)
    .map((key) => ({ key, value: undefined }));
  return {
    message: inCardWords(error, named === undefined ? undefined : fields.get(named), words),
    key: fix.length === 0 ? undefined : named,
    fix,
    clear: [...(first === undefined ? [] : [{ key: first, value: undefined }]), ...orderWrites(base, user, rest)],
    meanwhile: sameValue(running, lower) ? 'profile' : 'before',
  };
}

/** The preset the control shows, and what it sets; a draft that drops the saved one lists what it set. */
function presetPreview(
  saved: BreakerConfig,
  shown: BreakerConfig,
  drafts: ReadonlyMap<string, Draft>,
  fields: ReadonlyMap<string, Field>,
  below: Below,
  user: Layer,
  fullLabel: (field: Field) => string,
  words: Words,
): PresetPreview | undefined {
  const presetDraft = drafts.get('preset');
  const chosen = presetDraft === undefined ? saved.preset : presetDraft.kind === 'reset' ? below(without(user, 'preset')).preset : (parse(fields.get('preset')!, presetDraft.text, words) as { value: unknown }).value;
  const name = typeof chosen === 'string' && Object.hasOwn(PRESETS, chosen) ? chosen : saved.preset;
  if (name === null || !Object.hasOwn(PRESETS, name)) return undefined;
  const change = name === saved.preset ? (chosen === name ? 'applies' : 'removes') : 'adds';
  const lines = presetLeaves(name, fields).flatMap(([path, set]): PresetLine[] => {
    const field = fields.get(path);
    if (field === undefined) return [];
    const value = format(field, set);
    // A sub-setting of a track that is off reads as the track: off (not the defaults an off track's fields show).
    const top = topKey(path);
    const trackOff = subKey(path) !== undefined && isTrack(top) && record(shown)[top] === null;
    const now = trackOff ? format(fields.get(top)!, null) : format(field, valueAt(shown, path));
    return [{ path, label: fullLabel(field), value, instead: now === value ? undefined : now }];
  });
  return { name, change, lines };
}

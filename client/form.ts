/**
 * The card's staged form, as a pure function of three things: the row's config
 * (`base`), the saved user layer (`user`) and the drafts typed since. It says
 * what every control shows, what each field's default is, whether the saved
 * layer overrides it, which drafts are refused (with `resolveConfig`'s
 * message in the card's words, or the card's own), which stages the caps make
 * dead, and the writes a save makes, all in the card's language (`words`).
 * No DOM, no host: the unit tests run it in Node.
 */
import { DUPLICATE_TEXT_DEFAULTS, EDIT_RETRY_DEFAULTS, GUESS_DEFAULTS, SEQUENCE_DEFAULTS, SPIN_DEFAULTS, STALE_DEFAULTS, TIMEOUTS_DEFAULTS, type BreakerConfig } from '../src/lib/config/config.js';
import { configText, refusalOf, type ConfigMessage } from '../src/lib/config/messages.js';
import { format, parse } from './codec.js';
import { COPY, type Words } from './copy.js';
import { groupsFor, subKey, topKey, type Field } from './fields.js';
import { effectiveConfig, isPlainObject, mergeLayers, messageOf, sameValue, type Layer } from './layers.js';
import { deadStages } from './stages.js';
import { inCardWords } from './wording.js';

/** What the person did to a field since the last save. */
export type Draft = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'reset' };

export interface FieldView {
  readonly field: Field;
  /** What the control shows: the draft, or the effective value. */
  readonly text: string;
  /** What a reset returns to: the value without the user layer. */
  readonly defaultText: string;
  /** Whether the saved user layer holds this field (a draft alone never makes it so). */
  readonly overridden: boolean;
  /** Overridden, and no reset staged yet: Reset to default is offered. */
  readonly resettable: boolean;
  readonly staged: boolean;
  /** A sub-setting of an opt-in track that is off. */
  readonly disabled: boolean;
  /** Why this field's draft cannot be saved: `resolveConfig`'s message in the card's words, or the card's own. */
  readonly error: string | undefined;
  /** Legal but likely unmeant: an advisory stage this value makes unreachable (stages.ts). */
  readonly warning: string | undefined;
}

/** A field whose draft holds Save back, as the footer names it. */
export interface Problem {
  readonly path: string;
  readonly label: string;
}

export interface GroupView {
  readonly id: string;
  readonly title: string;
  readonly fields: readonly FieldView[];
}

/** One top-level key a save writes; `value: undefined` removes it from the user layer. */
export interface Write {
  readonly key: string;
  readonly value: unknown;
}

export interface FormView {
  readonly groups: readonly GroupView[];
  /** Drafts that would change the user layer, or that cannot be saved. */
  readonly dirty: boolean;
  readonly invalid: boolean;
  /** The fields with a refused draft, in display order. */
  readonly problems: readonly Problem[];
  /** A refusal no single field explains. */
  readonly error: string | undefined;
  /** What Save writes, in an order whose every step is itself a valid config. */
  readonly writes: readonly Write[];
}

type Tracks = 'sequence' | 'duplicateText' | 'stale' | 'spin' | 'guess' | 'editRetry' | 'timeouts';
const TRACK_DEFAULTS: Readonly<Record<Tracks, Readonly<Record<string, unknown>>>> = {
  sequence: SEQUENCE_DEFAULTS as unknown as Record<string, unknown>,
  duplicateText: DUPLICATE_TEXT_DEFAULTS as unknown as Record<string, unknown>,
  stale: STALE_DEFAULTS as unknown as Record<string, unknown>,
  spin: SPIN_DEFAULTS as unknown as Record<string, unknown>,
  guess: GUESS_DEFAULTS as unknown as Record<string, unknown>,
  editRetry: EDIT_RETRY_DEFAULTS as unknown as Record<string, unknown>,
  timeouts: TIMEOUTS_DEFAULTS as unknown as Record<string, unknown>,
};

function isTrack(key: string): key is Tracks {
  return Object.hasOwn(TRACK_DEFAULTS, key);
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
  const key = topKey(path);
  return isTrack(key) ? TRACK_DEFAULTS[key][sub] : undefined;
}

/** Whether `user` holds this field, in the sense that re-inheriting would change it. */
export function isOverridden(field: Field, user: Layer, lower: BreakerConfig): boolean {
  const top = topKey(field.path);
  const sub = subKey(field.path);
  if (!Object.hasOwn(user, top)) return false;
  const mine = user[top];
  if (sub !== undefined) return isPlainObject(mine) && Object.hasOwn(mine, sub);
  if (field.kind.type === 'track') return (mine === null) === (record(lower)[top] !== null);
  return true;
}

/** A map field edited as a whole, written as the entries that differ from the layers below. */
function mapOverride(field: Field, edited: Record<string, unknown>, below: Record<string, unknown>, words: Words): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(edited)) if (!sameValue(below[key], value)) out[key] = value;
  for (const key of Object.keys(below)) {
    if (Object.hasOwn(edited, key)) continue;
    // A merged map cannot lose a key from below; an empty list is how ignoreArgs says "none".
    if (field.kind.type === 'lists') out[key] = [];
    else return words.cannotDrop(field.path, key);
  }
  return out;
}

/** The user layer with one draft applied, or the draft's format error. */
export function stage(user: Layer, lower: BreakerConfig, field: Field, draft: Draft, words: Words = COPY): Layer | string {
  const top = topKey(field.path);
  const sub = subKey(field.path);
  const next: Record<string, unknown> = { ...user };
  const mine = user[top];
  const lowerOn = record(lower)[top] !== null;
  if (draft.kind === 'reset') {
    if (sub === undefined) {
      delete next[top];
      return next;
    }
    if (!isPlainObject(mine)) return next;
    const rest = { ...mine };
    delete rest[sub];
    // `{}` still matters for a track the user turned on over a profile that leaves it off.
    if (Object.keys(rest).length === 0 && (!isTrack(top) || lowerOn)) delete next[top];
    else next[top] = rest;
    return next;
  }
  const parsed = parse(field, draft.text, words);
  if ('error' in parsed) return parsed.error;
  const { value } = parsed;
  const { kind } = field;
  if (kind.type === 'number' && kind.whole === true && typeof value === 'number' && !Number.isInteger(value)) {
    return words.wholeCap(field.path, value, kind.nullWord ?? 'null');
  }
  if (sub !== undefined) {
    next[top] = { ...(isPlainObject(mine) ? mine : {}), [sub]: value };
  } else if (field.kind.type === 'track') {
    if (value === true) {
      if (lowerOn && mine === null) delete next[top];
      else if (!lowerOn && !isPlainObject(mine)) next[top] = {};
    } else if (lowerOn) next[top] = null;
    else delete next[top];
  } else if ((field.kind.type === 'lists' || field.kind.type === 'aliases') && isPlainObject(value)) {
    const override = mapOverride(field, value, record(lower)[top] as Record<string, unknown>, words);
    if (typeof override === 'string') return override;
    if (Object.keys(override).length === 0) delete next[top];
    else next[top] = override;
  } else {
    next[top] = value;
  }
  return next;
}

/** Why layers do not resolve: `resolveConfig`'s refusal as data (rendered when shown), or a foreign error's text. */
type Refusal = ConfigMessage | string;

function attempt(base: Layer, user: Layer): { config: BreakerConfig } | { error: Refusal } {
  try {
    return { config: effectiveConfig(base, user) };
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
    let at = left.findIndex((w) => 'config' in attempt(base, applied(current, w)));
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

/** Everything the card renders, from the layers and the drafts. */
export function viewForm(base: Layer, user: Layer, typed: ReadonlyMap<string, Draft>, words: Words = COPY): FormView {
  const plain = (refusal: Refusal): string => inCardWords(refusal, undefined, words);
  const lowerTry = attempt(base, {});
  if ('error' in lowerTry) {
    return { groups: [], dirty: false, invalid: true, problems: [], error: words.profileInvalid(plain(lowerTry.error)), writes: [] };
  }
  const lower = lowerTry.config;
  const savedTry = attempt(base, user);
  const saved = 'config' in savedTry ? savedTry.config : lower;
  const limitKeys = Object.keys(saved.limits);
  const groups = groupsFor(limitKeys, words);
  const fields = new Map(groups.flatMap((g) => g.fields.map((f) => [f.path, f] as const)));

  // A draft that reads as the saved value is no edit: focusing a field and retyping it creates no override.
  const drafts = new Map<string, Draft>();
  for (const [path, draft] of typed) {
    const field = fields.get(path);
    if (field === undefined) continue;
    if (draft.kind === 'text' && draft.text.trim() === format(field, valueAt(saved, path))) continue;
    drafts.set(path, draft);
  }

  const errors = new Map<string, Refusal>();
  let candidate: Layer = user;
  for (const [path, draft] of drafts) {
    const field = fields.get(path);
    if (field === undefined) continue;
    const staged = stage(candidate, lower, field, draft, words);
    if (typeof staged === 'string') errors.set(path, staged);
    else candidate = staged;
  }
  // Each draft alone over the saved layer: its own refusal belongs under its own field.
  for (const [path, draft] of drafts) {
    const field = fields.get(path);
    if (field === undefined || errors.has(path)) continue;
    const alone = stage(user, lower, field, draft, words);
    if (typeof alone === 'string') continue;
    const result = attempt(base, alone);
    if ('error' in result) errors.set(path, result.error);
  }
  let formError = 'error' in savedTry ? words.savedInvalid(plain(savedTry.error)) : undefined;
  const combined = attempt(base, candidate);
  if ('error' in combined && errors.size === 0) {
    const named = namedPath(english(combined.error));
    if (named !== undefined && drafts.has(named)) errors.set(named, combined.error);
    else formError = inCardWords(combined.error, named === undefined ? undefined : fields.get(named), words);
  }
  // Warnings follow what a save would run with; while that is refused, what runs now.
  const warnings = deadStages('config' in combined ? combined.config : saved, words);
  const merged = mergeLayers(base, candidate) as Record<string, unknown>;
  const view = (field: Field): FieldView => {
    const draft = drafts.get(field.path);
    const shown = typed.get(field.path);
    const top = topKey(field.path);
    const sub = subKey(field.path);
    const error = errors.get(field.path);
    const overridden = isOverridden(field, user, lower);
    return {
      field,
      text: shown === undefined ? format(field, valueAt(saved, field.path)) : shown.kind === 'text' ? shown.text : format(field, valueAt(lower, field.path)),
      defaultText: format(field, valueAt(lower, field.path)),
      overridden,
      resettable: overridden && draft?.kind !== 'reset',
      staged: draft !== undefined,
      disabled: sub !== undefined && isTrack(top) && !isPlainObject(merged[top]),
      error: error === undefined ? undefined : inCardWords(error, field, words),
      warning: warnings.get(field.path),
    };
  };
  const views = groups.map((g) => ({ id: g.id, title: g.title, fields: g.fields.map(view) }));
  const invalid = errors.size > 0 || 'error' in combined;
  const keys = new Set([...Object.keys(user), ...Object.keys(candidate)]);
  const writes: Write[] = invalid ? [] : [...keys].filter((k) => !sameValue(user[k], candidate[k])).map((k) => ({ key: k, value: candidate[k] }));
  return {
    groups: views,
    dirty: writes.length > 0 || invalid,
    invalid,
    problems: views.flatMap((g) => g.fields.filter((f) => f.error !== undefined).map((f) => ({ path: f.field.path, label: f.field.label }))),
    error: formError,
    writes: orderWrites(base, user, writes),
  };
}

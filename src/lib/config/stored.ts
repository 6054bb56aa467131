/**
 * The section settings.yaml holds, resolved as the host and the card both
 * resolve it: a value our checks refuse costs that value, not the section.
 *
 * A profile row is resolved by `resolveConfig` and fails loud (P11): the
 * operator is at the keyboard when DSH refuses to start. A stored section is
 * met by DSH's settings service, which on a refusal drops the whole namespace
 * at boot and says nothing (docs/live-settings.md). So there, each refused
 * value is dropped (the value the refusal names, as the layers below it would
 * have it) and the rest resolves, the preset included; every drop is reported
 * with its refusal. A section where no value the refusal names can be dropped
 * (two values that only clash with the profile's) is refused whole.
 */
import { isMapping } from '../host/member.js';
import type { ConfigMessage } from '../text/refusal.js';
import { SETTINGS } from '../tracks/meta.js';
import { resolveConfig, type BreakerConfig } from './config.js';
import { ConfigError, configText, refusalOf } from './messages.js';

/** One value of the stored section left out, and why. */
export interface DroppedValue {
  /** Where it is, as the refusal names it: `onlimit`, `window`, `limits.exactt`, `stale.limit`. */
  readonly path: string;
  /** The refusal that dropped it. */
  readonly refusal: ConfigMessage;
}

export interface StoredResolution {
  readonly config: BreakerConfig;
  /** In the order they were dropped; empty when the section resolves as stored. */
  readonly dropped: readonly DroppedValue[];
}

/** More refused values than settings exist is no section anyone wrote by hand: refused whole. */
const MOST_DROPPED = 64;

/** `path` split at its first dot (a `limits` key may hold more: `host:api.example.com`), as `[top, sub]`. */
function split(layer: Readonly<Record<string, unknown>>, path: string): readonly [string, string | undefined] {
  const dot = path.indexOf('.');
  // A top-level key with a dot in it (an unknown key) is itself.
  if (dot === -1 || Object.hasOwn(layer, path)) return [path, undefined];
  return [path.slice(0, dot), path.slice(dot + 1)];
}

function at(layer: unknown, top: string, sub: string | undefined): unknown {
  if (!isMapping(layer) || !Object.hasOwn(layer, top)) return undefined;
  const value = layer[top];
  if (sub === undefined) return value;
  return isMapping(value) && Object.hasOwn(value, sub) ? value[sub] : undefined;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A stored section's value at `path` (as a refusal names it), or undefined when it sets none. */
export function sectionValueAt(layer: unknown, path: string): unknown {
  if (!isMapping(layer)) return undefined;
  const [top, sub] = split(layer, path);
  return at(layer, top, sub);
}

/** A track's setting: `{}` turns it on, so a mapping emptied by a removal stays. */
const TRACK_KEYS: ReadonlySet<string> = new Set(SETTINGS.map((setting) => setting.key));

/**
 * The stored section (the user layer alone) without its value at `path`: what
 * a Remove writes, and, laid over the row's config, what `withoutValue` gives.
 * A mapping it empties goes, unless it is a track's (`stale: {}` is on).
 */
export function removeFromSection(section: Readonly<Record<string, unknown>>, path: string): Record<string, unknown> {
  const [top, sub] = split(section, path);
  const next: Record<string, unknown> = { ...section };
  const value = section[top];
  if (sub === undefined || !isMapping(value)) {
    delete next[top];
    return next;
  }
  const rest: Record<string, unknown> = { ...value };
  delete rest[sub];
  if (Object.keys(rest).length === 0 && !TRACK_KEYS.has(top)) delete next[top];
  else next[top] = rest;
  return next;
}

/**
 * `merged` with its value at `path` as `base` has it: the section without
 * that value, laid over `base` (DSH's layering merges mappings key by key, so
 * putting back the layer below at one path is removing the section's part of
 * it). `undefined` when that changes nothing: the section does not set it.
 */
export function withoutValue(merged: Readonly<Record<string, unknown>>, base: unknown, path: string): Record<string, unknown> | undefined {
  const [top, sub] = split(merged, path);
  if (!Object.hasOwn(merged, top)) return undefined;
  const below = at(base, top, sub);
  if (same(at(merged, top, sub), below)) return undefined;
  const next: Record<string, unknown> = { ...merged };
  if (sub === undefined) {
    if (below === undefined) delete next[top];
    else next[top] = below;
    return next;
  }
  const mapping: Record<string, unknown> = { ...(merged[top] as Record<string, unknown>) };
  if (below === undefined) delete mapping[sub];
  else mapping[sub] = below;
  next[top] = mapping;
  return next;
}

/** Every config path a refusal names, in its order (backquoted in its English text): its subject first. */
export function namedPaths(refusal: ConfigMessage): string[] {
  const paths: string[] = [];
  for (const [, quoted = ''] of configText(refusal).matchAll(/`([^`]+)`/g)) {
    // `localHosts: ask` names `localHosts`.
    const path = quoted.split(/\s/)[0]!.replace(/:$/, '');
    if (path !== '' && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/** The first value a refusal names that the section sets, else the first mapping around one; the layer without it. */
function dropOne(merged: Readonly<Record<string, unknown>>, base: unknown, refusal: ConfigMessage): { path: string; next: Record<string, unknown> } | undefined {
  const paths = namedPaths(refusal);
  const tops = paths.map((path) => split(merged, path)[0]).filter((top) => !paths.includes(top));
  for (const path of [...paths, ...tops]) {
    const next = withoutValue(merged, base, path);
    if (next !== undefined) return { path, next };
  }
  return undefined;
}

/**
 * Resolves `merged` (the stored section laid over `base`, the row's config):
 * as `resolveConfig` does when it can, else without each value it refuses.
 * Throws the first refusal when a refused value cannot be dropped.
 */
export function resolveStored(base: unknown, merged: unknown): StoredResolution {
  const dropped: DroppedValue[] = [];
  let layer = merged;
  let first: unknown;
  for (;;) {
    try {
      return { config: resolveConfig(layer), dropped };
    } catch (error) {
      first ??= error;
      const refusal = refusalOf(error);
      const drop = refusal === undefined || !isMapping(layer) || dropped.length >= MOST_DROPPED ? undefined : dropOne(layer, base, refusal);
      // The section's own refusal, as the operator wrote it.
      if (drop === undefined) throw first;
      dropped.push({ path: drop.path, refusal: refusal! });
      layer = drop.next;
    }
  }
}

/** What a value left out is known by: where it is and what was refused there (its value included). */
export function droppedKey(drop: DroppedValue): string {
  return `${drop.path} ${configText(drop.refusal)}`;
}

/** The keys of the values a stored section leaves out (none when it resolves, or is refused whole). */
export function leftOut(base: unknown, merged: unknown): ReadonlySet<string> {
  try {
    return new Set(resolveStored(base, merged).dropped.map(droppedKey));
  } catch {
    return new Set();
  }
}

/**
 * A write over a stored section (`settings.update`, the card's Save): it may
 * keep what the stored section already leaves out (`kept`, by `droppedKey`),
 * so a bad line in settings.yaml does not block every other edit, but it adds
 * nothing refused: the first new refusal is thrown, or the section's own when
 * it is refused whole.
 */
export function resolveWrite(base: unknown, merged: unknown, kept: ReadonlySet<string>): BreakerConfig {
  try {
    return resolveConfig(merged);
  } catch (error) {
    if (kept.size === 0) throw error;
    const { config, dropped } = resolveStored(base, merged);
    const added = dropped.find((drop) => !kept.has(droppedKey(drop)));
    if (added !== undefined) throw new ConfigError(added.refusal);
    return config;
  }
}

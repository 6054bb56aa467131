/**
 * The settings service's layering, reproduced so the card can predict what a
 * save resolves to: DSH's `@deepseek-ai/dsh-settings` lays the user section
 * over the row's config (`base`) with plain objects merging recursively and
 * everything else (arrays, `null`) replacing. The breaker then lays that over
 * its DEFAULTS with `resolveConfig`, the same call `apply` makes at load.
 */
import { resolveConfig, type BreakerConfig } from '../src/lib/config/config.js';

export type Layer = Readonly<Record<string, unknown>>;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `over` laid onto `under`: plain objects merge key by key, anything else replaces. */
export function mergeLayers(under: unknown, over: unknown): unknown {
  if (over === undefined) return under;
  if (!isPlainObject(under) || !isPlainObject(over)) return over;
  const merged: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) merged[key] = key in merged ? mergeLayers(merged[key], value) : value;
  return merged;
}

/** The config the breaker runs with for these layers; throws our load-time message when they are invalid. */
export function effectiveConfig(base: Layer, user: Layer): BreakerConfig {
  return resolveConfig(mergeLayers(base, user));
}

/** A message from `resolveConfig` without its `repeat-tool-breaker:` prefix (the card already names the plugin). */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^repeat-tool-breaker: /, '');
}

/** Structural equality for JSON-shaped values. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

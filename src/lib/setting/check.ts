/**
 * What every check of a setting is made of, the core's and each track's: a
 * refusal thrown as data (a template id and its params), the offending value
 * shown bounded, and the "did you mean" of a misspelt name. The templates are
 * text/refusal.ts's and each track's own; config/messages.ts says a refusal
 * in words (`ConfigError`), so a check never needs the whole dictionary.
 */
import type { ConfigMessage, MessageParam } from '../text/refusal.js';
import { nearestName } from './nearest.js';

/** A check's refusal, as data; config/ turns it into a `ConfigError`, whose message is its English text. */
export class Refusal extends Error {
  readonly refusal: ConfigMessage;

  constructor(refusal: ConfigMessage) {
    super(refusal.id);
    this.refusal = refusal;
  }
}

export type Params = Readonly<Record<string, MessageParam>>;

/** Throws the refusal `id`, naming the key, the value and the fix through `params`. */
export function refuse(id: string, params: Params = {}): never {
  throw new Refusal({ id, params });
}

/** A message to nest in a refusal's params (a meaning, a hint). */
export function message(id: string, params: Params = {}): ConfigMessage {
  return { id, params };
}

/**
 * The "did you mean" part of a refusal: `id` naming the known name nearest to
 * `name` (nearest.ts), written out by `as` (its path, say), or nothing when no
 * known name is near.
 */
export function near(id: string, name: string, known: readonly string[], as: (closest: string) => string = (closest) => closest): MessageParam {
  const closest = nearestName(name, known);
  return closest === undefined ? '' : message(id, { name: as(closest) });
}

/** Renders an offending value for an error message, bounded so a huge value stays readable. */
export function shown(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'bigint') text = `${value}n`;
  // null included: JSON has it as `null`, as String does.
  else if (typeof value === 'object') {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Array.isArray(value) ? 'an array' : 'an object';
    }
  } else text = String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A whole number of at least `least`, or a refusal naming the key and what it means (`meaning`, a template id). */
export function atLeast(value: unknown, key: string, least: number, meaning: string): number {
  // Number.isInteger is false for every non-number.
  if (!Number.isInteger(value) || (value as number) < least) {
    refuse('atLeast', { key, least, got: shown(value), meaning: message(meaning) });
  }
  return value as number;
}

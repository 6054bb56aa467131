/**
 * Text in a control ↔ a config value, per field kind. Parsing never judges a
 * value: anything that is not syntax for the kind is passed on as typed, so
 * `resolveConfig` rejects it with the same message the plugin gives at load.
 * The only messages written here are about the card's own line formats.
 */
import { COPY, type Words } from './copy.js';
import type { Field } from './fields.js';
import { isPlainObject } from './layers.js';

export type Parsed = { readonly value: unknown } | { readonly error: string };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

function names(text: string): string[] {
  return text.split(/[\s,]+/).filter((name) => name !== '');
}

function lines(text: string): { line: string; at: number }[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), at: index + 1 }))
    .filter(({ line }) => line !== '');
}

/** The text a control shows for a value. */
export function format(field: Field, value: unknown): string {
  const { kind } = field;
  switch (kind.type) {
    case 'number':
      return value === null ? (kind.nullWord ?? 'null') : String(value);
    case 'choice':
      return value === null ? (kind.nullWord ?? 'null') : String(value);
    case 'flag':
      return value === true ? 'true' : 'false';
    case 'track':
      return value === null || value === undefined ? 'off' : 'on';
    case 'list':
      return Array.isArray(value) ? value.join(', ') : String(value);
    case 'lists':
      return isPlainObject(value)
        ? Object.entries(value)
            .map(([key, list]) => `${key}: ${Array.isArray(list) ? list.join(', ') : String(list)}`)
            .join('\n')
        : '';
    case 'aliases':
      return isPlainObject(value)
        ? Object.entries(value)
            .map(([from, to]) => `${from} = ${String(to)}`)
            .join('\n')
        : '';
  }
}

/** The value a control's text stands for. */
export function parse(field: Field, text: string, words: Words = COPY): Parsed {
  const { kind } = field;
  const trimmed = text.trim();
  switch (kind.type) {
    case 'number': {
      const word = trimmed.toLowerCase();
      if (kind.nullWord !== undefined && (word === kind.nullWord || word === 'off' || word === 'null')) return { value: null };
      return { value: NUMBER.test(trimmed) ? Number(trimmed) : trimmed };
    }
    case 'choice':
      return { value: kind.nullWord !== undefined && trimmed === kind.nullWord ? null : trimmed };
    case 'flag':
      return { value: trimmed === 'true' };
    case 'track':
      return { value: trimmed === 'on' };
    case 'list':
      return { value: names(trimmed) };
    case 'lists': {
      const map: Record<string, string[]> = {};
      for (const { line, at } of lines(text)) {
        const match = /^([^:\s]+)\s*:(.*)$/.exec(line);
        if (match === null) return { error: words.badLine(field.path, at, 'tool: name, name', line) };
        map[match[1]!] = names(match[2]!);
      }
      return { value: map };
    }
    case 'aliases': {
      const map: Record<string, string> = {};
      for (const { line, at } of lines(text)) {
        const match = /^(\S+)\s*=\s*(\S+)$/.exec(line);
        if (match === null) return { error: words.badLine(field.path, at, 'from.example = to.example', line) };
        map[match[1]!] = match[2]!;
      }
      return { value: map };
    }
  }
}

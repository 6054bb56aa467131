/**
 * The settings card's schema against the config it edits. The web UI builds
 * its form from the serialised schema (schemastery's `toJSON` form): a field's
 * type, floor, choices and sub-fields decide what an operator can enter. Read
 * here by a small reader of that form, the schema must admit every value the
 * card offers (the defaults and each documented alternative) and nothing
 * `resolveConfig` would refuse, and describe every field it shows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { DUPLICATE_TEXT_DEFAULTS } from '../../src/lib/tracks/duplicate-text.meta.js';
import { SEQUENCE } from '../../src/lib/tracks/sequence.meta.js';
import { createSettingsSchema, type SerializedSchema } from '../../src/lib/config/schema.js';
import { isMapping } from '../../src/lib/host/member.js';

interface Entry {
  type?: string;
  meta?: { min?: number; step?: number; description?: string; default?: unknown };
  dict?: Record<string, number>;
  inner?: number;
  sKey?: number;
  list?: number[];
  value?: unknown;
}

const json = createSettingsSchema().toJSON();

function entry(uid: number | undefined): Entry {
  const found = uid === undefined ? undefined : (json.refs[uid] as Entry | undefined);
  assert.ok(found !== undefined, `node ${uid} is in refs`);
  return found;
}

/** Whether the form described by node `uid` accepts `value`, as schemastery reads the serialised nodes. */
function admits(uid: number | undefined, value: unknown): boolean {
  const node = entry(uid);
  switch (node.type) {
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      const { min, step } = node.meta ?? {};
      return (min === undefined || value >= min) && (step === undefined || Number.isInteger(value / step));
    }
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'const':
      return 'value' in node && Object.is(node.value, value);
    case 'union':
      return (node.list ?? []).some((option) => admits(option, value));
    case 'array':
      return Array.isArray(value) && value.every((item) => admits(node.inner, item));
    case 'dict':
      return isMapping(value) && Object.entries(value).every(([key, item]) => admits(node.sKey, key) && admits(node.inner, item));
    case 'object':
      // schemastery drops keys an object does not declare (the config refuses them: a misspelt sub-key is named at load).
      return isMapping(value) && Object.entries(node.dict ?? {}).every(([key, uid]) => value[key] === undefined || admits(uid, value[key]));
    default:
      return false;
  }
}

function accepted(config: Record<string, unknown>): boolean {
  try {
    resolveConfig(config);
    return true;
  } catch {
    return false;
  }
}

const root = entry(json.uid);
const field = (key: string): number => {
  const uid = root.dict?.[key];
  assert.ok(uid !== undefined, `${key} is a field`);
  return uid;
};

/** Values an operator can pick or type, per field, besides the default. */
const OFFERED: Record<string, unknown[]> = {
  window: [4, 32],
  onLimit: ['ask', 'deny'],
  localHosts: ['deny', 'allow'],
  warnAt: [1, null],
  summarizeAt: [2, null],
  failWarnAt: [1, null],
  failLimit: [2, null],
  includeLocal: [true, false],
  previewChars: [1, 120],
  resultPreviewChars: [1],
  exclude: [[], ['fs_*', 'web_fetch']],
  include: [['bash']],
  ignoreArgs: [{ bash: ['description', 'timeoutMs'] }],
  hostAliases: [{ 'www.example.com': 'example.com' }],
  limits: [{ exact: 2, host: null, 'verb:curl': 4 }],
  sequence: [null, { length: 2, count: 2, limit: 2 }, { length: 4, count: 3, limit: null }],
  progress: ['ignore', 'results', 'changes', 'outcomes'],
  exemptionCeiling: [1, 5, null],
  stopAfter: [1, 3, null],
  duplicateText: [null, { minChars: 1, threshold: 2, windowMs: 1, cooldownMs: 0 }],
  stale: [null, { warnAt: 2, limit: 2 }, { warnAt: null, limit: 5 }, { warnAt: 3, limit: null }],
  spin: [null, { warnAt: 5, limit: 7 }, { warnAt: null, limit: 3 }],
  guess: [null, { warnAt: 4, limit: 6 }, { warnAt: 2, limit: null }],
  editRetry: [null, { warnAt: 3, limit: 4 }, { warnAt: 3, limit: 4, applied: 2, resent: 3 }],
  timeouts: [null, { warnAt: 3, limit: null }, { warnAt: 2, limit: 9 }],
  failureProgress: ['ignore', 'restart', 'outcomes'],
  preset: [null, 'recommended'],
};

/** Values the config refuses, per field: the form must not offer them. */
const REFUSED: Record<string, unknown[]> = {
  window: [3, 4.5, '8', null],
  onLimit: ['block', null],
  localHosts: ['maybe'],
  previewChars: [0, 2.5],
  resultPreviewChars: [0],
  failLimit: [1, 1.5],
  includeLocal: ['yes'],
  exclude: [[1], 'bash'],
  include: [[null]],
  ignoreArgs: [{ bash: 'description' }, { bash: [1] }],
  hostAliases: [['example.com']],
  limits: [{ exact: 1 }, { host: 'many' }, { exact: 1.5 }],
  sequence: [{ length: 1 }, { count: 1 }, { limit: 1 }, { length: 2.5 }, 'on'],
  progress: ['always'],
  exemptionCeiling: [0, 1.5],
  stopAfter: [0, 2.5],
  duplicateText: [{ minChars: 0 }, { threshold: 1 }, { windowMs: 0 }, { cooldownMs: -1 }, 'on'],
};

describe('the settings schema admits what the config accepts', () => {
  test('every field is a field of the card, and nothing else', () => {
    assert.equal(root.type, 'object');
    assert.deepEqual(Object.keys(root.dict ?? {}).sort(), Object.keys(DEFAULTS).sort());
    assert.deepEqual(Object.keys(OFFERED).sort(), Object.keys(DEFAULTS).sort(), 'every field has values to offer here');
  });

  for (const key of Object.keys(DEFAULTS)) {
    test(`${key}: its default and every value the card offers are admitted, and accepted by the config`, () => {
      const values = [(DEFAULTS as unknown as Record<string, unknown>)[key], ...(OFFERED[key] ?? [])];
      for (const value of values) {
        assert.equal(admits(field(key), value), true, `${key}: ${JSON.stringify(value)} admitted`);
        assert.equal(accepted({ [key]: value }), true, `${key}: ${JSON.stringify(value)} accepted`);
      }
    });
  }

  for (const [key, values] of Object.entries(REFUSED)) {
    test(`${key}: what the config refuses, the schema does not admit`, () => {
      for (const value of values) {
        assert.equal(accepted({ [key]: value }), false, `${key}: ${JSON.stringify(value)} refused`);
        assert.equal(admits(field(key), value), false, `${key}: ${JSON.stringify(value)} not admitted`);
      }
    });
  }

  test('the sub-fields of the opt-in tracks default to the values an empty mapping means', () => {
    const defaults = (key: string): Record<string, unknown> => {
      const union = entry(field(key));
      const mapping = (union.list ?? []).map(entry).find((node) => node.type === 'object');
      assert.ok(mapping?.dict !== undefined, `${key} offers a mapping`);
      return Object.fromEntries(Object.entries(mapping.dict).map(([sub, uid]) => [sub, entry(uid).meta?.default]));
    };
    assert.deepEqual(defaults('sequence'), { ...SEQUENCE.defaults });
    assert.deepEqual(defaults('duplicateText'), { ...DUPLICATE_TEXT_DEFAULTS });
  });
});

describe('the settings schema describes what it shows', () => {
  test('the namespace is described and defaults to an empty mapping', () => {
    assert.match(root.meta?.description ?? '', /loop breaker/);
    assert.deepEqual(root.meta?.default, {});
  });

  test('every field and sub-field, every cap of limits included, has a description of its own', () => {
    const described: string[] = [];
    const walk = (uid: number, path: string): void => {
      const node = entry(uid);
      for (const [key, child] of Object.entries(node.dict ?? {})) {
        const text = entry(child).meta?.description ?? '';
        assert.ok(text.length > 0, `${path}${key} is described`);
        described.push(text);
        walk(child, `${path}${key}.`);
      }
      for (const option of node.list ?? []) walk(option, path);
    };
    walk(json.uid, '');
    const caps = Object.keys(DEFAULTS.limits).map((measure) => described.find((text) => text.includes(`${measure} measure`)));
    assert.ok(caps.every((text) => text !== undefined), 'each cap names its measure');
    assert.equal(new Set(described).size, described.length, 'no two fields share a description');
  });

  test('Standard Schema names the plugin as its vendor', () => {
    assert.equal(createSettingsSchema()['~standard'].vendor, 'dsh-repeat-tool-breaker');
  });

  test('uids number the nodes depth first from the root, each once', () => {
    const seen: number[] = [];
    const walk = (uid: number): void => {
      seen.push(uid);
      const node = entry(uid);
      for (const child of Object.values(node.dict ?? {})) walk(child);
      if (node.inner !== undefined) walk(node.inner);
      if (node.sKey !== undefined) walk(node.sKey);
      for (const option of node.list ?? []) walk(option);
    };
    walk(json.uid);
    assert.deepEqual(seen, seen.map((_, at) => at));
    assert.equal(Object.keys(json.refs).length, seen.length);
  });
});

/** Keeps the serialised type honest: the test reads refs by number. */
export type { SerializedSchema };

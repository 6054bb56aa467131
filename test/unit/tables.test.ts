/**
 * The shipped tables against the reference's and against the settings form.
 * The shipped configuration is 0.5.2's (decoy keys per tool, host aliases,
 * limits with their uncapped entries), read from the installed oracle package,
 * plus opt-in keys that are all off; every field of the settings form offers
 * exactly what the configuration accepts at its edges.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { settingsTree, type SchemaNode } from '../../src/lib/config/schema.js';
import { referenceTables } from '../support/reference-tables.js';
import { OPT_IN_MEASURES } from '../support/vocabulary.js';

const ref = await referenceTables();
const ours = DEFAULTS as unknown as Record<string, unknown>;

describe('the shipped configuration is the reference’s', () => {
  test('every key of 0.5.2’s DEFAULTS has its value here: decoy keys per tool, aliases, limits, stages, lists', () => {
    for (const [key, value] of Object.entries(ref.defaults)) {
      if (key === 'limits') continue;
      assert.deepEqual(ours[key], value, key);
    }
  });

  test('every limits entry of 0.5.2 is here with its value, capped or uncapped, and ours adds only opt-in measures, off', () => {
    const limits = DEFAULTS.limits as Readonly<Record<string, number | null>>;
    for (const [measure, cap] of Object.entries(ref.defaults.limits)) {
      assert.ok(Object.hasOwn(limits, measure), `limits.${measure} is missing`);
      assert.equal(limits[measure], cap, `limits.${measure}`);
    }
    for (const measure of Object.keys(limits).filter((m) => !Object.hasOwn(ref.defaults.limits, m))) {
      assert.ok(OPT_IN_MEASURES.includes(measure), `limits.${measure} is neither 0.5.2's nor a known opt-in measure`);
      assert.equal(limits[measure], null, `the opt-in measure ${measure} is off by default`);
    }
  });

  test('every key 0.5.2 removed fails the load, naming the key', () => {
    for (const key of ref.removedKeys) assert.throws(() => resolveConfig({ [key]: 2 }), new RegExp(`\\b${key}\\b`), key);
  });

  test('every key beyond 0.5.2 is an opt-in that is off by default', () => {
    const off: Record<string, unknown> = {
      sequence: null,
      progress: 'ignore',
      exemptionCeiling: null,
      duplicateText: null,
      stale: null,
      spin: null,
      guess: null,
      editRetry: null,
      timeouts: null,
      failureProgress: 'ignore',
      stopAfter: null,
      preset: null,
    };
    const extra = Object.keys(ours).filter((key) => !Object.hasOwn(ref.defaults, key)).sort();
    assert.deepEqual(extra, Object.keys(off).sort());
    for (const [key, value] of Object.entries(off)) assert.deepEqual(ours[key], value, key);
  });
});

/** Per nested mapping, its fields at their minimums (or null where offered): they are checked against each other (a limit is at least the count). */
const floors: Record<string, Record<string, unknown>> = {};

/** Whether resolveConfig takes `{ [key]: value }` (nested under `parent`, beside its other fields at their minimums). */
function accepted(key: string, value: unknown, parent?: string): boolean {
  try {
    resolveConfig(parent === undefined ? { [key]: value } : { [parent]: { ...floors[parent], [key]: value } });
    return true;
  } catch {
    return false;
  }
}

/** The number node of a field, and whether null is offered too. */
function numberOf(node: SchemaNode): { number: SchemaNode; nullable: boolean } | null {
  if (node.type === 'number') return { number: node, nullable: false };
  const number = node.list?.find((n) => n.type === 'number');
  return node.type === 'union' && number !== undefined ? { number, nullable: node.list?.some((n) => n.type === 'const' && n.value === null) === true } : null;
}

function checkFields(dict: Readonly<Record<string, SchemaNode>>, parent?: string): number {
  let checked = 0;
  for (const [key, node] of Object.entries(dict)) {
    const numeric = numberOf(node);
    if (numeric !== null) {
      const min = numeric.number.meta.min ?? 0;
      const step = numeric.number.meta.step;
      assert.ok(accepted(key, min, parent), `${key}: the form's minimum ${min} is refused`);
      assert.ok(accepted(key, min + 1, parent), `${key}: ${min + 1} is refused`);
      assert.equal(accepted(key, null, parent), numeric.nullable, `${key}: null is ${numeric.nullable ? 'offered but refused' : 'accepted but not offered'}`);
      if (step === 1) assert.equal(accepted(key, min + 0.5, parent), false, `${key}: the form asks for whole numbers, the config takes ${min + 0.5}`);
      checked += 1;
    }
    const consts = node.type === 'union' ? (node.list ?? []).filter((n) => n.type === 'const' && n.value !== null) : [];
    if (consts.length > 0 && numeric === null) {
      for (const option of consts) assert.ok(accepted(key, option.value, parent), `${key}: the option ${String(option.value)} is refused`);
      assert.equal(accepted(key, 'maybe', parent), false, `${key}: a value the form does not offer is accepted`);
      checked += 1;
    }
    const object = node.type === 'object' ? node : node.list?.find((n) => n.type === 'object');
    if (object?.dict !== undefined && parent === undefined && key !== 'limits') {
      floors[key] = Object.fromEntries(Object.entries(object.dict).flatMap(([k, n]) => (numberOf(n) === null ? [] : [[k, numberOf(n)?.nullable === true ? null : (numberOf(n)?.number.meta.min ?? 0)]])));
      checked += checkFields(object.dict, key);
    }
  }
  return checked;
}

describe('the settings form offers what the configuration accepts', () => {
  test('every numeric field takes its minimum, refuses fractions where it asks for whole numbers, and offers null exactly where null is accepted; every option is accepted', () => {
    const tree = settingsTree();
    const checked = checkFields(tree.dict ?? {});
    assert.ok(checked >= 15, `only ${checked} fields checked`);
  });

  test('below its minimum, a numeric field is refused or turns its stage off', () => {
    const tree = settingsTree();
    for (const [key, node] of Object.entries(tree.dict ?? {})) {
      const numeric = numberOf(node);
      if (numeric === null) continue;
      const below = (numeric.number.meta.min ?? 0) - 1;
      if (!accepted(key, below)) continue;
      // The documented off-switch of the advisory stages: 0 and negatives mean null.
      assert.equal((resolveConfig({ [key]: below }) as unknown as Record<string, unknown>)[key], null, `${key}: ${below} is accepted and means something`);
    }
  });
});

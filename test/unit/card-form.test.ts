/**
 * The Settings → Plugins card's form, without a browser: what each control
 * shows, what a reset returns to, what is overridden, which drafts are refused
 * (with resolveConfig's own message) and what a save writes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { format, parse } from '../../client/codec.js';
import { CAP_HINTS, GROUPS, groupsFor, type Field } from '../../client/fields.js';
import { orderWrites, viewForm, type Draft, type FieldView, type FormView } from '../../client/form.js';
import { effectiveConfig, mergeLayers } from '../../client/layers.js';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';

function field(form: FormView, path: string): FieldView {
  for (const group of form.groups) for (const view of group.fields) if (view.field.path === path) return view;
  throw new Error(`no field ${path}`);
}

function drafts(entries: Record<string, string | 'RESET'>): Map<string, Draft> {
  return new Map(Object.entries(entries).map(([path, text]) => [path, text === 'RESET' ? { kind: 'reset' } : { kind: 'text', text }]));
}

/** The message resolveConfig throws for a config, without the plugin-name prefix the card drops. */
function refusal(config: unknown): string {
  try {
    resolveConfig(config);
  } catch (error) {
    return (error as Error).message.replace(/^repeat-tool-breaker: /, '');
  }
  throw new Error('resolveConfig accepted it');
}

describe('the card lists every setting', () => {
  test('every top-level key of DEFAULTS has a field, and every shipped cap has one under Caps', () => {
    const groups = groupsFor(Object.keys(DEFAULTS.limits));
    const paths = new Set(groups.flatMap((g) => g.fields.map((f) => f.path)));
    for (const key of Object.keys(DEFAULTS)) {
      if (key === 'limits') continue;
      assert.ok(paths.has(key), `no field for ${key}`);
    }
    for (const cap of Object.keys(DEFAULTS.limits)) assert.ok(paths.has(`limits.${cap}`), `no field for limits.${cap}`);
    for (const sub of ['length', 'count', 'limit']) assert.ok(paths.has(`sequence.${sub}`), `no field for sequence.${sub}`);
    for (const sub of ['minChars', 'threshold', 'windowMs', 'cooldownMs']) assert.ok(paths.has(`duplicateText.${sub}`), `no field for duplicateText.${sub}`);
  });

  test('every shipped cap, act: included, has a hint of its own and is listed in the order of DEFAULTS.limits', () => {
    assert.deepEqual(Object.keys(CAP_HINTS), Object.keys(DEFAULTS.limits));
  });

  test('the groups are stages, caps, failure track, gate policy, local addresses and opt-in tracks, then the rest', () => {
    assert.deepEqual(
      GROUPS.map((g) => g.title),
      ['Stages', 'Caps', 'Failure track', 'Gate policy', 'Local addresses', 'Opt-in tracks', 'What is counted', 'Messages'],
    );
  });

  test('a cap the config adds beyond the shipped ones gets its own field after them', () => {
    const form = viewForm({ limits: { 'exact:bash:{"command":"make"}': 30 } }, {}, new Map());
    const caps = form.groups.find((g) => g.id === 'caps')!.fields.map((f) => f.field.path);
    assert.equal(caps.at(-1), 'limits.exact:bash:{"command":"make"}');
    assert.equal(field(form, 'limits.exact:bash:{"command":"make"}').text, '30');
  });
});

describe('what a field shows', () => {
  test('with no config and no user layer, every field shows the shipped default as its value and as its default', () => {
    const form = viewForm({}, {}, new Map());
    assert.equal(field(form, 'limits.exact').text, '12');
    assert.equal(field(form, 'limits.site').text, 'off');
    assert.equal(field(form, 'onLimit').text, 'ask');
    assert.equal(field(form, 'exemptionCeiling').text, 'unlimited');
    assert.equal(field(form, 'exclude').text, 'todo_write');
    assert.equal(field(form, 'includeLocal').text, 'false');
    assert.equal(field(form, 'sequence').text, 'off');
    assert.equal(field(form, 'sequence.length').text, '4', 'an off track shows the values turning it on would use');
    for (const group of form.groups) for (const view of group.fields) {
      assert.equal(view.text, view.defaultText, view.field.path);
      assert.equal(view.overridden, false, view.field.path);
    }
    assert.equal(form.dirty, false);
    assert.deepEqual(form.writes, []);
  });

  test('the profile config is the default; the user layer is the effective value and marks the field overridden', () => {
    const form = viewForm({ warnAt: 5, limits: { host: 24 } }, { warnAt: 6, limits: { exact: 8 } }, new Map());
    const warn = field(form, 'warnAt');
    assert.deepEqual([warn.text, warn.defaultText, warn.overridden], ['6', '5', true]);
    const host = field(form, 'limits.host');
    assert.deepEqual([host.text, host.defaultText, host.overridden], ['24', '24', false]);
    const exact = field(form, 'limits.exact');
    assert.deepEqual([exact.text, exact.defaultText, exact.overridden], ['8', '12', true]);
  });

  test('an override equal to the default is still an override (presence in the user layer decides)', () => {
    const form = viewForm({}, { window: 16 }, new Map());
    assert.equal(field(form, 'window').overridden, true);
  });

  test('the sub-settings of a track that is off are disabled, and enabled once the track is staged on', () => {
    assert.equal(field(viewForm({}, {}, new Map()), 'sequence.count').disabled, true);
    assert.equal(field(viewForm({}, {}, drafts({ sequence: 'on' })), 'sequence.count').disabled, false);
    assert.equal(field(viewForm({ sequence: {} }, {}, new Map()), 'sequence.count').disabled, false);
  });
});

describe('staged edits', () => {
  test('an edit shows as typed, marks the form dirty and plans one write of that top-level key', () => {
    const form = viewForm({}, {}, drafts({ 'limits.exact': '6' }));
    assert.equal(field(form, 'limits.exact').text, '6');
    assert.equal(field(form, 'limits.exact').overridden, true);
    assert.equal(form.dirty, true);
    assert.deepEqual(form.writes, [{ key: 'limits', value: { exact: 6 } }]);
  });

  test('a cap edit keeps the caps already in the user layer', () => {
    const form = viewForm({}, { limits: { host: 20 } }, drafts({ 'limits.exact': '6' }));
    assert.deepEqual(form.writes, [{ key: 'limits', value: { host: 20, exact: 6 } }]);
  });

  test('typing the saved value again changes nothing: not dirty, nothing to write', () => {
    const form = viewForm({}, { warnAt: 6 }, drafts({ warnAt: '6' }));
    assert.equal(form.dirty, false);
    assert.deepEqual(form.writes, []);
  });

  test('off turns a stage or a cap off (null), and unlimited lifts the exemption ceiling', () => {
    const form = viewForm({}, {}, drafts({ warnAt: 'off', 'limits.host': 'OFF', exemptionCeiling: 'unlimited' }));
    assert.deepEqual(form.writes.map((w) => [w.key, w.value]).sort(), [['limits', { host: null }], ['warnAt', null]]);
  });

  test('a reset stages the return to the default: the field shows the default and the key leaves the user layer', () => {
    const form = viewForm({ warnAt: 5 }, { warnAt: 6, onLimit: 'deny' }, drafts({ warnAt: 'RESET' }));
    assert.equal(field(form, 'warnAt').text, '5');
    assert.equal(field(form, 'warnAt').overridden, false);
    assert.deepEqual(form.writes, [{ key: 'warnAt', value: undefined }]);
  });

  test('resetting the last user cap removes `limits` from the user layer; resetting one of two keeps the other', () => {
    assert.deepEqual(viewForm({}, { limits: { exact: 6 } }, drafts({ 'limits.exact': 'RESET' })).writes, [{ key: 'limits', value: undefined }]);
    assert.deepEqual(viewForm({}, { limits: { exact: 6, host: 20 } }, drafts({ 'limits.exact': 'RESET' })).writes, [{ key: 'limits', value: { host: 20 } }]);
  });

  test('turning a track on writes {} over a profile that leaves it off; off writes null over a profile that turns it on', () => {
    assert.deepEqual(viewForm({}, {}, drafts({ sequence: 'on' })).writes, [{ key: 'sequence', value: {} }]);
    assert.deepEqual(viewForm({ sequence: { length: 3 } }, {}, drafts({ sequence: 'off' })).writes, [{ key: 'sequence', value: null }]);
    assert.deepEqual(viewForm({ sequence: { length: 3 } }, { sequence: null }, drafts({ sequence: 'on' })).writes, [{ key: 'sequence', value: undefined }]);
  });

  test('a track sub-setting is written inside the track, over what the user layer holds', () => {
    const form = viewForm({}, { duplicateText: { minChars: 100 } }, drafts({ 'duplicateText.threshold': '4' }));
    assert.deepEqual(form.writes, [{ key: 'duplicateText', value: { minChars: 100, threshold: 4 } }]);
  });

  test('a map edited as lines writes only the entries that differ from below; a dropped decoy list becomes []', () => {
    const lines = format(groupsFor([]).flatMap((g) => g.fields).find((f) => f.path === 'ignoreArgs')!, DEFAULTS.ignoreArgs)
      .split('\n')
      .filter((line) => !line.startsWith('pwsh:'))
      .map((line) => (line.startsWith('bash:') ? 'bash: description, command_id' : line))
      .join('\n');
    const form = viewForm({}, {}, drafts({ ignoreArgs: lines }));
    assert.deepEqual(form.writes, [{ key: 'ignoreArgs', value: { bash: ['description', 'command_id'], pwsh: [] } }]);
  });

  test('an alias line that is not `from = to` is refused with the line number', () => {
    const form = viewForm({}, {}, drafts({ hostAliases: 'a.example = b.example\nnot an alias' }));
    assert.match(field(form, 'hostAliases').error ?? '', /^`hostAliases` line 2 must read `from\.example = to\.example`/);
    assert.equal(form.invalid, true);
    assert.deepEqual(form.writes, []);
  });

  test('Discard is the absence of drafts: the same layers with no drafts show the saved values', () => {
    const saved = viewForm({}, { warnAt: 6 }, new Map());
    assert.equal(field(saved, 'warnAt').text, '6');
    assert.equal(saved.dirty, false);
  });
});

describe('validation uses resolveConfig and its messages', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['limits.exact', '1', { limits: { exact: 1 } }],
    ['window', '2', { window: 2 }],
    ['window', 'sixteen', { window: 'sixteen' }],
    ['warnAt', '2.5', { warnAt: 2.5 }],
    ['failLimit', '1', { failLimit: 1 }],
    ['exemptionCeiling', '0', { exemptionCeiling: 0 }],
    ['duplicateText.threshold', '1', { duplicateText: { threshold: 1 } }],
    ['previewChars', '0', { previewChars: 0 }],
  ];
  for (const [path, text, config] of cases) {
    test(`${path} = ${JSON.stringify(text)} is refused under the field with the message apply gives at load`, () => {
      const form = viewForm({}, {}, drafts({ [path]: text }));
      assert.equal(field(form, path).error, refusal(config));
      assert.equal(form.invalid, true);
      assert.deepEqual(form.writes, [], 'an invalid form writes nothing');
    });
  }

  test('a draft that breaks a setting it does not name (window under a sequence) is refused under the edited field', () => {
    const base = { sequence: { length: 4, count: 3 } };
    const form = viewForm(base, {}, drafts({ window: '8' }));
    assert.equal(field(form, 'window').error, refusal({ ...base, window: 8 }));
    assert.match(field(form, 'window').error ?? '', /`sequence\.count` × `sequence\.length` is 3 × 4 = 12 calls, more than `window` \(8\)/);
  });

  test('two drafts valid alone but not together are refused in the footer when the message names no edited field', () => {
    const form = viewForm({}, {}, drafts({ window: '8', sequence: 'on' }));
    // {} turns the track on with length 4 × count 3 = 12 > 8; the message names sequence.count, which was not edited.
    assert.equal(form.invalid, true);
    assert.equal(form.error, refusal({ window: 8, sequence: {} }));
  });

  test('every field view of a valid form carries no error', () => {
    const form = viewForm({}, {}, drafts({ 'limits.exact': '6', onLimit: 'deny', sequence: 'on', 'sequence.count': '2' }));
    assert.equal(form.invalid, false);
    assert.deepEqual(form.groups.flatMap((g) => g.fields).filter((f) => f.error !== undefined), []);
    assert.equal(effectiveConfig({}, Object.fromEntries(form.writes.map((w) => [w.key, w.value]))).limits.exact, 6);
  });
});

describe('the save order', () => {
  test('writes are ordered so that every intermediate user layer resolves (window before a sequence that needs it)', () => {
    const writes = [
      { key: 'sequence', value: { length: 5, count: 4 } },
      { key: 'window', value: 20 },
    ];
    const ordered = orderWrites({}, {}, writes);
    assert.deepEqual(ordered.map((w) => w.key), ['window', 'sequence']);
  });

  test('the host layering the card predicts is DSH\'s: objects merge, null and arrays replace', () => {
    assert.deepEqual(mergeLayers({ limits: { exact: 12, host: 16 }, sequence: { length: 3 } }, { limits: { exact: 6 }, sequence: null }), {
      limits: { exact: 6, host: 16 },
      sequence: null,
    });
    assert.deepEqual(mergeLayers({ exclude: ['a', 'b'] }, { exclude: ['c'] }), { exclude: ['c'] });
  });
});

describe('the text of a control', () => {
  const number: Field = { path: 'warnAt', label: '', hint: '', kind: { type: 'number', nullWord: 'off' } };
  const plain: Field = { path: 'window', label: '', hint: '', kind: { type: 'number' } };
  test('numbers parse as numbers, the null word as null, and anything else passes through for resolveConfig to judge', () => {
    assert.deepEqual(parse(number, ' 7 '), { value: 7 });
    assert.deepEqual(parse(number, 'Off'), { value: null });
    assert.deepEqual(parse(plain, 'off'), { value: 'off' }, 'window has no off');
    assert.deepEqual(parse(plain, '1e3'), { value: 1000 });
    assert.deepEqual(parse(plain, '12abc'), { value: '12abc' });
  });

  test('a value formats to the text that parses back to it', () => {
    for (const value of [7, null]) assert.deepEqual(parse(number, format(number, value)), { value });
  });
});

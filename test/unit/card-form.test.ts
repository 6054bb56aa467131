/**
 * The Settings → Plugins card's form, without a browser: what each control
 * shows, what a reset returns to, what is overridden, which drafts are refused
 * (with resolveConfig's own message) and what a save writes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { format, parse } from '../../client/codec.js';
import { CAP_KEYS, COPY, wordsOf } from '../../client/copy.js';
import { translator } from '../../client/i18n.js';
import { GROUPS, groupsFor, type Field } from '../../client/fields.js';
import { orderWrites, valueAt, viewForm, type Draft, type FieldView, type FoldView, type FormView } from '../../client/form.js';
import { effectiveConfig, mergeLayers } from '../../client/layers.js';
import { defaultNote } from '../../client/notes.js';
import { inCardWords } from '../../client/wording.js';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { configText } from '../../src/lib/config/messages.js';
import { PRESETS, presetConfig } from '../../src/lib/config/preset.js';
import { resolveStored } from '../../src/lib/config/stored.js';
import { CARD_SETTINGS } from '../../src/lib/tracks/meta.js';

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

  test('every shipped cap, act: included, has words of its own and is listed in the order of DEFAULTS.limits', () => {
    assert.deepEqual(CAP_KEYS, Object.keys(DEFAULTS.limits));
  });

  test('the everyday settings come first and in view: what the gate does at a limit, the preset, the stop, the stages, the identical calls\' cap', () => {
    assert.deepEqual(
      GROUPS.map((g) => g.title),
      ['Gate', 'Stages', 'Caps', 'Opt-in tracks', 'More settings'],
    );
    const inView = GROUPS.flatMap((g) => g.fields.filter((f) => f.fold === undefined).map((f) => f.path));
    assert.deepEqual(inView.slice(0, 8), ['onLimit', 'preset', 'stopAfter', 'warnAt', 'summarizeAt', 'failWarnAt', 'failLimit', 'limits.exact']);
    assert.deepEqual(inView.slice(8), CARD_SETTINGS.map((setting) => setting.key), 'then each track\'s switch, and nothing else');
  });

  test('each track\'s numbers are folded under its switch; the other caps and the rarely touched settings are folded', () => {
    const tracks = GROUPS.find((g) => g.id === 'tracks')!;
    for (const setting of CARD_SETTINGS) {
      const fold = tracks.folds.find((f) => f.id === setting.key);
      assert.ok(fold, `a fold for ${setting.key}`);
      assert.equal(fold.under, setting.key, 'opened under the track\'s switch');
      assert.deepEqual(tracks.fields.filter((f) => f.fold === setting.key).map((f) => f.path), setting.card.fields.slice(1).map((f) => f.path));
    }
    const caps = GROUPS.find((g) => g.id === 'caps')!;
    assert.deepEqual(caps.folds.map((f) => [f.id, f.title, f.under]), [['caps', 'More caps', undefined]]);
    assert.deepEqual(caps.fields.filter((f) => f.fold === 'caps').map((f) => f.path), CAP_KEYS.filter((key) => key !== 'exact').map((key) => `limits.${key}`));
    const more = GROUPS.find((g) => g.id === 'more')!;
    assert.deepEqual(more.folds.map((f) => f.title), ['Approvals and progress', 'What is counted', 'Local addresses', 'Messages']);
    assert.deepEqual(more.fields.filter((f) => f.fold === 'counted').map((f) => f.path), ['window', 'exclude', 'include', 'ignoreArgs'], 'the window, the scope lists and the decoys');
    assert.ok(more.fields.every((f) => f.fold !== undefined), 'nothing under More settings is in view until its fold opens');
  });

  test('a closed fold sums up its values in one line, and says when a field in it is staged, overridden or refused', () => {
    const form = viewForm({}, { stale: { limit: 6 }, limits: { host: 20 } }, drafts({ window: '2' }));
    const fold = (id: string): FoldView => form.groups.flatMap((g) => g.folds).find((f) => f.id === id)!;
    assert.equal(fold('stale').summary, 'Advisory at: 3 · Gate after: 6 · Back to back: off · Whole round: off');
    assert.deepEqual([fold('stale').overridden, fold('stale').staged, fold('stale').problem], [true, false, false]);
    assert.equal(fold('caps').summary, 'Same shell command: 12 · Same URL: 12 · Same output file: 12 · Same host: 20 · 5 off', 'the caps that are on, then how many are off');
    assert.equal(fold('caps').overridden, true);
    assert.equal(fold('counted').summary, 'Window: 2 · Never track: todo_write · Track only: none · Ignored arguments: 4 lines');
    assert.deepEqual([fold('counted').staged, fold('counted').problem], [true, true], 'a refused draft behind a fold shows on the fold');
    assert.equal(fold('local').summary, 'Local traffic: deny · Count local hosts: false · Host aliases: 3 lines');
  });

  test('the preset is a choice of none and the presets; none is null, and a preset is written by its name', () => {
    const preset = field(viewForm({}, {}, new Map()), 'preset');
    assert.equal(preset.text, 'none');
    const chosen = viewForm({}, {}, new Map([['preset', { kind: 'text', text: 'recommended' }]]));
    assert.equal(chosen.error, undefined);
    assert.deepEqual(chosen.writes.map((w) => [w.key, w.value]), [['preset', 'recommended']]);
    const saved = viewForm({}, { preset: 'recommended' }, new Map());
    assert.equal(field(saved, 'preset').text, 'recommended');
    assert.equal(field(saved, 'stale').text, 'on', 'once saved, the preset shows in the fields it sets');
    assert.equal(field(saved, 'failureProgress').text, 'outcomes');
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
    assert.equal(field(form, 'limits.exact').staged, true);
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
    assert.equal(field(form, 'warnAt').staged, true);
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

describe('the badges describe the saved layer; a draft only adds Unsaved (issue 27)', () => {
  test('a draft on a field the user layer does not hold is Unsaved, not Overridden, and offers no reset', () => {
    const exact = field(viewForm({}, {}, drafts({ 'limits.exact': '6' })), 'limits.exact');
    assert.deepEqual([exact.staged, exact.overridden, exact.resettable], [true, false, false]);
  });

  test('a draft over a saved override keeps Overridden and Reset to default: both say what is saved', () => {
    const exact = field(viewForm({}, { limits: { exact: 8 } }, drafts({ 'limits.exact': '6' })), 'limits.exact');
    assert.deepEqual([exact.staged, exact.overridden, exact.resettable], [true, true, true]);
  });

  test('a staged reset is Unsaved and still Overridden until saved, and offers no second reset', () => {
    const warn = field(viewForm({}, { warnAt: 6 }, drafts({ warnAt: 'RESET' })), 'warnAt');
    assert.deepEqual([warn.staged, warn.overridden, warn.resettable], [true, true, false]);
  });

  test('an invalid draft does not make a field Overridden either', () => {
    const exact = field(viewForm({}, {}, drafts({ 'limits.exact': '1' })), 'limits.exact');
    assert.notEqual(exact.error, undefined, 'the draft is refused');
    assert.deepEqual([exact.overridden, exact.resettable], [false, false]);
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
    test(`${path} = ${JSON.stringify(text)} is refused under the field with the message apply gives at load, in the card's words`, () => {
      const form = viewForm({}, {}, drafts({ [path]: text }));
      assert.equal(field(form, path).error, inCardWords(refusal(config), field(form, path).field));
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
  const number: Field = { path: 'warnAt', key: 'warnAt', label: '', hint: '', kind: { type: 'number', nullWord: 'off' }, fold: undefined, within: '' };
  const plain: Field = { path: 'window', key: 'window', label: '', hint: '', kind: { type: 'number' }, fold: undefined, within: '' };
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

describe("the card's messages use the card's words (issue 27)", () => {
  test('a cap takes `off`, not null: the message says "or `off` to stop counting it" and offers no null', () => {
    const error = field(viewForm({}, {}, drafts({ 'limits.exact': '1' })), 'limits.exact').error ?? '';
    assert.match(error, /^`limits\.exact` must be a number >= 2, or `off` to stop counting it \(got 1\); a cap below 2 would deny the first call$/);
    assert.match(refusal({ limits: { exact: 1 } }), /or null to stop counting it/, 'the YAML message keeps its own words');
  });

  test('a stage, the failure gate and the sequence gate offer `off`; the exemption ceiling offers `unlimited`', () => {
    assert.equal(field(viewForm({}, {}, drafts({ warnAt: 'soon' })), 'warnAt').error, '`warnAt` must be a whole number of calls, 1 or more; `off`, 0 or a negative number turns the stage off (got "soon")');
    assert.equal(field(viewForm({}, {}, drafts({ warnAt: '2.5' })), 'warnAt').error, '`warnAt` must be a whole number of calls, 1 or more (got 2.5); `off`, 0 or a negative number turns the stage off');
    assert.match(refusal({ warnAt: 'soon' }), /1 or more; 0, a negative number or null turns the stage off \(got "soon"\)$/, 'YAML says what YAML takes');
    assert.match(field(viewForm({}, {}, drafts({ failLimit: '1' })), 'failLimit').error ?? '', /, or `off` to turn the failure gate off /);
    assert.match(field(viewForm({ sequence: {} }, {}, drafts({ 'sequence.limit': '1' })), 'sequence.limit').error ?? '', /; `off` advises only$/);
    assert.match(field(viewForm({}, {}, drafts({ exemptionCeiling: '0' })), 'exemptionCeiling').error ?? '', /; `unlimited` leaves exemptions unlimited$/);
  });

  test('a field without a word for null keeps the message as it is, and a null given as the value stays quoted as got', () => {
    const window: Field = { path: 'window', key: 'window', label: '', hint: '', kind: { type: 'number' }, fold: undefined, within: '' };
    assert.equal(inCardWords(refusal({ window: 2 }), window), refusal({ window: 2 }));
    const cap: Field = { path: 'limits.exact', key: 'limits.exact', label: '', hint: '', kind: { type: 'number', nullWord: 'off' }, fold: undefined, within: '' };
    assert.equal(inCardWords('`x` must be a number (got null)', cap), '`x` must be a number (got null)');
  });
});

describe('the card takes exactly what the host takes (issue 32)', () => {
  test('a fractional cap is taken by the card as by resolveConfig (0.5.2: a finite number >= 2), and written as typed', () => {
    for (const path of ['limits.exact', 'limits.host', 'failLimit']) {
      const form = viewForm({}, {}, drafts({ [path]: '2.5' }));
      assert.equal(field(form, path).error, undefined, path);
      assert.equal(form.invalid, false, path);
    }
    assert.deepEqual(viewForm({}, {}, drafts({ 'limits.exact': '2.5' })).writes, [{ key: 'limits', value: { exact: 2.5 } }]);
    assert.equal(resolveConfig({ limits: { exact: 2.5 } }).limits.exact, 2.5);
  });

  test('a whole number with a fraction point (4.0) is the number 4', () => {
    assert.deepEqual(viewForm({}, {}, drafts({ 'limits.exact': '4.0' })).writes, [{ key: 'limits', value: { exact: 4 } }]);
  });

  // Every value of the table typed into every field: the card refuses it exactly when the host's resolveConfig does.
  const TABLE = ['2.5', '0', '-1', '1', '2', '3', '4', 'off', 'null', 'unlimited', 'abc', '', '1e3', '1e21', '1e308', '1e400', '9007199254740993', 'true', 'ask', 'deny', 'results', 'restart', 'recommended', 'on'];
  test('card and host agree on a table of values (fractions, 0, -1, off/null, strings, huge numbers) for every field', () => {
    const every = viewForm({}, {}, new Map()).groups.flatMap((g) => g.fields.map((f) => f.field));
    let compared = 0;
    for (const f of every) {
      if (f.kind.type === 'lists' || f.kind.type === 'aliases' || f.kind.type === 'list') continue;
      // A track's sub-settings are judged with the track on.
      const top = f.path.split('.')[0]!;
      const base = f.path.includes('.') && !f.path.startsWith('limits.') ? { [top]: {} } : {};
      for (const text of TABLE) {
        const form = viewForm(base, {}, drafts({ [f.path]: text }));
        const parsed = parse(f, text);
        if ('error' in parsed) continue;
        const cardTakes = !form.invalid;
        // What the host resolves for the same value, written where the card writes it.
        const sub = f.path.includes('.') ? f.path.slice(top.length + 1) : undefined;
        const user = sub === undefined ? { [top]: f.kind.type === 'track' ? (parsed.value === true ? {} : null) : parsed.value } : { [top]: { [sub]: parsed.value } };
        let hostTakes = true;
        try {
          resolveConfig(mergeLayers(base, user));
        } catch {
          hostTakes = false;
        }
        assert.equal(cardTakes, hostTakes, `${f.path} = ${JSON.stringify(text)}: the card ${cardTakes ? 'takes' : 'refuses'} it, the host ${hostTakes ? 'takes' : 'refuses'} it`);
        compared += 1;
      }
    }
    assert.ok(compared > 500, `only ${compared} pairs compared`);
  });

  test('0 and -1 turn a stage off in the card as in the host, and show as off', () => {
    for (const text of ['0', '-1']) {
      const form = viewForm({}, {}, drafts({ warnAt: text }));
      assert.equal(form.invalid, false, text);
      assert.equal(effectiveConfig({}, Object.fromEntries(form.writes.map((w) => [w.key, w.value]))).warnAt, null, text);
    }
    assert.equal(field(viewForm({}, { warnAt: 0 }, new Map()), 'warnAt').text, 'off');
  });
});

describe('an advisory stage a cap pre-empts is flagged, not refused (issue 27)', () => {
  test('limits.exact 4 under warnAt 7 and summarizeAt 11: the cap says both never fire, each stage names the cap, and Save stays possible', () => {
    const form = viewForm({}, {}, drafts({ 'limits.exact': '4' }));
    assert.equal(field(form, 'limits.exact').warning, 'The gate at 4 comes first: the first advisory (at 7) and second advisory (at 11) never fire for this measure.');
    assert.equal(field(form, 'warnAt').warning, 'Never fires for Identical calls: its cap is at or below it.');
    assert.equal(field(form, 'summarizeAt').warning, 'Never fires for Identical calls: its cap is at or below it.');
    assert.equal(form.invalid, false);
    assert.deepEqual(form.writes, [{ key: 'limits', value: { exact: 4 } }]);
  });

  test('a stage equal to the cap is dead too (the call that reaches the cap goes to the gate); one below it is not', () => {
    assert.match(field(viewForm({}, {}, drafts({ 'limits.exact': '11' })), 'limits.exact').warning ?? '', /the second advisory \(at 11\) never fires/);
    assert.equal(field(viewForm({}, {}, drafts({ 'limits.exact': '12' })), 'limits.exact').warning, undefined);
  });

  test('a stage raised above several caps names them all; a cap that is off pre-empts nothing', () => {
    const form = viewForm({}, {}, drafts({ warnAt: '12' }));
    assert.equal(field(form, 'warnAt').warning, 'Never fires for Identical calls, Same shell command, Same URL and Same output file: their caps are at or below it.');
    assert.equal(field(form, 'limits.site').warning, undefined, 'site is off');
    assert.equal(field(form, 'limits.host').warning, undefined, 'host is at 16');
  });

  test('the saved config is checked too, not only drafts', () => {
    assert.notEqual(field(viewForm({}, { limits: { exact: 4 } }, new Map()), 'limits.exact').warning, undefined);
  });

  test('the failure advisory is dead only above the failure gate (it fires as the call settles, the gate judges the next one)', () => {
    const dead = viewForm({}, {}, drafts({ failWarnAt: '6' }));
    assert.equal(field(dead, 'failLimit').warning, 'The failure advisory (at 6) never fires: the gate acts after 5 failures.');
    assert.equal(field(dead, 'failWarnAt').warning, 'Never fires: the failure gate acts after 5 failures.');
    assert.equal(field(viewForm({}, {}, drafts({ failWarnAt: '5' })), 'failLimit').warning, undefined);
  });
});

describe("Save's reason (issue 27)", () => {
  test('every field holding Save back is named with its label, in display order', () => {
    const form = viewForm({}, {}, drafts({ 'limits.exact': '1', window: '2' }));
    assert.deepEqual(form.problems, [
      { path: 'limits.exact', label: 'Caps › Identical calls' },
      { path: 'window', label: 'What is counted › Window' },
    ]);
    assert.equal(COPY.needFixing(form.problems.length), '2 fields need fixing:');
    assert.equal(COPY.needFixing(1), '1 field needs fixing:');
  });

  test('a valid form names no field', () => {
    assert.deepEqual(viewForm({}, {}, drafts({ 'limits.exact': '6' })).problems, []);
  });
});

describe('labels (issue 27)', () => {
  test('a shipped cap has a human label and its config path as the key beside it', () => {
    const caps = groupsFor([]).find((g) => g.id === 'caps')!.fields;
    assert.deepEqual(
      caps.slice(0, 3).map((f) => [f.label, f.key]),
      [
        ['Identical calls', 'limits.exact'],
        ['Same shell command', 'limits.cmd'],
        ['Same URL', 'limits.net'],
      ],
    );
    const fetch = caps.find((f) => f.path === 'limits.family:http-fetch')!;
    assert.deepEqual([fetch.label, fetch.key], ['All HTTP fetches', 'limits.family:http-fetch']);
  });

  test('a per-fingerprint cap from the config is labelled as one, with its key beside it', () => {
    const extra = groupsFor(['exact:bash:{"command":"make"}']).find((g) => g.id === 'caps')!.fields.at(-1)!;
    assert.deepEqual([extra.label, extra.key], [COPY.customCap.label, 'limits.exact:bash:{"command":"make"}']);
  });

  test('no label is a raw key or ends like one (`exact:`, `in host:`)', () => {
    for (const f of groupsFor(Object.keys(DEFAULTS.limits)).flatMap((g) => g.fields)) {
      assert.doesNotMatch(f.label, /:$/, f.path);
      assert.notEqual(f.label, f.path.replace(/^limits\./, ''), f.path);
    }
  });
});

describe('the default in a note (issue 27)', () => {
  test('a one-line field quotes its default; an empty one says none', () => {
    assert.equal(defaultNote(field(viewForm({}, {}, new Map()), 'warnAt')), 'Default: 7');
    assert.equal(defaultNote(field(viewForm({}, {}, new Map()), 'include')), 'Default: none');
  });

  test('Ignored arguments does not repeat its box on one line: the untouched box is the default; an edited one says how many lines a reset brings back', () => {
    const untouched = field(viewForm({}, {}, new Map()), 'ignoreArgs');
    assert.equal(defaultNote(untouched), 'Default: as shown.');
    const edited = field(viewForm({}, {}, drafts({ ignoreArgs: '*: description' })), 'ignoreArgs');
    assert.equal(defaultNote(edited), `Default: ${Object.keys(DEFAULTS.ignoreArgs).length} lines; Reset to default brings them back.`);
    assert.doesNotMatch(defaultNote(edited), /timeoutMs/, 'no argument names quoted');
  });
});

describe('the preset in the card (issue 32)', () => {
  const saved = { preset: 'recommended' };
  const parts = PRESETS.recommended!.parts;
  const stale = parts.find((p) => p.name === 'stale')!.config.stale as { warnAt: number; limit: number };

  test('every track the preset turns on shows on, with its fields enabled and the preset\'s values, labelled as the preset\'s', () => {
    const form = viewForm({}, saved, new Map());
    for (const track of ['stale', 'spin', 'guess', 'editRetry', 'timeouts']) {
      assert.equal(field(form, track).text, 'on', track);
      for (const sub of ['warnAt', 'limit']) assert.equal(field(form, `${track}.${sub}`).disabled, false, `${track}.${sub} can be tuned`);
    }
    const limit = field(form, 'stale.limit');
    assert.equal(limit.text, String(stale.limit));
    assert.equal(defaultNote(limit), `From preset: ${stale.limit}`);
    assert.equal(defaultNote(field(form, 'stale')), 'From preset: on');
    assert.equal(defaultNote(field(form, 'failureProgress')), `From preset: ${String(parts.find((p) => p.name === 'failureProgress')!.config.failureProgress)}`);
    assert.equal(defaultNote(field(form, 'progress')), 'From preset: outcomes');
    assert.equal(defaultNote(field(form, 'warnAt')), 'Default: 7', 'a setting the preset leaves alone keeps its default');
  });

  test('unchecking a track the preset turns on writes it off (null), marks the form dirty, and a save with another change writes both', () => {
    const off = viewForm({}, saved, drafts({ stale: 'off' }));
    assert.equal(field(off, 'stale').staged, true);
    assert.equal(off.dirty, true, 'the header says Unsaved and Discard is offered');
    assert.deepEqual(off.writes, [{ key: 'stale', value: null }]);
    assert.equal(field(off, 'stale.limit').disabled, true, 'its fields go quiet with it');
    const both = viewForm({}, saved, drafts({ stale: 'off', 'limits.exact': '9' }));
    assert.deepEqual(Object.fromEntries(both.writes.map((w) => [w.key, w.value])), { stale: null, limits: { exact: 9 } });
    const after = effectiveConfig({}, { ...saved, stale: null, limits: { exact: 9 } });
    assert.equal(after.stale, null);
    assert.notEqual(after.editRetry, null, 'the other tracks stay on');
  });

  test('a track the preset turns on is tuned inside the track and keeps the preset\'s other value; its reset returns to the preset', () => {
    const tuned = viewForm({}, saved, drafts({ 'stale.limit': '8' }));
    assert.deepEqual(tuned.writes, [{ key: 'stale', value: { limit: 8 } }]);
    assert.equal(effectiveConfig({}, { ...saved, stale: { limit: 8 } }).stale?.warnAt, stale.warnAt);
    const back = viewForm({}, { ...saved, stale: { limit: 8 } }, new Map());
    const limit = field(back, 'stale.limit');
    assert.deepEqual([limit.text, limit.overridden, defaultNote(limit)], ['8', true, `From preset: ${stale.limit}`]);
    assert.deepEqual(viewForm({}, { ...saved, stale: { limit: 8 } }, drafts({ 'stale.limit': 'RESET' })).writes, [{ key: 'stale', value: undefined }]);
  });

  test('turning off a track the preset turns on, then on again, goes back to the preset', () => {
    const form = viewForm({}, { ...saved, stale: null }, drafts({ stale: 'on' }));
    assert.deepEqual(form.writes, [{ key: 'stale', value: undefined }]);
    assert.equal(field(viewForm({}, { ...saved, stale: null }, new Map()), 'stale').overridden, true);
  });

  test('choosing the preset previews, before Save, every setting its parts set, and the fields show them', () => {
    const form = viewForm({}, {}, drafts({ preset: 'recommended' }));
    assert.equal(form.preset?.change, 'adds');
    const leaves = Object.entries(presetConfig(PRESETS.recommended!)).flatMap(([top, value]) =>
      typeof value === 'object' && value !== null ? Object.entries(value).map(([sub, v]) => [`${top}.${sub}`, v] as const) : [[top, value] as const],
    );
    assert.deepEqual(form.preset?.lines.map((l) => l.path), leaves.map(([path]) => path), 'one line per setting of the preset, read from preset.ts');
    for (const line of form.preset?.lines ?? []) assert.equal(line.instead, undefined, `${line.path}: nothing else applies`);
    assert.equal(form.preset?.lines.find((l) => l.path === 'stale.limit')?.label, 'Stale track › Gate after');
    assert.equal(field(form, 'stale').text, 'on', 'the field shows what the preset will set');
    assert.equal(defaultNote(field(form, 'stale.limit')), `From preset: ${stale.limit}`);
    assert.deepEqual(form.writes, [{ key: 'preset', value: 'recommended' }]);
  });

  test('the preview says what the user\'s own value replaces, and what dropping the preset brings back', () => {
    const mine = viewForm({}, { ...saved, limits: { act: 20 } }, new Map());
    assert.equal(mine.preset?.change, 'applies');
    assert.deepEqual(mine.preset?.lines.find((l) => l.path === 'limits.act'), { path: 'limits.act', label: 'Caps › Same shell action', value: '12', instead: '20' });
    const dropped = viewForm({}, saved, drafts({ preset: 'none' }));
    assert.equal(dropped.preset?.change, 'removes');
    assert.equal(dropped.preset?.lines.find((l) => l.path === 'stale.limit')?.instead, 'off', 'the track goes back off');
    assert.equal(viewForm({}, { ...saved, stale: null }, new Map()).preset?.lines.find((l) => l.path === 'stale.limit')?.instead, 'off', 'a track the user turned off reads off, not its defaults');
    assert.equal(field(dropped, 'stale').text, 'off');
  });

  test('drafts mean the same whatever order they were typed in (the preset is applied first)', () => {
    const a = viewForm({}, {}, new Map<string, Draft>([['stale', { kind: 'text', text: 'off' }], ['preset', { kind: 'text', text: 'recommended' }]]));
    const b = viewForm({}, {}, new Map<string, Draft>([['preset', { kind: 'text', text: 'recommended' }], ['stale', { kind: 'text', text: 'off' }]]));
    assert.deepEqual(a.writes, b.writes);
    assert.deepEqual(Object.fromEntries(a.writes.map((w) => [w.key, w.value])), { preset: 'recommended', stale: null });
  });
});

describe('a saved section the breaker refuses whole (issue 32): no value it names is the section\'s own', () => {
  // The profile gates time-outs after 3; the preset the section chooses advises at the 4th: the refusal names only the profile's values.
  const profile = { warnAt: 2, timeouts: { limit: 3 } };
  const running = resolveConfig(profile);

  test('is shown at the top with its refusal, the key, what runs meanwhile, and the resets of the key and of the section', () => {
    const form = viewForm(profile, { preset: 'recommended', limits: { exact: 8 } }, new Map(), COPY, running);
    assert.ok(form.stored, 'a stored problem');
    assert.equal(form.stored.message, inCardWords(refusal({ ...profile, preset: 'recommended', limits: { exact: 8 } }), undefined));
    assert.equal(form.stored.key, undefined, 'the key it names is the profile\'s: nothing of the section to reset');
    assert.equal(form.stored.meanwhile, 'profile');
    assert.deepEqual(form.stored.fix, []);
    assert.deepEqual(form.stored.clear.map((w) => w.key), ['preset', 'limits']);
    assert.deepEqual(form.dropped, [], 'nothing is left out: the section is refused whole');
    assert.equal(field(form, 'limits.exact').text, '12', 'the fields show what runs: none of the refused section');
    assert.equal(form.invalid, true, 'Save waits for the fix');
    assert.equal(form.dirty, false, 'no draft: nothing Unsaved');
    assert.equal(form.error, undefined, 'not repeated in the footer');
  });

  test('a refused value of a field shows under the field too, and typing a good one there fixes it', () => {
    const form = viewForm(profile, { preset: 'recommended' }, new Map(), COPY, running);
    assert.equal(field(form, 'timeouts.warnAt').error, inCardWords(refusal({ ...profile, preset: 'recommended' }), field(form, 'timeouts.warnAt').field));
    assert.equal(field(form, 'timeouts.warnAt').text, '3', 'what runs');
    const fixed = viewForm(profile, { preset: 'recommended' }, drafts({ 'timeouts.warnAt': '2' }), COPY, running);
    assert.equal(fixed.invalid, false);
    assert.deepEqual(fixed.writes, [{ key: 'timeouts', value: { warnAt: 2 } }]);
  });

  test('a section edited while DSH runs keeps what ran before', () => {
    const before = resolveConfig({ ...profile, limits: { exact: 5 } });
    const form = viewForm(profile, { limits: { exact: 4 }, preset: 'recommended' }, new Map(), COPY, before);
    assert.equal(form.stored?.meanwhile, 'before');
    assert.equal(field(form, 'limits.exact').text, '5');
  });

  test('a draft over it is not blamed for the refusal, and Discard (no drafts) clears the Unsaved state', () => {
    const form = viewForm(profile, { preset: 'recommended' }, drafts({ 'limits.exact': '9' }), COPY, running);
    assert.equal(field(form, 'limits.exact').error, undefined);
    assert.deepEqual(form.problems.map((p) => p.path), ['timeouts.warnAt'], 'only the field the refusal names');
    assert.equal(form.dirty, true);
    assert.equal(viewForm(profile, { preset: 'recommended' }, new Map(), COPY, running).dirty, false);
  });
});

describe('a value of the saved section the breaker refuses is left out, the rest applies (issue 39)', () => {
  const section = { preset: 'recommended', onlimit: 'deny', window: 2, limits: { exact: 8, exactt: 3 } };
  /** What the host runs for the section (config/stored.ts), as the namespace's value hands it to the card. */
  const hostValue = (base: Record<string, unknown>, user: Record<string, unknown>) => resolveStored(base, mergeLayers(base, user)).config;

  test('each is listed at the top with the value as written and why, and the fields show what applies: the preset and the cap kept', () => {
    const form = viewForm({}, section, new Map(), COPY, hostValue({}, section));
    assert.equal(form.stored, undefined, 'the section is not refused whole');
    assert.deepEqual(
      form.dropped.map((d) => [d.path, d.written, d.field, d.state]),
      [
        ['onlimit', '"deny"', undefined, 'kept'],
        ['window', '2', 'window', 'kept'],
        ['limits.exactt', '3', undefined, 'kept'],
      ],
    );
    assert.equal(form.dropped[0]!.message, refusal({ onlimit: 'deny' }), 'the refusal in the card\'s language, YAML\'s words');
    assert.equal(form.dropped[1]!.fieldLabel, 'What is counted › Window');
    assert.equal(field(form, 'preset').text, 'recommended', 'the preset is kept');
    assert.equal(field(form, 'limits.exact').text, '8', 'the cap beside the misspelt one is kept');
    assert.equal(field(form, 'stale').text, 'on', 'what the preset turns on shows on');
    assert.equal(field(form, 'window').text, '16', 'a field whose value is left out shows what applies instead');
    assert.equal(field(form, 'window').dropped, `Left out of settings.yaml: ${refusal({ window: 2 })}`);
    assert.deepEqual([field(form, 'window').removable, field(form, 'window').overridden, field(form, 'window').error], [true, false, undefined], 'offered for removal, not an override, not a draft\'s refusal');
    assert.equal(form.groups.flatMap((g) => g.folds).find((f) => f.id === 'counted')?.problem, true, 'its fold says so while closed');
    assert.deepEqual([form.invalid, form.dirty, form.problems, form.writes], [false, false, [], []], 'nothing staged, nothing held');
  });

  test('the form resolves the section as the host does: the card\'s value is the namespace\'s', () => {
    for (const [base, user] of [
      [{}, section],
      [{ window: 20 }, { window: 2, stale: { warnAt: 5, limit: 2 } }],
      [{}, { denyAfter: 3, blockShellHttp: true, limits: 5 }],
    ] as const) {
      const config = hostValue(base, user);
      const form = viewForm(base, user, new Map(), COPY, config);
      for (const view of form.groups.flatMap((g) => g.fields)) {
        if (view.field.kind.type === 'aliases') continue;
        assert.equal(view.text, format(view.field, valueAt(config, view.field.path)), `${JSON.stringify(user)} ${view.field.path}`);
      }
      assert.deepEqual(form.dropped.map((d) => d.path), resolveStored(base, mergeLayers(base, user)).dropped.map((d) => d.path));
    }
  });

  test('Remove stages the section without the value (Unsaved), Keep takes it back, and Save writes it', () => {
    const removed = viewForm({}, section, drafts({ onlimit: 'RESET', window: 'RESET', 'limits.exactt': 'RESET' }), COPY, hostValue({}, section));
    assert.deepEqual(removed.dropped.map((d) => d.state), ['removed', 'removed', 'removed']);
    assert.equal(removed.dirty, true);
    assert.deepEqual(removed.writes, [
      { key: 'onlimit', value: undefined },
      { key: 'window', value: undefined },
      { key: 'limits', value: { exact: 8 } },
    ]);
    assert.equal(field(removed, 'window').dropped, undefined, 'the field no longer says it');
    assert.equal(field(removed, 'window').staged, true);
    const one = viewForm({}, section, drafts({ onlimit: 'RESET' }), COPY, hostValue({}, section));
    assert.deepEqual(one.writes, [{ key: 'onlimit', value: undefined }], 'one removal, the others kept');
  });

  test('a value typed in the field replaces it; a bad one is refused there, as the host refuses it', () => {
    const fixed = viewForm({}, section, drafts({ window: '20' }), COPY, hostValue({}, section));
    assert.equal(fixed.dropped.find((d) => d.path === 'window')?.state, 'replaced');
    assert.deepEqual(fixed.writes, [{ key: 'window', value: 20 }]);
    const bad = viewForm({}, section, drafts({ window: '3' }), COPY, hostValue({}, section));
    assert.equal(field(bad, 'window').error, inCardWords(refusal({ window: 3 }), field(bad, 'window').field));
    assert.deepEqual(bad.writes, []);
  });

  test('in Chinese, the card says what is left out and why in Chinese, the refusal as the host words it', () => {
    const zh = wordsOf(translator('zh'), 'zh');
    const form = viewForm({}, section, new Map(), zh, hostValue({}, section));
    const refusalOf = (config: unknown) => resolveStored({}, config).dropped[0]!.refusal;
    assert.equal(form.dropped[0]!.message, configText(refusalOf({ onlimit: 'deny' }), 'zh'));
    assert.match(form.dropped[0]!.message, /不是一个设置项/);
    assert.equal(field(form, 'window').dropped, zh.dropped.field(inCardWords(refusalOf({ window: 2 }), field(form, 'window').field, zh)));
    assert.equal(form.dropped[1]!.fieldLabel, `${zh.folds.counted} › 窗口`);
  });

  test('an edit beside a value left out saves without touching it: the host keeps what the section already leaves out', () => {
    const form = viewForm({}, section, drafts({ warnAt: '5', 'limits.exact': '6' }), COPY, hostValue({}, section));
    assert.equal(form.invalid, false);
    assert.deepEqual(form.writes, [
      { key: 'limits', value: { exact: 6, exactt: 3 } },
      { key: 'warnAt', value: 5 },
    ]);
    assert.deepEqual(form.dropped.map((d) => d.state), ['kept', 'kept', 'kept']);
  });
});

describe('wording and layout (issue 32)', () => {
  test('every field shows its YAML key', () => {
    for (const f of groupsFor(Object.keys(DEFAULTS.limits)).flatMap((g) => g.fields)) assert.equal(f.key, f.path, f.path);
  });

  test('Window is not a stage: it opens What is counted', () => {
    const groups = groupsFor([]);
    assert.ok(!groups.find((g) => g.id === 'stages')!.fields.some((f) => f.path === 'window'), 'window is not under Stages');
    assert.equal(groups.find((g) => g.id === 'more')!.fields.filter((f) => f.fold === 'counted')[0]?.path, 'window');
  });

  test('four Gate after fields are told apart where a sentence names them', () => {
    const form = viewForm({ stale: {}, editRetry: {}, timeouts: {}, sequence: {} }, {}, drafts({ 'stale.limit': '1', 'editRetry.limit': '1', 'timeouts.limit': '1', 'sequence.limit': '1' }));
    assert.deepEqual(form.problems.map((p) => p.label), ['Stale track › Gate after', 'Edit-retry track › Gate after', 'Timeout track › Gate after', 'Sequence track › Gate after']);
  });

  test('the sequence gate\'s refusal says its floor comes from sequence.count', () => {
    const error = field(viewForm({ sequence: {} }, {}, drafts({ 'sequence.limit': '2' })), 'sequence.limit').error ?? '';
    assert.match(error, /^`sequence\.limit` must be an integer >= `sequence\.count` \(3\) \(got 2\)/);
  });

  test('the default host aliases are read-only lines above the box, which holds only the user\'s own', () => {
    const form = viewForm({}, { hostAliases: { 'a.example': 'b.example' } }, new Map());
    const aliases = field(form, 'hostAliases');
    assert.deepEqual(aliases.fixed, Object.entries(DEFAULTS.hostAliases).map(([from, to]) => `${from} = ${to}`));
    assert.equal(aliases.text, 'a.example = b.example');
    // Emptying the box removes the user's own lines, never a default.
    assert.deepEqual(viewForm({}, { hostAliases: { 'a.example': 'b.example' } }, drafts({ hostAliases: '' })).writes, [{ key: 'hostAliases', value: undefined }]);
    const elsewhere = viewForm({}, {}, drafts({ hostAliases: 'open-data.canada.ca = data.example' }));
    assert.deepEqual(elsewhere.writes, [{ key: 'hostAliases', value: { 'open-data.canada.ca': 'data.example' } }]);
    assert.equal(defaultNote(field(viewForm({}, {}, new Map()), 'hostAliases')), 'Default: none of your own.');
  });

  test('the failure-progress help says what the code does: a change restarts the streak, a new error holds it', () => {
    assert.match(COPY.fields.failureProgress.hint, /after a change to the files starts its streak again; one with a new error and nothing changed holds it/);
  });
});

/**
 * Every registered track's `meta` is complete, as eslint-plugin-eslint-plugin
 * holds every ESLint rule's: the engine and the card read a track only
 * through it (tracks/track.ts), so a track whose meta lacks a part would be
 * half a track. And the names agree: a track's two files, its key, its name,
 * the name its hits give in the gate's texts; the two registries list the
 * same tracks.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { createTurns } from '../../src/lib/memory/turn.js';
import { CALL_TRACKS, MESSAGE_TRACKS, TRACKS } from '../../src/lib/tracks/index.js';
import { CARD_SETTINGS, METAS, SETTINGS } from '../../src/lib/tracks/meta.js';
import type { TrackMeta, TrackModule } from '../../src/lib/tracks/track.js';

const TRACKS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/lib/tracks');
const MODULES: readonly TrackModule[] = TRACKS;

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`).replace(/ /g, '-');

/** The file each registered track (its module, or its meta) is exported from, without `.ts`. */
async function filesOf(): Promise<Map<TrackModule | TrackMeta, string>> {
  const files = new Map<TrackModule | TrackMeta, string>();
  const registered: readonly unknown[] = [...MODULES, ...METAS];
  for (const entry of readdirSync(TRACKS_DIR)) {
    const exported = Object.values((await import(pathToFileURL(join(TRACKS_DIR, entry)).href)) as Record<string, unknown>);
    for (const value of exported) if (registered.includes(value)) files.set(value as TrackModule | TrackMeta, basename(entry, '.ts'));
  }
  return files;
}

describe("every track's meta", () => {
  for (const track of MODULES) {
    const { meta } = track;
    test(`${meta.name}: a name, a one-line description, what it reads, when it is on, its summary word`, () => {
      assert.match(meta.name, /^[a-z][a-z -]*[a-z]$/);
      assert.match(meta.description, /^[A-Z].{15,160}\.$/, 'one sentence');
      assert.ok(meta.reads === 'calls' || meta.reads === 'messages', `${meta.name} reads ${String(meta.reads)}`);
      assert.equal(typeof meta.isOn, 'function');
      assert.notEqual(meta.summary.trim(), '');
      assert.equal(typeof track.create, 'function');
    });

    const owned = meta.setting ?? meta.uses;
    test(`${meta.name}: off in the shipped config unless it runs on the core's settings, on when its setting is`, () => {
      assert.equal(meta.isOn(DEFAULTS), owned === undefined || owned === null);
      if (owned !== undefined && owned !== null) assert.equal(meta.isOn(resolveConfig({ [owned.key]: {} })), true);
    });

    if (meta.uses !== undefined) {
      test(`${meta.name}: the setting it uses is another track's own`, () => {
        assert.equal(meta.setting, null, 'a track uses a setting it does not own');
        assert.ok(MODULES.some((other) => other !== track && other.meta.setting === meta.uses), `${meta.name} uses ${meta.uses?.key ?? 'nothing'}, which no other track owns`);
      });
    }
  }

  for (const track of CALL_TRACKS) {
    const { meta, words } = track;
    test(`${meta.name}: its words in the gate's texts, in English and Chinese, under its own name`, () => {
      assert.equal(words.track, meta.name);
      assert.ok(Number.isInteger(words.listed), `${meta.name} is listed at ${words.listed}`);
      assert.notEqual((words.note ?? 'none').trim(), '');
      const hit = { words, quote: 'exact:bash:{"command":"make"}', count: 4, cap: 4, detail: '', subject: { one: 'run of this command', it: 'this command', many: false }, shown: '\u201cmake\u201d', failed: '' };
      for (const [language, ask] of [['en', words.ask], ['zh', words.zh]] as const) {
        assert.match(ask.what(hit), language === 'en' ? /^[a-z].*\.$/ : /。$/, `${language}: the ask's first sentence, after its head, ends with its stop`);
        assert.match(ask.also(hit), /4/, `${language}: its evidence after another track's sentence carries the count`);
      }
    });

    test(`${meta.name}: what it needs read from a call, and a track with empty books`, () => {
      for (const cfg of [DEFAULTS, resolveConfig({ preset: 'recommended' })]) {
        const needs = meta.needs(cfg);
        for (const [what, wanted] of Object.entries(needs)) {
          assert.ok(['changes', 'files', 'line'].includes(what), what);
          assert.equal(typeof wanted, 'boolean', what);
        }
      }
      const books = track.create(createTurns(DEFAULTS.window), DEFAULTS);
      assert.equal(typeof track.hooks.judge, 'function');
      assert.equal(typeof track.hooks.clear, 'function');
      // Empty books: clearing an agent they never met changes nothing and throws nothing.
      assert.doesNotThrow(() => track.hooks.clear(books, {}));
    });
  }

  for (const track of MESSAGE_TRACKS) {
    test(`${track.meta.name}: reviews a step's messages, and passes a decision on while it is off`, () => {
      const review = track.create(() => 0);
      const decision = { kind: 'enter', messages: [] };
      assert.equal(review.review({ agent: {}, messages: [] }, decision, DEFAULTS), decision);
    });
  }

  test('the tracks are named as their files, their keys and their texts name them', async () => {
    const files = await filesOf();
    for (const track of MODULES) {
      const { name, setting } = track.meta;
      const file = files.get(track);
      assert.ok(file !== undefined, `${name} is exported from a file of src/lib/tracks/`);
      if (setting === null) assert.equal(file, kebab(name), `${name}: its file`);
      // A key is public: the file follows it (`edit-retry.ts`, `editRetry`), and a key in the plural names the track in the singular.
      else assert.ok(file === kebab(setting.key) || `${file}s` === kebab(setting.key), `${name}: its file ${file}.ts and its key ${setting.key}`);
    }
    assert.equal(new Set(MODULES.map((track) => track.meta.name)).size, MODULES.length, 'one name per track');
  });

  test("each track is two sibling files, <name>.meta.ts its meta and <name>.ts its module, and the two registries list the same tracks in the same order", async () => {
    const files = await filesOf();
    assert.deepEqual(
      MODULES.map((track, at) => (track.meta === METAS[at] ? track.meta.name : `${track.meta.name}, not ${METAS[at]?.name ?? 'none'}`)),
      METAS.map((meta) => meta.name),
      'tracks/index.ts (the modules) and tracks/meta.ts (the metas): one line each per track, in gate order; a module\'s meta is its sibling\'s',
    );
    for (const track of MODULES) {
      assert.equal(files.get(track.meta), `${files.get(track) ?? '?'}.meta`, `${track.meta.name}: its meta beside its module`);
    }
    const metaFiles = readdirSync(TRACKS_DIR).filter((entry) => entry.endsWith('.meta.ts'));
    assert.deepEqual(metaFiles.map((entry) => basename(entry, '.ts')).sort(), METAS.map((meta) => files.get(meta)).sort(), 'every <name>.meta.ts exports a registered meta');
  });
});

describe("every track's setting", () => {
  test('an order of its own among the settings and in the card', () => {
    assert.equal(new Set(SETTINGS.map((setting) => setting.order)).size, SETTINGS.length);
    assert.equal(new Set(SETTINGS.map((setting) => setting.card.order)).size, SETTINGS.length);
    assert.equal(new Set(SETTINGS.map((setting) => setting.key)).size, SETTINGS.length);
    assert.deepEqual(new Set(CARD_SETTINGS), new Set(SETTINGS));
  });

  for (const setting of SETTINGS) {
    const { key } = setting;
    test(`${key}: off by default; {} turns it on with its defaults, and its value reads back through of()`, () => {
      assert.equal(DEFAULTS[key as keyof typeof DEFAULTS], null);
      assert.equal(setting.of(DEFAULTS), null);
      const on = resolveConfig({ [key]: {} });
      assert.deepEqual(setting.of(on), setting.defaults);
      assert.equal(setting.check(null, on), null);
      assert.deepEqual(setting.check({}, on), setting.defaults);
      assert.ok(Object.isFrozen(setting.defaults), `${key}'s defaults are frozen`);
    });

    test(`${key}: its refusals in English and Chinese, the same ids and placeholders, each one reached`, () => {
      const ids = Object.keys(setting.messages.en);
      assert.ok(ids.length > 0, `${key} has refusals of its own`);
      assert.deepEqual(Object.keys(setting.messages.zh).sort(), [...ids].sort());
      for (const id of ids) {
        assert.notEqual((setting.messages.en[id] as string).trim(), '', id);
        assert.deepEqual(placeholders(setting.messages.zh[id] as string), placeholders(setting.messages.en[id] as string), id);
      }
      assert.throws(() => resolveConfig({ [key]: 'on' }), new RegExp(`^Error: repeat-tool-breaker: \`${key}\` must be a mapping`));
    });

    test(`${key}: its schema node, described, off by default`, () => {
      assert.equal(setting.schema.type, 'union');
      assert.equal(setting.schema.meta.default, null);
      assert.match(setting.schema.meta.description ?? '', /\(opt-in\).*null leaves it off\.$/);
    });

    test(`${key}: its stricter rule: on beats off, and a value is as strict as itself`, () => {
      const on = setting.defaults;
      assert.equal(setting.stricter(null, null), null);
      assert.deepEqual(setting.stricter(on, null), on);
      assert.deepEqual(setting.stricter(null, on), on);
      assert.deepEqual(setting.stricter(on, on), on);
    });

    test(`${key}: merged under a preset one level deep, or not, said`, () => {
      assert.equal(typeof setting.merged, 'boolean');
    });

    test(`${key}: its fields in the card, the switch first, each with a label and a hint in English and Chinese`, () => {
      const [first, ...rest] = setting.card.fields;
      assert.deepEqual(first && { path: first.path, kind: first.kind }, { path: key, kind: { type: 'track' } });
      assert.deepEqual(
        rest.map((field) => field.path),
        Object.keys(setting.defaults).map((sub) => `${key}.${sub}`),
        'one field per sub-setting, in the order of its defaults',
      );
      for (const field of setting.card.fields) {
        for (const locale of ['en', 'zh'] as const) {
          assert.notEqual(field.copy[locale].label.trim(), '', `${field.path} ${locale}`);
          assert.notEqual(field.copy[locale].hint.trim(), '', `${field.path} ${locale}`);
        }
      }
    });
  }
});

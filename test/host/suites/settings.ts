/**
 * In-process suite for the live settings namespace: the genuine settings
 * service of DSH 0.1.0-rc.8 (`@deepseek-ai/dsh-settings`, stored by the file
 * provider `@deepseek-ai/dsh-settings-file` in a temporary `settings.yaml`)
 * beside the genuine `ToolRuntime` of the rig (../lib/rig.ts), the plugin
 * loaded from the packed build.
 *
 * It proves: the namespace registers live with the row config as the base
 * layer and a schema the browser's schemastery rehydrates; a bad value is
 * refused with the plugin's own load-time message and nothing is written; a
 * tightening applies to the next call of a turn already under way; a
 * loosening, even one a tool call writes into settings.yaml itself, waits for
 * the next human message; a value of settings.yaml the plugin refuses (a typo
 * at boot, a bad number edited while DSH runs) is left out, said on the
 * terminal, and the rest of the section applies, preset included, while a
 * section refused whole keeps the namespace registered and the last accepted
 * value in force; the card and the host agree on what a write may keep.
 *
 * The reference 0.5.2 has no settings namespace: under `--plugin reference`
 * every scenario is a `todo`.
 *
 * Run by `test/host/run.ts` under Node 22: `node --import tsx --test`.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { hostImport, importPlugin, pluginUnderTest } from '../lib/env.js';
import { rig, tick, type Behaviour, type Rig } from '../lib/rig.js';
import { errorOf } from '../../support/errors.js';
import { parse } from '../../../client/codec.js';
import { viewForm, type Draft } from '../../../client/form.js';
import { mergeLayers } from '../../../client/layers.js';

const plugin = pluginUnderTest();
const onlyOurs = plugin.label === 'reference' ? { todo: 'reference 0.5.2 has no settings namespace' } : {};
const NS = 'repeat-tool-breaker';
const BLOCKED = /^Error: REPEAT_TOOL_BLOCKED/;

let FileSettingsProvider: any;
let Schema: any;
let createUserMessage: any;
let resolveConfig: (config: unknown) => any;
let DEFAULTS: any;
let scratch: string;
let seq = 0;
const opened: { dispose(): unknown }[] = [];

before(async () => {
  ({ FileSettingsProvider } = await hostImport('@deepseek-ai/dsh-settings-file'));
  Schema = (await hostImport('@deepseek-ai/schemastery')).default;
  ({ createUserMessage } = await hostImport('@deepseek-ai/dsh-llm'));
  ({ resolveConfig, DEFAULTS } = await importPlugin(plugin));
  scratch = mkdtempSync(join(tmpdir(), 'breaker-settings-'));
});

after(async () => {
  for (const provider of opened) await provider.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

/** Waits until `ready()` holds, checking every 10 ms for at most `ms`. */
async function until(ready: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (let waited = 0; !ready(); waited += 10) {
    if (waited >= ms) assert.fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Live {
  r: Rig;
  /** The temporary settings.yaml. */
  file: string;
  /** The provider's fiber: disposed at the end, so that its file watcher lets the process exit. */
  provider: { dispose(): unknown };
}

/** The rig with the genuine file settings provider mounted before the plugin, and the namespace registered. */
async function live(config: Record<string, unknown>, options: { watch?: boolean; behaviour?: (command: string, run: number) => Behaviour; file?: string } = {}): Promise<Live> {
  seq += 1;
  const file = options.file ?? join(scratch, `settings-${seq}.yaml`);
  let provider: { dispose(): unknown } | undefined;
  const r = await rig({
    config,
    ...(options.behaviour === undefined ? {} : { behaviour: options.behaviour }),
    setup: (ctx) => {
      provider = ctx.plugin(FileSettingsProvider, { path: file, watch: options.watch ?? false, debounceMs: 0 });
    },
  });
  assert.ok(provider, 'the file settings provider is mounted');
  opened.push(provider);
  await until(() => r.ctx.get('settings')?.get(NS) !== undefined, 'the namespace to register');
  return { r, file, provider };
}

const human = (r: Rig): Promise<unknown> => r.preStep([createUserMessage({ content: [{ type: 'text', text: 'go on' }], source: { kind: 'user' } })]);

async function calls(r: Rig, command: string, n: number): Promise<boolean[]> {
  const denied: boolean[] = [];
  for (let i = 0; i < n; i += 1) {
    const result = await r.call(command);
    if (result.isError) assert.match(result.text, BLOCKED);
    denied.push(result.isError);
  }
  return denied;
}

describe(`DSH 0.1.0-rc.8 settings service, in process — plugin: ${plugin.label} (${plugin.entry})`, () => {
  test('registers `repeat-tool-breaker` live, with the row config as the base layer and a schema the browser rehydrates', onlyOurs, async () => {
    const config = { onLimit: 'deny', limits: { exact: 6 } };
    const { r } = await live(config);
    const view = r.ctx.settings.describe({ redactSecrets: true }).find((d: any) => d.ns === NS);
    assert.ok(view, 'the namespace is described');
    assert.equal(view.applies, 'live');
    assert.deepEqual(view.base, config, 'the base layer is the row config as written');
    assert.equal(view.user, undefined, 'nothing saved yet');
    assert.deepEqual(view.value, JSON.parse(JSON.stringify(resolveConfig(config))), 'the value is the effective config, every setting');
    assert.deepEqual(view.secrets, []);
    // What the browser does with it (dsh-client-ui-settings: `new Schema(view.schema)`, then validates the value).
    const schema = new Schema(JSON.parse(JSON.stringify(view.schema)));
    assert.doesNotThrow(() => schema(structuredClone(view.value)));
    assert.throws(() => schema({ ...structuredClone(view.value), window: 'sixteen' }), /expected number/);
    const everyTrackOn = resolveConfig({ window: 24, sequence: {}, duplicateText: {}, exemptionCeiling: 2, progress: 'results', failLimit: null });
    assert.doesNotThrow(() => schema(JSON.parse(JSON.stringify(everyTrackOn))), 'a value with every opt-in track on');
    assert.deepEqual(Object.keys(schema.dict.limits.dict), Object.keys(DEFAULTS.limits), 'one field per measure the code knows');
    assert.equal(schema.dict.window.meta.default, DEFAULTS.window);
  });

  test('an invalid value is refused with the plugin’s load-time message, and nothing is written', onlyOurs, async () => {
    const { r, file } = await live({});
    const settings = r.ctx.settings;
    const before = settings.describe().find((d: any) => d.ns === NS);
    await assert.rejects(settings.update(NS, { window: 2 }), { message: errorOf(() => resolveConfig({ window: 2 })) });
    // The card writes with `mutate` (one path per field).
    await assert.rejects(settings.mutate(NS, [{ op: 'set', path: ['limits'], value: { exact: 1 } }]), {
      message: errorOf(() => resolveConfig({ limits: { exact: 1 } })),
    });
    await assert.rejects(settings.update(NS, { denyAfter: 3 }), { message: errorOf(() => resolveConfig({ denyAfter: 3 })) });
    // P11: a misspelt key is refused, naming the setting meant, where 0.5.2 would write it and ignore it.
    await assert.rejects(settings.update(NS, { onlimit: 'deny' }), { message: errorOf(() => resolveConfig({ onlimit: 'deny' })) });
    assert.match(errorOf(() => resolveConfig({ onlimit: 'deny' })), /Did you mean `onLimit`\?/);
    assert.equal(existsSync(file), false, 'settings.yaml was never written');
    const after = settings.describe().find((d: any) => d.ns === NS);
    assert.equal(after.revision, before.revision);
    assert.equal(after.user, undefined);
    assert.deepEqual(after.value, before.value);
  });

  test('a typo in settings.yaml at boot costs that value: the namespace stays, the rest applies (preset included), the terminal names it, and a removal clears it', onlyOurs, async (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const file = join(scratch, `settings-${seq + 1}.yaml`);
    writeFileSync(file, `${NS}:\n  preset: recommended\n  onlimit: ask\n  limits: { exact: 4 }\n`);
    const row = { onLimit: 'deny', limits: { exact: 8 } };
    const { r } = await live(row, { file });
    const view = r.ctx.settings.describe({ redactSecrets: true }).find((d: any) => d.ns === NS);
    assert.ok(view, 'settings.describe still has the namespace (the card with it)');
    assert.deepEqual(view.user, { preset: 'recommended', onlimit: 'ask', limits: { exact: 4 } }, 'and the stored section, for the card to show');
    assert.deepEqual(view.value, JSON.parse(JSON.stringify(resolveConfig({ ...row, preset: 'recommended', limits: { exact: 4 } }))), 'the section without `onlimit` applies: the preset and the cap of 4');
    const card = viewForm(row, view.user, new Map(), undefined, view.value);
    assert.deepEqual(card.dropped.map((d) => [d.path, d.written]), [['onlimit', '"ask"']], 'the card lists the value left out');
    assert.equal(card.groups.flatMap((g) => g.fields).find((f) => f.field.path === 'preset')?.text, 'recommended', 'and shows the preset kept');
    const lines = warn.mock.calls.map((c) => String(c.arguments[0]));
    assert.equal(lines.length, 1, `one line on the terminal: ${JSON.stringify(lines)}`);
    assert.ok(lines[0]!.startsWith(`repeat-tool-breaker: \`onlimit\` in the \`${NS}:\` section of ${file} is left out, and the rest of the section applies: `), `the line names the key, the file and what applies: ${lines[0]}`);
    assert.ok(lines[0]!.includes('`onlimit` is not a setting (got "ask"). Did you mean `onLimit`?'), `the line carries the refusal: ${lines[0]}`);
    assert.deepEqual(await calls(r, 'cat /etc/hostname', 5), [false, false, false, true, true], "the section's cap of 4 (a tightening: at once) and the row's deny");
    // A write beside it is taken and keeps it (still left out); a new bad value is refused; the card's removal (mutate unset) is taken.
    await r.ctx.settings.mutate(NS, [{ op: 'set', path: ['warnAt'], value: 3 }]);
    assert.equal(r.ctx.settings.get(NS).warnAt, 3);
    assert.match(readFileSync(file, 'utf8'), /onlimit: ask/);
    await assert.rejects(r.ctx.settings.mutate(NS, [{ op: 'set', path: ['window'], value: 2 }]), { message: errorOf(() => resolveConfig({ window: 2 })) });
    await r.ctx.settings.mutate(NS, [{ op: 'unset', path: ['onlimit'] }]);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /onlimit/);
    assert.equal(r.ctx.settings.get(NS).preset, 'recommended');
    assert.match(String(warn.mock.calls.at(-1)?.arguments[0]), /is accepted again; the breaker follows it\.$/);
    assert.equal(warn.mock.callCount(), 2);
  });

  test('a section refused whole at boot (its refusal names only the row\'s values) keeps the namespace, is said on the terminal, and the row config runs until a reset', onlyOurs, async (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const file = join(scratch, `settings-${seq + 1}.yaml`);
    // The preset's time-out advisory (4) would come after the row's time-out gate (3).
    writeFileSync(file, `${NS}:\n  preset: recommended\n  limits: { exact: 8 }\n`);
    const row = { onLimit: 'deny', limits: { exact: 3 }, timeouts: { limit: 3 } };
    const { r } = await live(row, { file });
    const view = r.ctx.settings.describe({ redactSecrets: true }).find((d: any) => d.ns === NS);
    assert.ok(view, 'settings.describe still has the namespace (the card with it)');
    assert.deepEqual(view.value, JSON.parse(JSON.stringify(resolveConfig(row))), 'none of it applies: the value is the row config');
    assert.ok(viewForm(row, view.user, new Map(), undefined, view.value).stored, 'the card shows it refused whole');
    const lines = warn.mock.calls.map((c) => String(c.arguments[0]));
    assert.equal(lines.length, 1, `one line on the terminal: ${JSON.stringify(lines)}`);
    assert.ok(lines[0]!.startsWith(`repeat-tool-breaker: the \`${NS}:\` section of ${file} is refused, so none of that section applies`), `the line: ${String(lines[0])}`);
    assert.ok(lines[0]!.includes('`timeouts.warnAt` (4) is past `timeouts.limit` (3)'), `the line names the refusal: ${String(lines[0])}`);
    assert.deepEqual(await calls(r, 'cat /etc/hostname', 4), [false, false, true, true], "the row's cap of 3 and deny");
    await assert.rejects(r.ctx.settings.mutate(NS, [{ op: 'set', path: ['window'], value: 20 }]), /`timeouts\.warnAt` \(4\) is past/);
    await r.ctx.settings.mutate(NS, [{ op: 'unset', path: ['preset'] }]);
    assert.equal(r.ctx.settings.get(NS).limits.exact, 8, 'the rest of the section applies once the preset is gone');
    assert.match(String(warn.mock.calls.at(-1)?.arguments[0]), /is accepted again; the breaker follows it\.$/);
  });

  test('a bad number edited into settings.yaml while DSH runs is left out, the rest of the edit applies, the card hears of it (a new revision), and it is said once', onlyOurs, async (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const file = join(scratch, `settings-${seq + 1}.yaml`);
    writeFileSync(file, `${NS}:\n  limits: { exact: 5 }\n`);
    const { r } = await live({ onLimit: 'deny' }, { watch: true, file });
    assert.equal(r.ctx.settings.get(NS).limits.exact, 5);
    const revision = (): number => r.ctx.settings.describe().find((d: any) => d.ns === NS).revision;
    const before = revision();
    const edited = { limits: { exact: 4 }, window: 2 };
    const stored = (): unknown => r.ctx.settings.describe().find((d: any) => d.ns === NS).user;
    // Until the watcher is live, rewrite the edit now and then; then until it has read the whole edit (a
    // busy machine can let the watcher read the file while a write is under way, and publish that first).
    for (let attempt = 0; revision() === before || !isDeepStrictEqual(stored(), edited); attempt += 1) {
      if (attempt % 20 === 0 && revision() === before) writeFileSync(file, `${NS}:\n  limits: { exact: 4 }\n  window: 2\n`);
      assert.ok(attempt < 1000, `the provider never published the whole edit: ${JSON.stringify(stored())}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const view = r.ctx.settings.describe().find((d: any) => d.ns === NS);
    assert.deepEqual(view.user, { limits: { exact: 4 }, window: 2 }, 'the browser re-reads the stored section (settings/document-updated)');
    assert.equal(view.value.window, 16, '`window: 2` is left out');
    assert.equal(view.value.limits.exact, 4, 'the rest of the edit applies');
    const said = warn.mock.calls.map((c) => String(c.arguments[0])).filter((line) => line.includes('is left out'));
    assert.equal(said.length, 1, JSON.stringify(said));
    assert.match(said[0]!, /`window` in the `repeat-tool-breaker:` section of \S+ is left out, and the rest of the section applies: `window` must be an integer >= 4 \(got 2\)/);
    assert.deepEqual(await calls(r, 'cat /etc/hostname', 5), [false, false, false, true, true], 'the edited cap of 4 gates');
    await r.ctx.settings.mutate(NS, [{ op: 'unset', path: ['window'] }]);
    assert.deepEqual(r.ctx.settings.describe().find((d: any) => d.ns === NS).user, { limits: { exact: 4 } });
  });

  test('the card and the host agree on what a write may keep: over a section with values left out, every value of a table in every field in view', onlyOurs, async () => {
    const stored = { onlimit: 'deny', limits: { exact: 6, exactt: 3 } };
    const file = join(scratch, `settings-${seq + 1}.yaml`);
    writeFileSync(file, `${NS}:\n  onlimit: deny\n  limits: { exact: 6, exactt: 3 }\n`);
    const { r } = await live({}, { file });
    const settings = r.ctx.settings;
    const table = ['2.5', '0', '-1', '1', '2', '4', 'off', 'abc', '1e21', 'deny', 'recommended', 'none'];
    const fields = viewForm({}, stored, new Map()).groups.flatMap((g) => g.fields.map((f) => f.field)).filter((f) => f.fold === undefined && !['list', 'lists', 'aliases', 'track'].includes(f.kind.type));
    const disagree: string[] = [];
    let compared = 0;
    for (const field of fields) {
      for (const text of table) {
        const form = viewForm({}, stored, new Map<string, Draft>([[field.path, { kind: 'text', text }]]));
        if (form.writes.length === 0 && !form.invalid) continue;
        const top = field.path.split('.')[0]!;
        const parsed = parse(field, text);
        if ('error' in parsed) continue;
        const value = top === 'limits' ? { ...stored.limits, [field.path.slice('limits.'.length)]: parsed.value } : parsed.value;
        let host = true;
        try {
          await settings.mutate(NS, [{ op: 'set', path: [top], value }]);
        } catch {
          host = false;
        }
        if (!form.invalid !== host) disagree.push(`${field.path} = ${JSON.stringify(text)}: card ${form.invalid ? 'refuses' : 'takes'}, host ${host ? 'takes' : 'refuses'}`);
        compared += 1;
        await settings.replace(NS, stored);
      }
    }
    assert.deepEqual(disagree, []);
    assert.ok(compared > 60, `only ${compared} values compared`);
    assert.deepEqual(settings.describe().find((d: any) => d.ns === NS).user, stored, 'the section as it was, its values left out kept');
  });

  test('the card and the host agree on every value of a table (fractions, 0, -1, off, strings, huge numbers), field by field', onlyOurs, async () => {
    const { r } = await live({});
    const settings = r.ctx.settings;
    const table = ['2.5', '0', '-1', '1', '2', '4', 'off', 'unlimited', 'abc', '1e21', '1e308', '9007199254740993', 'restart', 'on'];
    const fields = viewForm({}, {}, new Map()).groups.flatMap((g) => g.fields.map((f) => f.field)).filter((f) => !['list', 'lists', 'aliases'].includes(f.kind.type));
    let compared = 0;
    const disagree: string[] = [];
    for (const field of fields) {
      const top = field.path.split('.')[0]!;
      const sub = field.path.includes('.') ? field.path.slice(top.length + 1) : undefined;
      // A track's sub-settings are judged with the track on, as the card enables them.
      const on = sub !== undefined && top !== 'limits' ? { [top]: {} } : {};
      for (const text of table) {
        const parsed = parse(field, text);
        if ('error' in parsed) continue;
        const card = !viewForm({}, on, new Map<string, Draft>([[field.path, { kind: 'text', text }]])).invalid;
        const value = field.kind.type === 'track' ? (parsed.value === true ? {} : null) : parsed.value;
        const patch = sub === undefined ? { [top]: value } : (mergeLayers(on, { [top]: { [sub]: value } }) as Record<string, unknown>);
        let host = true;
        try {
          await settings.replace(NS, patch);
        } catch {
          host = false;
        }
        if (card !== host) disagree.push(`${field.path} = ${JSON.stringify(text)}: card ${card ? 'takes' : 'refuses'}, host ${host ? 'takes' : 'refuses'}`);
        compared += 1;
      }
    }
    await settings.replace(NS, {});
    assert.deepEqual(disagree, []);
    assert.ok(compared > 300, `only ${compared} values compared`);
  });

  test('a saved lower cap lands in settings.yaml and applies to the next call of the turn under way', onlyOurs, async () => {
    const { r, file } = await live({ onLimit: 'deny' });
    assert.deepEqual(await calls(r, 'cat /etc/hostname', 5), [false, false, false, false, false]);
    await r.ctx.settings.update(NS, { limits: { exact: 6 } });
    await tick();
    assert.match(readFileSync(file, 'utf8'), /repeat-tool-breaker:[\s\S]*exact: 6/);
    assert.deepEqual(await calls(r, 'cat /etc/hostname', 2), [true, true], 'the sixth identical call meets the new cap');
    assert.equal(r.runs.get('cat /etc/hostname'), 5);
  });

  test('a saved higher cap waits for the next human message', onlyOurs, async () => {
    const { r } = await live({ onLimit: 'deny', limits: { exact: 5, cmd: 5 } });
    await calls(r, 'cat /etc/hostname', 3);
    await r.ctx.settings.update(NS, { limits: { exact: 40, cmd: 40 } });
    await tick();
    assert.deepEqual(await calls(r, 'cat /etc/hostname', 2), [false, true], 'still capped at 5 in this turn');
    await human(r);
    assert.ok((await calls(r, 'cat /etc/hostname', 20)).every((denied) => !denied), 'the next turn runs on the saved cap');
  });

  test('a tool call that rewrites settings.yaml to switch its breaker off does not free itself in its own turn', onlyOurs, async () => {
    const file = join(scratch, `settings-${seq + 1}.yaml`);
    const loosen = (command: string): Behaviour => {
      // What a model's bash call with write access to $DSH_HOME could do; the provider hot-reloads the file.
      if (command === 'loosen') writeFileSync(file, `${NS}:\n  exclude: [bash]\n  onLimit: ask\n  limits: { exact: 1000, cmd: 1000 }\n`);
      return { exitCode: 0 };
    };
    writeFileSync(file, '# settings.yaml, as the web UI leaves it\n');
    const { r } = await live({ onLimit: 'deny', limits: { exact: 4 } }, { watch: true, behaviour: loosen, file });
    // Wait for the file watcher to be live: an edit of a setting that changes nothing for the gate, until it is seen.
    for (let attempt = 0; r.ctx.settings.get(NS).previewChars !== 399; attempt += 1) {
      if (attempt % 20 === 0) writeFileSync(file, `${NS}:\n  previewChars: 399\n`);
      assert.ok(attempt < 1000, 'the provider never published an edit of settings.yaml');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await calls(r, 'cat /etc/hostname', 2);
    assert.deepEqual(await calls(r, 'loosen', 1), [false]);
    await until(() => (r.ctx.settings.get(NS)?.exclude ?? []).includes('bash'), 'the provider to publish the edited file');
    assert.deepEqual(await calls(r, 'cat /etc/hostname', 3), [false, true, true], 'still tracked, still capped at 4, still denied');
    await human(r);
    assert.ok((await calls(r, 'cat /etc/hostname', 6)).every((denied) => !denied), 'after a human message the saved settings apply in full');
  });
});

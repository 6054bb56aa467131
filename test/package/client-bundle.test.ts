/**
 * dist/client.js as DSH's browser loader takes it, without a browser: the file
 * registers one factory under the package name; the factory asks the loader's
 * `require` only for shared modules; its `apply` binds the settings namespace
 * and registers the card on `settings.plugin.item`; and the card renders every
 * group with a stand-in React (hooks answered inline); and it carries the
 * tracks' metas, never their runtime, within a bound. The real shell is the
 * browser suite's job (`npm run test:web`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';

import { bundleClient, SHARED_MODULES } from '../../tools/build-client/client-bundle.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const text = readFileSync(join(root, 'dist', 'client.js'), 'utf8');

interface Element {
  type: unknown;
  props: Record<string, unknown>;
}

/** A React stand-in: elements are plain objects; hooks return their initial state (the card opened). */
function fakeReact(): Record<string, unknown> {
  const element = (type: unknown, props: Record<string, unknown>): Element => ({ type, props });
  class Component {
    state: unknown;
    constructor(readonly props: unknown) {}
  }
  return {
    react: {
      useState: (initial: unknown) => [initial === false ? true : initial, () => {}],
      useSyncExternalStore: (_subscribe: unknown, get: () => unknown) => get(),
      useId: () => ':r1:',
      useRef: (current: unknown) => ({ current }),
      Component,
    },
    'react/jsx-runtime': { jsx: element, jsxs: element, Fragment: Symbol('Fragment') },
  };
}

/** Calls function components and collects the text and the intrinsic elements of the tree. */
function render(node: unknown, out: { text: string[]; tags: Element[] }): void {
  if (node === null || node === undefined || typeof node === 'boolean') return;
  if (typeof node === 'string' || typeof node === 'number') {
    out.text.push(String(node));
    return;
  }
  if (Array.isArray(node)) {
    for (const child of node) render(child, out);
    return;
  }
  const el = node as Element;
  if (typeof el.type === 'function') {
    const type = el.type as { prototype?: { render?: unknown } } & ((props: unknown) => unknown);
    if (type.prototype?.render !== undefined) {
      const Ctor = el.type as new (props: unknown) => { render(): unknown; state: unknown };
      render(new Ctor(el.props).render(), out);
    } else render(type(el.props), out);
    return;
  }
  if (typeof el.type === 'string') out.tags.push(el);
  render(el.props.children, out);
}

function load() {
  const registrations: { id: string; factory: (require: (s: string) => unknown) => Record<string, unknown> }[] = [];
  const sandbox = { window: { __ModuleLoader__: { load: (r: (typeof registrations)[number]) => registrations.push(r) } }, document: undefined };
  runInNewContext(text, sandbox, { filename: 'client.js' });
  return registrations;
}

test('the bundle registers one factory under the package name and nothing runs before the loader materializes it', () => {
  const registrations = load();
  assert.equal(registrations.length, 1);
  assert.equal(registrations[0]!.id, 'dsh-repeat-tool-breaker');
});

test('the factory asks the loader only for the modules DSH shares, and exports apply and inject', () => {
  const asked: string[] = [];
  const react = fakeReact();
  const exports = load()[0]!.factory((specifier) => {
    asked.push(specifier);
    assert.ok(SHARED_MODULES.includes(specifier), `the bundle asked for ${specifier}`);
    return react[specifier];
  });
  assert.equal(typeof exports.apply, 'function');
  // Values from the bundle's own realm: compared as plain copies.
  assert.deepEqual([...(exports.inject as string[])], ['slots', 'settingsScope']);
  assert.deepEqual([...new Set(asked)].sort(), ['react', 'react/jsx-runtime']);
});

test('apply binds the repeat-tool-breaker namespace and registers a card keyed on it, which renders every group', () => {
  const react = fakeReact();
  const exports = load()[0]!.factory((specifier) => react[specifier]);
  const bound: string[] = [];
  const registered: { options: { name: string; key: string }; component: () => unknown }[] = [];
  const snapshot = { status: 'ready', value: {}, base: { warnAt: 5 }, user: { limits: { exact: 6 } }, revision: 1, writable: true };
  const ctx = {
    slots: {
      inject: (name: string, register: () => unknown) => {
        assert.equal(name, 'settings.plugin.item');
        register();
      },
      register: (options: { name: string; key: string }, component: () => unknown) => {
        registered.push({ options, component });
        return () => {};
      },
    },
    settingsScope: {
      bind: (spec: { namespace: string; decode?: (v: unknown) => unknown }) => {
        bound.push(spec.namespace);
        assert.equal(spec.decode?.(snapshot), snapshot);
        assert.equal(spec.decode?.('not a section'), undefined);
        return { getSnapshot: () => snapshot, subscribe: () => () => {}, set: async () => {}, unset: async () => {} };
      },
    },
  };
  (exports.apply as (c: unknown) => void)(ctx);
  assert.deepEqual(bound, ['repeat-tool-breaker']);
  assert.equal(registered.length, 1);
  assert.deepEqual({ ...registered[0]!.options }, { name: 'settings.plugin.item', key: 'repeat-tool-breaker' });
  const out = { text: [] as string[], tags: [] as Element[] };
  render((registered[0]!.component as () => unknown)(), out);
  const all = out.text.join(' ');
  for (const group of ['Gate', 'Stages', 'Caps', 'Opt-in tracks', 'More settings']) assert.ok(all.includes(group), `${group} missing`);
  for (const fold of ['More caps', 'Approvals and progress', 'What is counted', 'Local addresses', 'Messages']) assert.ok(all.includes(fold), `the fold ${fold} missing`);
  const toggles = out.tags.filter((el) => el.props['data-rtb-fold-toggle'] !== undefined);
  assert.ok(toggles.length >= 12 && toggles.every((el) => el.props['aria-expanded'] === false), 'every fold closed, each a button that says so');
  assert.equal(out.tags.find((el) => el.props['data-rtb-input'] === 'window'), undefined, 'a folded field is not rendered until its fold opens');
  const exact = out.tags.find((el) => el.props['data-rtb-input'] === 'limits.exact');
  assert.equal(exact?.props.value, '6', 'the user layer is the effective value');
  const warn = out.tags.find((el) => el.props['data-rtb-input'] === 'warnAt');
  assert.equal(warn?.props.value, '5', 'the profile config is the default');
});

/** The bundle's own modules, by id, as its table lists them (entry first). */
const MODULES = [...text.matchAll(/^ {6}"([^"]+)": function \(module, exports, require\) \{$/gm)].map((match) => match[1] as string);

/** Most bytes dist/client.js may weigh: 168 KB before the tracks owned themselves, 639 KB while the card bundled their runtime, 239 KB with their metas alone. */
const MOST_BYTES = 250_000;

/** What the card may carry: its own code, and the layers under the configuration with the tracks' metas; never a track's runtime. */
const CARD_MODULE = /^(?:client\/.+|src\/lib\/(?:host|text|setting|config)\/[^/]+\.ts|src\/lib\/tracks\/(?:meta|[a-z-]+\.meta)\.ts)$/;

test(`the bundle carries every track's meta and no track's runtime: no shell/, call/, result/, memory/ module, no Node built-in, at most ${MOST_BYTES} bytes`, () => {
  assert.equal(MODULES[0], 'client/index.tsx');
  assert.ok(MODULES.length >= 20, MODULES.join(', '));
  assert.deepEqual(MODULES.filter((id) => !CARD_MODULE.test(id)), [], 'the card reads src/lib/tracks/meta.ts, not tracks/index.ts: runtime modules in the bundle');
  for (const id of ['src/lib/tracks/meta.ts', 'src/lib/tracks/stale.meta.ts', 'src/lib/tracks/duplicate-text.meta.ts', 'src/lib/config/config.ts']) assert.ok(MODULES.includes(id), `${id} is bundled`);
  assert.doesNotMatch(text, /require\("node:/, 'no Node built-in is asked for');
  const bytes = Buffer.byteLength(text);
  assert.ok(bytes <= MOST_BYTES, `dist/client.js is ${bytes} bytes, more than ${MOST_BYTES}`);
});

test('the build refuses a Node built-in: the page has none, and one would mean a track\'s runtime crept into the card', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'rtb-bundle-'));
  try {
    mkdirSync(join(scratch, 'client'));
    writeFileSync(join(scratch, 'client', 'index.ts'), "import { createHash } from 'node:crypto';\nexport const digest = createHash;\n");
    assert.throws(() => bundleClient({ root: scratch, entry: 'client/index.ts', id: 'x', banner: 'x' }), /client\/index\.ts: imports node:crypto, a Node built-in the browser has not/);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

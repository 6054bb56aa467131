/**
 * Turns the card's TypeScript (client/) into the one file DSH's browser loader
 * takes: `window.__ModuleLoader__.load({ id, factory: (require) => exports })`.
 *
 * Each source file is transpiled on its own by the TypeScript compiler
 * (CommonJS, `react-jsx`) and wrapped in a function; a small table inside the
 * factory links them by path, and every other `require` goes to the loader's,
 * which answers only the modules the shell shares. That is the whole job of a
 * bundler here, so none is used: no dependency, and the output reads like the
 * source. Type checking is `tsc -p client`, not this.
 *
 * The card reads every track's `meta` from the metas' registry
 * (src/lib/tracks/meta.ts), which imports no track's runtime: no shell/,
 * call/, result/ or memory/ module comes along, and no Node built-in. A Node
 * built-in asked for is refused, as the page has none: it would mean the
 * runtime crept back into the card (test/package/client-bundle.test.ts
 * holds the bundle's size and modules).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Script } from 'node:vm';

import ts from 'typescript';

/** What the loader's `require` answers (DSH 0.1.0-rc.8's shared module table for plugin bundles). */
export const SHARED_MODULES: readonly string[] = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  '@deepseek-ai/cordis',
  '@deepseek-ai/dsh-client-ui-slots',
  '@deepseek-ai/dsh-client-ui-primitives',
];

export interface BundleOptions {
  /** The repository root; module ids in the bundle are paths relative to it. */
  readonly root: string;
  /** The entry file, relative to `root`. */
  readonly entry: string;
  /** The package name the loader registers the bundle under. */
  readonly id: string;
  /** A first-line comment. */
  readonly banner: string;
}

export interface Bundle {
  readonly text: string;
  /** Module ids, entry first. */
  readonly modules: readonly string[];
  /** Shared modules the bundle asks the loader for. */
  readonly shared: readonly string[];
}

const COMPILER: ts.CompilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  jsx: ts.JsxEmit.ReactJSX,
  removeComments: false,
  verbatimModuleSyntax: false,
  isolatedModules: true,
};

/** The source file an import specifier names: `./form.js` is `./form.ts` (or `.tsx`). */
function sourceOf(root: string, from: string, specifier: string): string {
  const target = resolve(root, dirname(from), specifier);
  const stem = target.replace(/\.js$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`]) if (existsSync(candidate)) return relative(root, candidate);
  throw new Error(`${from}: cannot find the source of ${specifier} (looked for ${stem}.ts and .tsx)`);
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : pad + line))
    .join('\n');
}

export function bundleClient(options: BundleOptions): Bundle {
  const order: string[] = [];
  const bodies = new Map<string, string>();
  const shared = new Set<string>();
  const visit = (id: string): void => {
    if (bodies.has(id)) return;
    bodies.set(id, '');
    const file = join(options.root, id);
    const output = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: COMPILER, fileName: file, reportDiagnostics: true });
    const problems = (output.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    if (problems.length > 0) throw new Error(`${id}: ${problems.join('; ')}`);
    const linked = output.outputText
      .replace(/\n\/\/# sourceMappingURL=.*$/, '')
      .replace(/\brequire\("([^"]+)"\)/g, (_call, specifier: string) => {
        if (specifier.startsWith('.')) {
          const target = sourceOf(options.root, id, specifier);
          visit(target);
          return `require(${JSON.stringify(target)})`;
        }
        if (specifier.startsWith('node:')) {
          throw new Error(`${id}: imports ${specifier}, a Node built-in the browser has not: the card reads the tracks' metas (src/lib/tracks/meta.ts), never a track's runtime`);
        }
        if (!SHARED_MODULES.includes(specifier)) {
          throw new Error(`${id}: imports ${specifier}, which DSH's loader does not share with plugin bundles (only ${SHARED_MODULES.join(', ')})`);
        }
        shared.add(specifier);
        return `require(${JSON.stringify(specifier)})`;
      });
    bodies.set(id, linked.trimEnd());
    order.push(id);
  };
  visit(options.entry);
  // Dependencies were pushed before their importers; the entry is last. List the entry first for readers.
  const modules = [options.entry, ...order.filter((id) => id !== options.entry)];
  const table = modules
    .map((id) => `${JSON.stringify(id)}: function (module, exports, require) {\n${indent(bodies.get(id) ?? '', '  ')}\n}`)
    .join(',\n');
  const text = [
    `// ${options.banner}`,
    'window.__ModuleLoader__.load({',
    `  id: ${JSON.stringify(options.id)},`,
    '  factory: (require) => {',
    '    const sources = {',
    indent(table, '      '),
    '    };',
    '    const loaded = {};',
    '    const load = (id) => {',
    '      if (loaded[id] !== undefined) return loaded[id].exports;',
    '      const module = { exports: {} };',
    '      loaded[id] = module;',
    '      sources[id](module, module.exports, (specifier) => (Object.hasOwn(sources, specifier) ? load(specifier) : require(specifier)));',
    '      return module.exports;',
    '    };',
    `    return load(${JSON.stringify(options.entry)});`,
    '  },',
    '});',
    '',
  ].join('\n');
  // Fail the build, not the page, on a syntax error.
  new Script(text, { filename: 'client.js' });
  return { text, modules, shared: [...shared].sort() };
}

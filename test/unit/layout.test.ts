/**
 * The layout is the architecture (docs/design.md): each folder of src/lib/ is
 * one layer, and a module imports only from its own layer or the ones below;
 * each tool is a folder of tools/, and tools/lib/ holds only what tools share.
 * The import graph and the functions are read with the TypeScript parser, so
 * a failure names the file, the import or the function.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { CALL_TRACKS, TRACKS } from '../../src/lib/tracks/index.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The layers, lowest first; `src/index.ts`, the wiring, sits on top of them all. */
export const LAYERS = ['host', 'text', 'setting', 'shell', 'call', 'result', 'memory', 'tracks', 'config', 'policy', 'breaker', 'plugin'] as const;
const ENTRY = 'index.ts';
/** Longest function body the code may have, in lines from its first to its last. */
const FUNCTION_LINES = 60;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const FILES = sourceFiles(SRC);
const parsed = new Map<string, ts.SourceFile>();
function sourceOf(file: string): ts.SourceFile {
  const known = parsed.get(file);
  if (known !== undefined) return known;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  parsed.set(file, source);
  return source;
}

/** The layer a file of src/ belongs to, by its folder under src/lib/: its rank, and its name. */
function layerOf(file: string): { rank: number; name: string } {
  const path = relative(SRC, file).split(sep);
  if (path.length === 1 && path[0] === ENTRY) return { rank: LAYERS.length, name: 'src/index.ts' };
  const name = path[0] === 'lib' ? (path[1] ?? '') : '';
  return { rank: (LAYERS as readonly string[]).indexOf(name), name };
}

/** Every relative module a file imports or re-exports, `import type` included, with its line. */
function importsOf(file: string): { specifier: string; line: number }[] {
  const source = sourceOf(file);
  const found: { specifier: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : null;
    if (specifier !== null) found.push({ specifier, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A function's name as a reader finds it: its own, or the variable, property or method it is assigned to. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined) return parent.name.getText(source);
  return '(anonymous)';
}

function functionsOf(file: string): { name: string; line: number; lines: number }[] {
  const source = sourceOf(file);
  const found: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: functionName(node as ts.FunctionLikeDeclaration, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The import circles of a graph, each as the files on it in import order, back to
 * the first: Tarjan's strongly connected components (iterative, so any depth
 * works), each component of two files or more (or a file importing itself) walked
 * once from its first file.
 */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { file: string; next: number }[] = [{ file: root, next: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root) as number);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1] as { file: string; next: number };
      const targets = graph.get(top.file) ?? [];
      if (top.next < targets.length) {
        const to = targets[top.next++] as string;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, index.size);
          low.set(to, index.get(to) as number);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(top.file, Math.min(low.get(top.file) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file) as number, low.get(top.file) as number));
      if (low.get(top.file) !== index.get(top.file)) continue;
      const component: string[] = [];
      for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
        onStack.delete(file);
        component.push(file);
        if (file === top.file) break;
      }
      if (component.length > 1 || (graph.get(top.file) ?? []).includes(top.file)) components.push(component);
    }
  }
  return components.map((component) => circleThrough(graph, new Set(component)));
}

/** One circle through a component: from its first file (by name), each step to a file of the component, until the walk comes back. */
function circleThrough(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>): string[] {
  const first = [...component].sort()[0] as string;
  const path = [first];
  const seen = new Map([[first, 0]]);
  for (let file = first; ; ) {
    const next = (graph.get(file) ?? []).find((to) => component.has(to)) as string;
    const at = seen.get(next);
    if (at !== undefined) return [...path.slice(at), next];
    seen.set(next, path.length);
    path.push(next);
    file = next;
  }
}

describe('the layout of src/', () => {
  test('every folder of src/lib/ is a known layer, and src/index.ts is the only file outside them', () => {
    const strays = FILES.filter((file) => layerOf(file).rank < 0).map((file) => relative(SRC, file));
    assert.deepEqual(strays, [], `not in a layer (${LAYERS.join(' < ')}): ${strays.join(', ')}`);
  });

  test('no import runs back up a layer', () => {
    const upward: string[] = [];
    for (const file of FILES) {
      const from = layerOf(file);
      for (const { specifier, line } of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
        const to = layerOf(target);
        if (to.rank > from.rank) upward.push(`src/${relative(SRC, file)}:${line} imports '${specifier}' (${from.name} may not import ${to.name})`);
      }
    }
    assert.deepEqual(upward, [], `layers, lowest first: ${LAYERS.join(' < ')} < src/index.ts\n${upward.join('\n')}`);
  });

  test('no import circle in src/: no module reaches itself through its imports, `import type` included', () => {
    const graph = new Map(FILES.map((file) => [file, importsOf(file).filter(({ specifier }) => specifier.startsWith('.')).map(({ specifier }) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'))]));
    const circles = importCircles(graph).map((circle) => circle.map((file) => `src/${relative(SRC, file)}`).join(' → '));
    assert.deepEqual(circles, [], 'each line is a circle, back to its first file');
  });

  test('src/ imports nothing but its own modules and Node built-ins (no runtime dependency)', () => {
    const outside: string[] = [];
    for (const file of FILES) {
      for (const { specifier, line } of importsOf(file)) {
        if (!specifier.startsWith('.') && !specifier.startsWith('node:')) outside.push(`src/${relative(SRC, file)}:${line} imports '${specifier}'`);
      }
    }
    assert.deepEqual(outside, []);
  });

  test(`no function in src/ is longer than ${FUNCTION_LINES} lines`, () => {
    const long = FILES.flatMap((file) =>
      functionsOf(file)
        .filter((fn) => fn.lines > FUNCTION_LINES)
        .map((fn) => `src/${relative(SRC, file)}:${fn.line} ${fn.name} is ${fn.lines} lines`),
    );
    assert.deepEqual(long, []);
  });

  test('every track module under src/lib/tracks/ is registered in TRACKS, the tool-call tracks in gate order', async () => {
    const unlisted: string[] = [];
    const registered: readonly unknown[] = TRACKS;
    for (const file of FILES.filter((path) => layerOf(path).name === 'tracks')) {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        const looksLikeTrack = typeof value === 'object' && value !== null && 'meta' in value && 'create' in value;
        if (looksLikeTrack && !registered.includes(value)) unlisted.push(`${name} in src/${relative(SRC, file)}`);
      }
    }
    assert.deepEqual(unlisted, [], 'add it to TRACKS in src/lib/tracks/index.ts');
    assert.deepEqual(
      CALL_TRACKS.map((track) => track.words.track),
      ['failure', 'repeat', 'sequence', 'stale', 'edit-retry', 'timeout', 'spin', 'guess', 'environment'],
    );
  });

  test("a track's meta and the metas' registry import no runtime: host/, text/, setting/ and other metas, and the track's shape as types only", () => {
    const META_FILE = /^(?:meta|[a-z-]+\.meta)\.ts$/;
    const metas = FILES.filter((file) => layerOf(file).name === 'tracks' && META_FILE.test(basename(file)));
    assert.ok(metas.length >= 11, metas.join(', '));
    const runtime: string[] = [];
    for (const file of metas) {
      for (const statement of sourceOf(file).statements) {
        if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
        const specifier = statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : '';
        const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
        const typeOnly = ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly === true : statement.isTypeOnly;
        const layer = layerOf(target).name;
        const allowed = ['host', 'text', 'setting'].includes(layer) || (layer === 'tracks' && (META_FILE.test(basename(target)) || (typeOnly && basename(target) === 'track.ts')));
        if (!allowed) runtime.push(`src/${relative(SRC, file)} imports '${specifier}'${typeOnly ? ' (types)' : ''}`);
      }
    }
    assert.deepEqual(runtime, [], 'the card bundles every meta (client/ reads tracks/meta.ts): what a meta imports comes along');
  });

  test("docs/design.md's table of layers lists the layers of src/lib/, lowest first, as this test holds them", () => {
    const design = readFileSync(resolve(SRC, '..', 'docs', 'design.md'), 'utf8');
    const table = design.slice(design.indexOf('| layer |'));
    const rows = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| ([a-z]+) \| `([a-z]+)\/` \|/gm)].map((row) => [row[1], row[2]]);
    assert.deepEqual(rows.map(([layer]) => layer), [...LAYERS], 'docs/design.md, "| layer | folder | …": one row per layer, lowest first');
    assert.deepEqual(rows.map(([, folder]) => folder), [...LAYERS], 'each layer is its folder');
  });
});

/**
 * tools/ grows by tool (docs/design.md, "The tools"): each tool is a folder holding its entry and
 * what only it uses; tools/lib/ holds what two tools or more use. The release is the one tool
 * with several commands, an entry each.
 */
const ROOT = resolve(SRC, '..');
const TOOLS = join(ROOT, 'tools');
const SHARED = 'lib';
const ENTRY_OF_A_TOOL = 'main.ts';
const ENTRIES: Readonly<Record<string, readonly string[]>> = { release: ['check.ts', 'tag.ts', 'oidc-claims.ts'] };

const TOOL_NAMES = readdirSync(TOOLS).filter((entry) => entry !== SHARED && statSync(join(TOOLS, entry)).isDirectory());
const TOOL_FILES = sourceFiles(TOOLS);
const entriesOf = (tool: string): readonly string[] => ENTRIES[tool] ?? [ENTRY_OF_A_TOOL];
/** The folder of tools/ a path is in (a tool's name, or `lib`); `null` outside tools/. */
function toolOf(file: string): string | null {
  const path = relative(TOOLS, file).split(sep);
  return path.length > 1 && path[0] !== '..' ? (path[0] as string) : null;
}
/** The files of tools/ a file imports, resolved (`.js` specifiers name the `.ts` file). */
function toolImportsOf(file: string): { target: string; specifier: string; line: number }[] {
  return importsOf(file)
    .filter(({ specifier }) => specifier.startsWith('.'))
    .map((found) => ({ ...found, target: resolve(dirname(file), found.specifier).replace(/\.js$/, '.ts') }))
    .filter(({ target }) => toolOf(target) !== null);
}
const shown = (file: string): string => relative(ROOT, file).split(sep).join('/');

describe('the layout of tools/', () => {
  test(`every tool is a folder of tools/ with its entry (${ENTRY_OF_A_TOOL}); no file lies loose in tools/`, () => {
    const loose = readdirSync(TOOLS).filter((entry) => !statSync(join(TOOLS, entry)).isDirectory());
    assert.deepEqual(loose, [], 'give the tool a folder of its own: tools/<tool>/main.ts');
    const missing = TOOL_NAMES.flatMap((tool) => entriesOf(tool).filter((entry) => !TOOL_FILES.includes(join(TOOLS, tool, entry))).map((entry) => `tools/${tool}/${entry}`));
    assert.deepEqual(missing, []);
    assert.ok(TOOL_NAMES.length >= 10, TOOL_NAMES.join(', '));
  });

  test('the npm scripts and the workflows start the tools by their entries, and every entry is started', () => {
    const scripts = Object.values((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const workflows = readdirSync(join(ROOT, '.github', 'workflows')).map((name) => readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8'));
    const started = new Set([...scripts, ...workflows].flatMap((text) => [...text.matchAll(/\btools\/[\w./-]+\.ts\b/g)].map((match) => match[0])));
    const entries = new Set(TOOL_NAMES.flatMap((tool) => entriesOf(tool).map((entry) => `tools/${tool}/${entry}`)));
    assert.deepEqual([...started].filter((path) => !entries.has(path)).sort(), [], 'started, but not a tool entry');
    assert.deepEqual([...entries].filter((path) => !started.has(path)).sort(), [], 'a tool entry no script or workflow starts');
  });

  test("a tool imports no other tool's folder, and tools/lib imports no tool", () => {
    const crossing: string[] = [];
    for (const file of TOOL_FILES) {
      const from = toolOf(file);
      for (const { target, specifier, line } of toolImportsOf(file)) {
        const to = toolOf(target);
        if (to !== from && (to !== SHARED || from === SHARED)) crossing.push(`${shown(file)}:${line} imports '${specifier}' (tools/${to}/)`);
      }
    }
    assert.deepEqual(crossing, [], 'what two tools use goes in tools/lib/');
  });

  test('every file of tools/lib is used by two tools or more, and every file of a tool is reached from its entries', () => {
    /** The files a tool's entries reach, through its own files and tools/lib. */
    const reach = (tool: string): Set<string> => {
      const seen = new Set<string>();
      const pending = entriesOf(tool).map((entry) => join(TOOLS, tool, entry));
      for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
        if (seen.has(file)) continue;
        seen.add(file);
        pending.push(...toolImportsOf(file).map(({ target }) => target));
      }
      return seen;
    };
    const reached = new Map(TOOL_NAMES.map((tool) => [tool, reach(tool)]));
    const usersOf = (file: string): string[] => TOOL_NAMES.filter((tool) => reached.get(tool)?.has(file));
    const lonely = TOOL_FILES.filter((file) => toolOf(file) === SHARED && usersOf(file).length < 2).map((file) => `${shown(file)} (used by ${usersOf(file).join(', ') || 'no tool'})`);
    assert.deepEqual(lonely, [], "a file only one tool uses goes in that tool's folder");
    const stray = TOOL_FILES.filter((file) => toolOf(file) !== SHARED && !(reached.get(toolOf(file) as string)?.has(file) ?? false)).map(shown);
    assert.deepEqual(stray, [], "reached from no entry of its tool");
  });
});

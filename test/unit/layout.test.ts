/**
 * The layout is the architecture (docs/design.md): each folder of src/lib/ is
 * one layer, and a module imports only from its own layer or the ones below.
 * The import graph and the functions are read with the TypeScript parser, so
 * a failure names the file, the import or the function.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { TRACKS } from '../../src/lib/tracks/index.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The layers, lowest first; `src/index.ts`, the wiring, sits on top of them all. */
const LAYERS = ['host', 'config', 'text', 'read', 'policy', 'tracks', 'breaker', 'plugin'] as const;
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
const parsed = new Map(FILES.map((file) => [file, ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)]));

/** The layer a file of src/ belongs to, by its folder under src/lib/: its rank, and its name. */
function layerOf(file: string): { rank: number; name: string } {
  const path = relative(SRC, file).split(sep);
  if (path.length === 1 && path[0] === ENTRY) return { rank: LAYERS.length, name: 'src/index.ts' };
  const name = path[0] === 'lib' ? (path[1] ?? '') : '';
  return { rank: (LAYERS as readonly string[]).indexOf(name), name };
}

/** Every relative module a file imports or re-exports, `import type` included, with its line. */
function importsOf(file: string): { specifier: string; line: number }[] {
  const source = parsed.get(file) as ts.SourceFile;
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
  const source = parsed.get(file) as ts.SourceFile;
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

  test('every track module under src/lib/tracks/ is registered in TRACKS, in gate order', async () => {
    const unlisted: string[] = [];
    for (const file of FILES.filter((path) => layerOf(path).name === 'tracks')) {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        const looksLikeTrack = typeof value === 'object' && value !== null && 'words' in value && 'isOn' in value && 'create' in value;
        if (looksLikeTrack && !TRACKS.includes(value as (typeof TRACKS)[number])) unlisted.push(`${name} in src/${relative(SRC, file)}`);
      }
    }
    assert.deepEqual(unlisted, [], 'add it to TRACKS in src/lib/tracks/index.ts');
    assert.deepEqual(
      TRACKS.map((track) => track.words.track),
      ['failure', 'repeat', 'sequence', 'stale', 'edit-retry', 'timeout'],
    );
  });
});

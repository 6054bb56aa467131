/**
 * A track owns its setting (issue 38, "a track owns itself"): the engine and
 * the card know no track by name. Each opt-in track's config key is named, as
 * code (a string literal, an identifier or a property name, a template's
 * text; comments aside), in at most three files of src/ and client/, and
 * only in these: the track's own two files (its meta, `<name>.meta.ts`, and its
 * module, `<name>.ts`, where its name in the gate's texts may be its key), the
 * two registries (tracks/meta.ts, tracks/index.ts) and the preset's data.
 * Read with the TypeScript parser, so a failure names the file.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { TRACKS } from '../../src/lib/tracks/index.js';
import { SETTINGS } from '../../src/lib/tracks/meta.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REGISTRIES = ['src/lib/tracks/meta.ts', 'src/lib/tracks/index.ts'];
const PRESET_DATA = 'src/lib/config/preset.ts';
/** The opt-in tracks' keys when the rule was set; every registered setting is held to it too. */
const OPT_IN_KEYS = ['stale', 'spin', 'guess', 'editRetry', 'timeouts', 'sequence', 'duplicateText'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(path) && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const FILES = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'client'))];

/** Every name and text a file's code holds: identifiers (property names included), string literals and template text. */
function namesIn(file: string): Set<string> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) names.add(node.text);
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

const NAMES = new Map(FILES.map((file) => [relative(ROOT, file), namesIn(file)]));

/** The two files of src/lib/tracks/ of the track that owns `key`: the one exporting its meta, and the one exporting its module. */
async function filesOf(key: string): Promise<string[]> {
  const owner = TRACKS.find((track) => track.meta.setting?.key === key);
  if (owner === undefined) throw new Error(`no registered track owns ${key}`);
  const files: string[] = [];
  for (const file of sourceFiles(join(ROOT, 'src/lib/tracks'))) {
    const exported = Object.values((await import(pathToFileURL(file).href)) as Record<string, unknown>);
    if (exported.includes(owner) || exported.includes(owner.meta)) files.push(relative(ROOT, file));
  }
  assert.equal(files.length, 2, `${key}: its meta and its module, each in a file of its own (${files.join(', ')})`);
  return files;
}

test('every opt-in track key of the rule is a registered setting', () => {
  const keys = SETTINGS.map((setting) => setting.key);
  assert.deepEqual(OPT_IN_KEYS.filter((key) => !keys.includes(key)), []);
});

test("each opt-in track's key is named in code in at most three files, among its meta and module, the registries and the preset's data", async (t) => {
  const strays: string[] = [];
  for (const key of new Set([...OPT_IN_KEYS, ...SETTINGS.map((setting) => setting.key)])) {
    const allowed = new Set([...(await filesOf(key)), ...REGISTRIES, PRESET_DATA]);
    const naming = [...NAMES].filter(([, names]) => names.has(key)).map(([file]) => file);
    t.diagnostic(`${key}: ${naming.join(', ')}`);
    strays.push(...naming.filter((file) => !allowed.has(file)).map((file) => `${key} is named in ${file}`));
    assert.ok(naming.length <= 3, `${key} is named in ${naming.length} files: ${naming.join(', ')}`);
  }
  assert.deepEqual(strays, [], 'read the key from the track\'s meta (tracks/meta.ts SETTINGS) instead');
});

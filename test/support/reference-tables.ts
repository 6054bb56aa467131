/**
 * The reference's tables, read at test time from the installed oracle package
 * (`reference-breaker`, 0.5.2): the source text of its `lib/*.js` is parsed for
 * the sets, patterns and literals each rule keys on, and its exported DEFAULTS
 * are imported. Nothing of it is copied into this repository; when a table
 * cannot be found, reading fails loudly, naming it, rather than generating
 * from a shorter list.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const LIB = join(dirname(require.resolve('reference-breaker/package.json')), 'lib');

function source(file: string): string {
  return readFileSync(join(LIB, file), 'utf8');
}

/** The text of a top-level `const NAME = …` up to the line that closes it. */
function declaration(text: string, name: string): string {
  const start = text.indexOf(`\nconst ${name} = `);
  if (start < 0) throw new Error(`reference table ${name} not found`);
  const rest = text.slice(start + 1);
  const firstLine = rest.slice(0, rest.indexOf('\n'));
  // One line, or a bracketed list closed by `])` (an object by `})`) at the start of a line.
  const opening = firstLine.trimEnd();
  if (opening.endsWith('({')) return rest.slice(0, rest.indexOf('\n})') + 3);
  if (!opening.endsWith('([') && !opening.endsWith('[')) return firstLine;
  const close = rest.indexOf('\n])');
  return rest.slice(0, close + 3);
}

/** The body of a top-level `function name(…)` (or `export function`), up to the `}` that closes it. */
function functionBody(text: string, name: string): string {
  const start = text.search(new RegExp(`\\n(?:export )?function ${name}\\(`));
  if (start < 0) throw new Error(`reference function ${name} not found`);
  const rest = text.slice(start + 1);
  return rest.slice(0, rest.indexOf('\n}\n') + 2);
}

/** Single-quoted string literals, in order. */
function strings(text: string): string[] {
  return [...text.matchAll(/'((?:\\.|[^'\\])*)'/g)].map((m) => (m[1] as string).replace(/\\(.)/g, '$1'));
}

/** Regex literals used as `/…/flags.test(` or `.exec(`, in order. */
function usedPatterns(text: string): RegExp[] {
  const literal = /\/((?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\n[])+)\/([dgimsuy]*)\.(?:test|exec)\(/g;
  return [...text.matchAll(literal)].map((m) => new RegExp(m[1] as string, m[2] as string));
}

/** A one-line `const NAME = /…/flags` pattern. */
function namedPattern(text: string, name: string): RegExp {
  const line = declaration(text, name);
  const m = /= \/(.+)\/([dgimsuy]*)$/.exec(line.trim());
  if (m === null) throw new Error(`reference pattern ${name} is not a regex literal`);
  return new RegExp(m[1] as string, m[2] as string);
}

/** A `const NAME = new Set([...])` table as its string members. */
function namedSet(text: string, name: string): string[] {
  const members = strings(declaration(text, name));
  if (members.length === 0) throw new Error(`reference table ${name} is empty or not a string set`);
  return members;
}

export interface ReferenceDefaults {
  ignoreArgs: Record<string, string[]>;
  hostAliases: Record<string, string>;
  limits: Record<string, number | null>;
  [key: string]: unknown;
}

export interface ReferenceTables {
  /** normalize.js: flags that eat the next word, quiet switches, cluster letters. */
  volatileValueFlags: string[];
  volatileLongFlags: string[];
  volatileShortFlags: string[];
  /** normalize.js: transparent wrappers and their value options. */
  wrappers: string[];
  wrapperValueOptions: string[];
  shellOperators: string[];
  /** normalize.js: the tracking-key pattern and the locality tests of `isLocalHost`. */
  trackingKey: RegExp;
  localPatterns: RegExp[];
  localNames: string[];
  /** fingerprints.js */
  genericSinks: string[];
  shellTools: string[];
  httpVerbs: string[];
  urlTool: RegExp;
  /** failure.js: every pattern the text fallback tries, in its order. */
  failurePatterns: RegExp[];
  /** defaults.js, imported. */
  defaults: ReferenceDefaults;
  /** defaults.js: the keys removed in 0.2.0, which fail the load. */
  removedKeys: string[];
}

let cached: ReferenceTables | undefined;

/** Every table of the reference that the port mirrors, read once per process. */
export async function referenceTables(): Promise<ReferenceTables> {
  if (cached !== undefined) return cached;
  const normalize = source('normalize.js');
  const fingerprints = source('fingerprints.js');
  const failure = source('failure.js');
  const local = functionBody(normalize, 'isLocalHost');
  const { DEFAULTS } = (await import(pathToFileURL(join(LIB, 'defaults.js')).href)) as { DEFAULTS: ReferenceDefaults };
  const failurePatterns = usedPatterns(functionBody(failure, 'classifyFromText'));
  if (failurePatterns.length < 8) throw new Error(`reference classifier patterns: found only ${failurePatterns.length}`);
  cached = {
    volatileValueFlags: namedSet(normalize, 'VOLATILE_VALUE_FLAGS'),
    volatileLongFlags: namedSet(normalize, 'VOLATILE_LONG_FLAGS'),
    volatileShortFlags: namedSet(normalize, 'VOLATILE_SHORT_FLAGS'),
    wrappers: namedSet(normalize, 'PREFIX_WORDS'),
    wrapperValueOptions: namedSet(normalize, 'PREFIX_VALUE_OPTIONS'),
    shellOperators: namedSet(normalize, 'SHELL_OPERATORS'),
    trackingKey: namedPattern(normalize, 'TRACKING_PARAMS'),
    localPatterns: usedPatterns(local),
    // `host === 'localhost'`, `host.endsWith('.localhost')`, `host === '::1'`, …
    localNames: strings(local).filter((s) => s !== 'string'),
    genericSinks: namedSet(fingerprints, 'GENERIC_SINKS'),
    shellTools: namedSet(fingerprints, 'SHELL_TOOLS'),
    httpVerbs: namedSet(fingerprints, 'HTTP_VERBS'),
    urlTool: namedPattern(fingerprints, 'URL_TOOL_PATTERN'),
    failurePatterns,
    defaults: DEFAULTS,
    removedKeys: [...declaration(source('defaults.js'), 'REMOVED_KEYS').matchAll(/^ {2}(\w+): /gm)].map((m) => m[1] as string),
  };
  if (cached.removedKeys.length === 0) throw new Error('reference table REMOVED_KEYS is empty');
  return cached;
}

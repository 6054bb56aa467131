/**
 * Which plugins a parity run can compare, by name:
 *
 * - `port`: this project's plugin (`src/index.ts`);
 * - `port:<path>`: a copy of it elsewhere (a scratch copy with a mutation, for sensitivity checks);
 * - `oracle`: the reference with every contract decision applied (the expected outcome);
 * - `reference`: the reference as installed (0.5.2, no adjustment);
 * - `oracle-without-P1` (…P2, P3, P4, P8 … P15): the oracle minus one decision, for self-checks.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginModule } from '../support/fake-host.js';
import { DECISIONS, loadOracle, loadReference, type Decision } from './oracle.js';

/** The port's entry, as the brief names it (tsx maps `.js` to the `.ts` source). */
export const PORT_SPECIFIER = '../../src/index.js';

export async function loadPort(entry?: string): Promise<PluginModule> {
  const specifier: string = entry === undefined ? PORT_SPECIFIER : pathToFileURL(resolve(entry)).href;
  const module = await import(specifier);
  const plugin = module.default as PluginModule | undefined;
  if (plugin === undefined || typeof plugin.apply !== 'function') throw new Error('src/index.ts has no default export { name, inject, apply }');
  return plugin;
}

export async function loadPlugin(name: string): Promise<PluginModule> {
  if (name === 'port') return loadPort();
  if (name.startsWith('port:')) return loadPort(name.slice('port:'.length));
  if (name === 'oracle') return loadOracle();
  if (name === 'reference') return loadReference();
  const without = /^oracle-without-(P\d+)$/.exec(name);
  if (without !== null && DECISIONS.includes(without[1] as Decision)) {
    return loadOracle(DECISIONS.filter((d) => d !== without[1]));
  }
  throw new Error(`unknown plugin "${name}" (port, oracle, reference, oracle-without-P1…P15)`);
}

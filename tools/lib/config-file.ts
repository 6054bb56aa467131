/**
 * `--config`: a plugin config from a file. Accepted: `.json`, or YAML (read
 * with `yaml`, the devDependency the workflow tests use); the file may hold the plugin config itself, or a DSH
 * patch overlay (a list of rows, flat or under `- insert:`) whose
 * `id: repeat-tool-breaker` row carries it, so an operator can point the tools
 * at the overlay they already mount.
 */
import { readFileSync } from 'node:fs';
import { resolveConfig } from '../../src/lib/config/config.js';
import { isMapping } from '../../src/lib/host/member.js';
import { PLUGIN_NAME } from '../../src/lib/text/notice.js';
import { parse as parseYaml } from 'yaml';

/** The breaker's row in a list of patch rows, flat (`- id: …`) or inside `- insert: [...]`. */
function findRow(rows: readonly unknown[]): Record<string, unknown> | undefined {
  for (const entry of rows) {
    if (!isMapping(entry)) continue;
    if (entry.id === PLUGIN_NAME) return entry;
    const inserted = Array.isArray(entry.insert) ? findRow(entry.insert) : undefined;
    if (inserted !== undefined) return inserted;
  }
  return undefined;
}

/** The plugin config inside a parsed file (see the module comment). */
export function pluginConfigOf(parsed: unknown, path: string): Record<string, unknown> {
  if (parsed === null) return {};
  if (Array.isArray(parsed)) {
    const row = findRow(parsed);
    if (row === undefined) throw new Error(`${path}: a list of patch rows, but none has \`id: ${PLUGIN_NAME}\``);
    return pluginConfigOf(row.config ?? null, path);
  }
  if (!isMapping(parsed)) throw new Error(`${path}: expected a mapping of plugin settings (or patch rows), got ${typeof parsed}`);
  if (parsed.id === PLUGIN_NAME) return pluginConfigOf(parsed.config ?? null, path);
  return parsed;
}

/** Reads and validates a config file; every error names the file. */
export function loadConfigFile(path: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    const source = readFileSync(path, 'utf8');
    parsed = path.endsWith('.json') ? JSON.parse(source) : parseYaml(source);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
  const config = pluginConfigOf(parsed, path);
  try {
    resolveConfig(config);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
  return config;
}

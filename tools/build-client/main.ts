/**
 * `npm run build` (second step): writes dist/client.js, the browser card's
 * bundle that `package.json` publishes as `exports["./client"]` and DSH serves
 * at `/plugins/dsh-repeat-tool-breaker/client.js`. See tools/build-client/client-bundle.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { bundleClient } from './client-bundle.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'dist', 'client.js');

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const bundle = bundleClient({
  root: ROOT,
  entry: 'client/index.tsx',
  id: manifest.name,
  banner: `${manifest.name} ${manifest.version}: the Settings → Plugins card, built from client/ by tools/build-client/main.ts`,
});
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, bundle.text);
// A progress line, so stderr: `npm pack --json` and `npm publish --json` run `prepare` (this build)
// with the script's stdout on their own, and their stdout must stay one JSON document.
console.error(
  `dist/client.js: ${Buffer.byteLength(bundle.text)} bytes, ${bundle.modules.length} modules (${bundle.modules.join(', ')}); shared: ${bundle.shared.join(', ')}`,
);

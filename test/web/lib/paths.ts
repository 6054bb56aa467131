/** Where the browser suite keeps its scratch state and its screenshots (both git-ignored). */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_WORK = join(WEB_DIR, '.work');
export const ARTIFACTS = join(WEB_DIR, '.artifacts');

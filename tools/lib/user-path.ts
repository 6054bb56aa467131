/**
 * `npm run` starts a script in the package directory, not where the user typed
 * the command; npm leaves that directory in `INIT_CWD`. Paths on the command
 * line are the user's, so they are resolved against it.
 */
import { resolve } from 'node:path';

export function userPath(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

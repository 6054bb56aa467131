/**
 * A package manager's subcommand by any of its names: npm runs `npm i`, `npm
 * add`, `npm isntall` as `npm install` (its own alias table), pnpm `pnpm i`
 * as `pnpm install`, and a bare `yarn` is `yarn install`. Read by the
 * front-end reading (front-end.ts), so two installs respelled so join a
 * back-to-back run only with the very same answer, as every reading there.
 * `pnpm add` and `yarn add` take a package and are other commands; so is
 * `npm ci` (it removes node_modules first).
 */

/** npm's names of `install` (npm help install: its aliases). */
const NPM_INSTALL: ReadonlySet<string | null> = new Set(['i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add']);

/**
 * The manager and the subcommand a line's words name by another of its
 * names, and the word the rest of the line starts at; `null` when they name
 * none (or name it as written).
 */
export function subcommandAlias(values: readonly (string | null)[]): { manager: string; subcommand: string; from: number } | null {
  const [manager, subcommand] = values;
  if (manager === 'npm' && NPM_INSTALL.has(subcommand ?? null)) return { manager, subcommand: 'install', from: 2 };
  if (manager === 'pnpm' && subcommand === 'i') return { manager, subcommand: 'install', from: 2 };
  if (manager === 'yarn' && (subcommand === undefined || subcommand?.startsWith('-') === true)) return { manager, subcommand: 'install', from: 1 };
  return null;
}

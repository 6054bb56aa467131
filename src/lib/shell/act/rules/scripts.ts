/**
 * Package-manager script aliases: `npm test`, `npm t` and `npm run test` run
 * the `test` script; `yarn build` and `pnpm build` are `run build`. Written
 * canonically as `<manager> run <script>`. Left alone: `npm start` (without a
 * start script it runs `node server.js`, `npm run start` fails), `bun test`
 * (bun's own test runner, not the script), and names that are also built-in
 * commands of the manager (`yarn install` is not `yarn run install`).
 */
import type { Rule } from '../rule.js';
import { mapCommands, valueOf, withWords, word, type Command, type Word } from '../syntax.js';

/** A manager's subcommands that mean `run <script>` (with the script's name) or `run` itself (`''`). */
type Spellings = ReadonlyMap<string | null, string>;

const spellings = (table: Readonly<Record<string, string>>): Spellings => new Map(Object.entries(table));

// Maps, not records: a name the shell expands (null) is no manager and no subcommand, and `constructor` neither.
const MANAGERS: ReadonlyMap<string | null, Spellings> = new Map(
  Object.entries({
    npm: spellings({ 'run-script': '', rum: '', urn: '', test: 'test', t: 'test', tst: 'test' }),
    pnpm: spellings({ 'run-script': '', test: 'test', t: 'test', tst: 'test', build: 'build', lint: 'lint', dev: 'dev', format: 'format', typecheck: 'typecheck' }),
    yarn: spellings({ test: 'test', build: 'build', lint: 'lint', dev: 'dev', format: 'format', typecheck: 'typecheck' }),
  }),
);

function runForm(command: Command): Command {
  const script = MANAGERS.get(valueOf(command.words[0]))?.get(valueOf(command.words[1]));
  if (script === undefined) return command;
  const run = script === '' ? [word('run')] : [word('run'), word(script)];
  return withWords(command, [command.words[0] as Word, ...run, ...command.words.slice(2)]);
}

const MANAGER_NAMES: ReadonlySet<string | null> = new Set(MANAGERS.keys());

export const scripts: Rule = {
  name: 'scripts',
  reason: 'npm test, npm t and npm run test (yarn build and yarn run build, …) run the same package script.',
  apply: (line) => mapCommands(line, runForm),
  names: MANAGER_NAMES,
  folds: [
    ['npm test', 'npm run test', 'npm t', 'npm run-script test', 'npm tst'],
    ['yarn test', 'yarn run test'],
    ['pnpm build', 'pnpm run build'],
    ['npm test -- --watch=false', 'npm run test -- --watch=false'],
    // Every other entry of the table, so that each is a claim some example holds.
    ['npm run build', 'npm rum build', 'npm urn build', 'npm run-script build'],
    ['pnpm test', 'pnpm t', 'pnpm tst', 'pnpm run test', 'pnpm run-script test'],
    ['pnpm lint', 'pnpm run lint'],
    ['pnpm dev', 'pnpm run dev'],
    ['pnpm format', 'pnpm run format'],
    ['pnpm typecheck', 'pnpm run typecheck'],
    ['yarn build', 'yarn run build'],
    ['yarn lint', 'yarn run lint'],
    ['yarn dev', 'yarn run dev'],
    ['yarn format', 'yarn run format'],
    ['yarn typecheck', 'yarn run typecheck'],
  ],
  keeps: [
    ['npm run build', 'npm run test'],
    ['npm start', 'npm run start'],
    ['bun test', 'bun run test'],
    ['npm test', 'npm run test:unit'],
    ['npm install', 'npm run install'],
    ['yarn install', 'yarn run install'],
    ['npm test', 'npm test -- --grep login'],
    // yarn has no `t`: `yarn t` runs a script named `t`.
    ['yarn t', 'yarn run test'],
    // A manager or a subcommand the shell expands is read as written.
    ['"$PM" test', 'npm run test'],
    ['npm "$TASK"', 'npm run test'],
  ],
};

/**
 * Package-manager script aliases: `npm test`, `npm t` and `npm run test` run
 * the `test` script; `yarn build` and `pnpm build` are `run build`. Written
 * canonically as `<manager> run <script>`. Left alone: `npm start` (without a
 * start script it runs `node server.js`, `npm run start` fails), `bun test`
 * (bun's own test runner, not the script), and names that are also built-in
 * commands of the manager (`yarn install` is not `yarn run install`).
 */
import type { Rule } from '../rule.js';
import { mapCommands, word, type Command, type Word } from '../syntax.js';

/** Per manager: subcommand spellings that mean `run <script>`, and spellings of `run` itself. */
const MANAGERS: Readonly<Record<string, { readonly scripts: Readonly<Record<string, string>>; readonly run: readonly string[] }>> = {
  npm: { scripts: { test: 'test', t: 'test', tst: 'test' }, run: ['run-script', 'rum', 'urn'] },
  pnpm: {
    scripts: { test: 'test', t: 'test', tst: 'test', build: 'build', lint: 'lint', dev: 'dev', format: 'format', typecheck: 'typecheck' },
    run: ['run-script'],
  },
  yarn: { scripts: { test: 'test', build: 'build', lint: 'lint', dev: 'dev', format: 'format', typecheck: 'typecheck' }, run: [] },
};

function runForm(command: Command): Command {
  const manager = command.words[0]?.value;
  if (manager === undefined || manager === null || !Object.hasOwn(MANAGERS, manager)) return command;
  const { scripts, run } = MANAGERS[manager] as (typeof MANAGERS)[string];
  const sub = command.words[1]?.value;
  if (sub === undefined || sub === null) return command;
  const head = command.words[0] as Word;
  const rest = command.words.slice(2);
  if (run.includes(sub)) return { ...command, words: [head, word('run'), ...rest] };
  if (Object.hasOwn(scripts, sub)) return { ...command, words: [head, word('run'), word(scripts[sub] as string), ...rest] };
  return command;
}

export const scripts: Rule = {
  name: 'scripts',
  reason: 'npm test, npm t and npm run test (yarn build and yarn run build, …) run the same package script.',
  apply: (line) => mapCommands(line, runForm),
  folds: [
    ['npm test', 'npm run test', 'npm t', 'npm run-script test', 'npm tst'],
    ['yarn test', 'yarn run test'],
    ['pnpm build', 'pnpm run build'],
    ['npm test -- --watch=false', 'npm run test -- --watch=false'],
  ],
  keeps: [
    ['npm run build', 'npm run test'],
    ['npm start', 'npm run start'],
    ['bun test', 'bun run test'],
    ['npm test', 'npm run test:unit'],
    ['npm install', 'npm run install'],
    ['yarn install', 'yarn run install'],
    ['npm test', 'npm test -- --grep login'],
  ],
};

/**
 * A run read by the environment it runs in, not by the front-end that starts
 * it: `source .venv/bin/activate && pytest t.py`, `. .venv/bin/activate;
 * pytest t.py`, `.venv/bin/pytest t.py` and `.venv/bin/python -m pytest t.py`
 * all run the venv's pytest on `t.py`; `conda run -n shop pytest` and `conda
 * activate shop && pytest` the conda environment's; `npx jest`, `pnpm exec
 * jest` and `./node_modules/.bin/jest` the project's jest. Each is written
 * here one way: the environment activated (`. D/bin/activate`, `conda activate
 * E`, `npx T`) in front of the tool by its name, which `act:` then reads as
 * it reads any tool (`python -m pytest` is `pytest`).
 *
 * It is a likely reading, not an exact one: an activated shell finds a tool
 * on PATH (maybe not the venv's), sets `VIRTUAL_ENV` for what the tool starts,
 * `uv run` syncs first, `npx` may fetch. So it lives in the options-aside
 * reading (respelled.ts), which joins two calls only when they returned the
 * very same result, nothing changed. The environment stays part of the
 * reading: `.venv39/bin/pytest` and `.venv312/bin/pytest` are two runs (a
 * matrix); `uv run`, `pdm run` and `rye run` run in `.venv`, `poetry run`,
 * `pipenv run` and `hatch run` each in its own. A package script is
 * one script whichever manager runs it (`npm test --`, `yarn test`, `pnpm
 * run test`), but not read as the tool it names: the guard cannot read
 * package.json. What a script ran is read from its answer instead, whose
 * banner says it (`> jest t.js`: result/answer.ts, tracks/stale.ts).
 */
import type { Dialect } from '../shell/lex.js';
import { subcommandAlias } from './subcommands.js';
import { commandOf, lineWith, nameOf, valueOf, word, type Command, type Connector, type Line } from '../shell/act/syntax.js';

/** `.venv/bin/pytest`, `./venv/bin/python3`, `.venv\Scripts\python.exe`: an environment's directory and the tool it holds. */
const ENV_TOOL = /^(?:\.[/\\])?(.+?)[/\\](?:bin|Scripts)[/\\]([A-Za-z][\w.-]*?)(?:\.exe)?$/;

/** The environment's activation script (`activate`, `Activate.ps1`, `activate.bat`). */
const ACTIVATE = /^activate(?:\.ps1|\.bat)?$/i;

/** Directories that are the system's or the project's scripts, not an environment's: `/usr/bin/python3`, `./bin/rails` stay as written. */
const SYSTEM = /^(?:\/|\/usr|\/usr\/local|\/opt\/homebrew|\.)?$/;

/** `npx T`, `pnpm exec T`, `yarn exec T`, `npm exec T`: the project's own T (npx's install options aside). */
const NPX_OPTIONS: ReadonlySet<string> = new Set(['-y', '--yes', '--no', '--no-install']);

/** The environment `D` of a tool path `D/bin/T`, and `T`; `null` for any other word. */
function envTool(name: string | null): { env: string; tool: string } | null {
  const m = name === null || name.length > 256 ? null : ENV_TOOL.exec(name);
  if (m === null) return null;
  const env = (m[1] as string).replaceAll('\\', '/').replace(/\/+$/, '');
  if (SYSTEM.test(env) || env.includes('node_modules')) return null;
  return { env, tool: m[2] as string };
}

/** `./node_modules/.bin/jest`: the project's jest, as `npx jest` runs it. */
const NODE_BIN = /^(?:\.\/)?node_modules\/\.bin\/([A-Za-z][\w.-]*)$/;

/**
 * A project manager's `run` and the environment it runs in by default: uv's,
 * PDM's and Rye's the project's `.venv`; Poetry's, Pipenv's and Hatch's their
 * own, kept elsewhere (each its own reading, not `.venv`'s).
 */
const PROJECT_MANAGERS: ReadonlyMap<string | null, '.venv' | 'poetry' | 'pipenv' | 'hatch'> = new Map([
  ['uv', '.venv'],
  ['pdm', '.venv'],
  ['rye', '.venv'],
  ['poetry', 'poetry'],
  ['pipenv', 'pipenv'],
  ['hatch', 'hatch'],
]);

const cmd = (...values: string[]): Command => commandOf([], values.map(word), []);

/** The pipeline that activates `key` (`. D/bin/activate`, `conda activate E`), as this module writes it. */
const activation = (kind: 'venv' | 'conda' | 'poetry' | 'pipenv' | 'hatch', name: string): Command =>
  kind === 'venv' ? cmd('.', `${name}/bin/activate`) : kind === 'conda' ? cmd('conda', 'activate', name) : cmd(kind, 'shell');

/**
 * A command that only activates an environment, as written canonically; `null`
 * when it is none. PowerShell also activates by running the script
 * (`.venv\Scripts\activate`: it sets the process's PATH); sh runs it in a child.
 */
function activates(command: Command, dialect: Dialect): Command | null {
  if (command.assigns.length > 0 || command.redirects.length > 0) return null;
  const [name, ...args] = command.words.map(valueOf);
  const script = dialect === 'pwsh' && args.length === 0 ? envTool(name ?? null) : null;
  if (script !== null && ACTIVATE.test(script.tool)) return activation('venv', script.env);
  if ((name === 'source' || name === '.') && args.length === 1) {
    const path = envTool(args[0] ?? null);
    if (path !== null && ACTIVATE.test(path.tool)) return activation('venv', path.env);
    if (args[0] === 'activate') return null;
  }
  if (name === 'conda' && args.length === 2 && args[0] === 'activate' && args[1] !== null && args[1] !== undefined && !args[1].startsWith('-')) return activation('conda', args[1]);
  return null;
}

/** `conda run -n E T …`, `conda run --name E T …`: E and the words from T on; `null` otherwise (other options are left as written). */
function condaRun(values: readonly (string | null)[]): { env: string; from: number } | null {
  if (values[0] !== 'conda' || values[1] !== 'run' || (values[2] !== '-n' && values[2] !== '--name')) return null;
  const env = values[3];
  return env === null || env === undefined || env.startsWith('-') || values[4] === undefined || values[4] === null || values[4].startsWith('-') ? null : { env, from: 4 };
}

/** The words from the tool on, after a node front-end (`npx`, `pnpm exec`, …); -1 when it is none. */
function nodeFrom(values: readonly (string | null)[]): number {
  let at = values[0] === 'npx' ? 1 : (values[0] === 'pnpm' || values[0] === 'yarn' || values[0] === 'npm') && values[1] === 'exec' ? 2 : -1;
  if (at < 0) return -1;
  while (NPX_OPTIONS.has(values[at] ?? '')) at += 1;
  if (values[0] === 'npm' && values[at] === '--') at += 1;
  const tool = values[at];
  return tool === null || tool === undefined || tool.startsWith('-') ? -1 : at;
}

const MANAGERS: ReadonlySet<string | null> = new Set(['npm', 'pnpm', 'yarn']);

/**
 * A package manager's script run (`npm run S`, `yarn run S`, `pnpm run S`,
 * and `npm test` unread by act:): the script's name and the words after it;
 * one project's script, whichever manager starts it. `null`: none.
 */
function scriptOf(values: readonly (string | null)[]): { name: string; from: number } | null {
  if (!MANAGERS.has(values[0] ?? null)) return null;
  if (values[1] === 'test' || values[1] === 't' || values[1] === 'tst') return { name: 'test', from: 2 };
  const name = values[1] === 'run' || values[1] === 'run-script' ? values[2] : undefined;
  return name === null || name === undefined || name.startsWith('-') ? null : { name, from: 3 };
}

/** A run's front-end read: the environment it activates (`null`: the project's own, as `npx T`) and the tool's command; `null` when the command has none. */
function frontEndOf(command: Command): { env: Command | null; tool: Command } | null {
  const values = command.words.map(valueOf);
  const rest = (from: number, ...names: string[]): Command => commandOf(command.assigns, [...names.map(word), ...command.words.slice(from)], command.redirects);
  const path = envTool(nameOf(command));
  if (path !== null && !ACTIVATE.test(path.tool)) return { env: activation('venv', path.env), tool: rest(1, path.tool) };
  const conda = condaRun(values);
  if (conda !== null) return { env: activation('conda', conda.env), tool: rest(conda.from) };
  const manager = PROJECT_MANAGERS.get(values[0] ?? null);
  if (manager !== undefined && values[1] === 'run' && values[2] !== null && values[2]?.startsWith('-') === false) {
    return { env: manager === '.venv' ? activation('venv', '.venv') : activation(manager, ''), tool: rest(2) };
  }
  const script = scriptOf(values);
  if (script !== null) return { env: null, tool: rest(script.from, 'npm', 'run', script.name) };
  // `npm i` is `npm install`: one subcommand by another of its names (subcommands.ts).
  const alias = subcommandAlias(values);
  if (alias !== null) return { env: null, tool: rest(alias.from, alias.manager, alias.subcommand) };
  const node = nodeFrom(values);
  if (node > 0) return { env: null, tool: rest(node, 'npx') };
  const bin = NODE_BIN.exec(nameOf(command) ?? '');
  return bin === null ? null : { env: null, tool: rest(1, 'npx', bin[1] as string) };
}

const key = (command: Command): string => command.words.map((w) => w.text).join(' ');

/**
 * The line with each run's front-end read as its environment activated in
 * front of the tool by name (an environment's activation once per line while
 * it holds); `null` when nothing was read so. Only a pipeline's first command,
 * after `&&` or `;` (or first on the line), is read: after `||` or in a pipe
 * the activation would mean something else.
 */
export function withFrontEndsRead(line: Line, dialect: Dialect): Line | null {
  const pipelines: (readonly Command[])[] = [];
  const connectors: Connector[] = [];
  const push = (commands: readonly Command[], connector: Connector | undefined): void => {
    pipelines.push(commands);
    if (connector !== undefined) connectors.push(connector);
  };
  let active: string | null = null;
  let changed = false;
  for (let at = 0; at < line.pipelines.length; at += 1) {
    const pipeline = line.pipelines[at] as readonly Command[];
    const before = at === 0 ? '&&' : line.connectors[at - 1];
    const first = pipeline[0];
    const readable = first !== undefined && (before === '&&' || before === ';');
    const env = readable && pipeline.length === 1 ? activates(first, dialect) : null;
    const front = readable && env === null ? frontEndOf(first) : null;
    if (env !== null) {
      // The same environment activated again in the line changes nothing.
      if (key(env) !== active) push([env], line.connectors[at]);
      active = key(env);
    } else if (front !== null) {
      if (front.env !== null && key(front.env) !== active) push([front.env], '&&');
      if (front.env !== null) active = key(front.env);
      push([front.tool, ...pipeline.slice(1)], line.connectors[at]);
    } else push(pipeline, line.connectors[at]);
    changed ||= env !== null || front !== null;
  }
  // A line that ended on an activation dropped as a repeat ends on its connector: it goes.
  connectors.length = Math.min(connectors.length, Math.max(0, pipelines.length - 1));
  return changed ? lineWith(pipelines, connectors, line.background) : null;
}

/**
 * The `act:` wrappers rule held at each of its guards, the shapes and helpers
 * of syntax.ts, and reading a tool call from the host's object. Each wrapper
 * expectation was checked against bash 5.2 and GNU coreutils 9.1 (timeout,
 * nice, nohup, stdbuf): a wrapper folds only when it would run the command.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf } from '../../src/lib/shell/act/index.js';
import { readLine } from '../../src/lib/shell/act/line.js';
import { wrappers } from '../../src/lib/shell/act/rules/wrappers.js';
import {
  mapCommands,
  mapPipelines,
  nameOf,
  quote,
  renderLine,
  valueOf,
  withLastPipeline,
  word,
  type Command,
  type Line,
} from '../../src/lib/shell/act/syntax.js';
import { isAgent, readCall } from '../../src/lib/call/read.js';
import { apart, same } from '../support/act.js';

const kept = (command: string): void => assert.equal(actOf(command), command, command);
const lineOf = (command: string): Line => {
  const line = readLine(command, 'posix');
  assert.ok(line !== null, command);
  return line;
};

describe('act rule wrappers: timeout', () => {
  test('each flag timeout takes before its duration is read past', () => {
    for (const flag of ['--foreground', '--preserve-status', '-v', '--verbose']) same(`timeout ${flag} 5 make`, 'make');
  });

  test('a signal or kill-after value is read in the next word, attached, or after =', () => {
    for (const option of ['-s KILL', '-sKILL', '--signal KILL', '--signal=KILL', '-k 5', '-k5', '--kill-after 5s', '--kill-after=5', '-s TERM -k 2 --foreground']) {
      same(`timeout ${option} 60 make`, 'make');
    }
  });

  test('timeout refuses a signal it does not know and a kill-after that is no duration: the command does not run', () => {
    for (const option of ['-s NOPE', '-sNOPE', '--signal=NOPE', '--signal=', '-s=KILL', '-k x', '-k5x', '--kill-after=soon']) apart(`timeout ${option} 60 make`, 'make');
  });

  test('signals by name in any case with or without SIG, and by number up to 31', () => {
    for (const signal of ['KILL', 'kill', 'SIGKILL', 'sigterm', 'HUP', 'USR1', '0', '9', '15', '29', '30', '31']) same(`timeout -s ${signal} 60 make`, 'make');
    for (const signal of ['32', '39', '99', '100', '9x', 'XKILL', 'KILLX', 'SIG', '']) apart(`timeout -s '${signal}' 60 make`, 'make');
  });

  test('an option without its value, an unknown option, or a word that expands is not read past', () => {
    kept('timeout -k');
    kept('timeout -s');
    kept('timeout');
    apart('timeout --kill 5 60 make', 'make');
    apart('timeout $OPT 60 make', 'make');
    apart('timeout -s $SIG 60 make', 'make');
  });

  test('timeout needs a duration, then a command that is not one more option', () => {
    apart('timeout make', 'make');
    apart('timeout 5x make', 'make');
    apart('timeout -- 5 make', 'make');
    apart('timeout 5 -x make', '-x make');
  });
});

describe('act rule wrappers: nice', () => {
  test('the adjustment in each of its spellings', () => {
    for (const option of ['-n 10', '-n10', '-n -5', '-n +5', '-n-5', '--adjustment=10', '--adjustment 10', '--adjustment=-3', '-10', '--10', '-5', '']) {
      same(`nice ${option} make`, 'make');
    }
  });

  test('nice refuses an adjustment that is not a whole number: the command does not run', () => {
    for (const option of ['-n x', '-n x5', '-n 5x', "-n ''", '-nx', '--adjustment=', '--adjustment=ten', '-10x', 'x-10']) apart(`nice ${option} make`, 'make');
    apart('nice -n $N make', 'make');
  });

  test('nice alone, or with an option but no command, runs nothing', () => {
    kept('nice');
    kept('nice -n 5');
    kept('nice -5');
  });
});

describe('act rule wrappers: stdbuf', () => {
  test('each stream, short, attached, long with = and long with its value after', () => {
    for (const option of ['-o L', '-oL', '-o0', '-e L', '-eL', '-i0', '-i 4096', '--output=L', '--output L', '--error=0', '--input=0', '--input 0', '-oL -e0 -i0']) {
      same(`stdbuf ${option} make`, 'make');
    }
  });

  test('a buffer size of one to nine digits; stdbuf refuses other modes and line-buffered stdin', () => {
    same('stdbuf -o 123456789 make', 'make');
    same('stdbuf -i 123456789 make', 'make');
    for (const option of ['-oX', '-o xL', '-o Lx', '-o 0x', '-o x0', '-o 1234567890', "-o ''", '--output=', '-iL', '-i L', '-i 1234567890', "-i ''", '-ix0', '-i 0x', '--input=L', '--error=LL']) {
      apart(`stdbuf ${option} make`, 'make');
    }
  });

  test('stdbuf without a mode refuses to run; with a mode and no command it runs nothing', () => {
    apart('stdbuf make', 'make');
    kept('stdbuf');
    kept('stdbuf -oL');
    kept('stdbuf -o');
    apart('stdbuf -oL $CMD', '$CMD');
  });
});

describe('act rule wrappers: time, nohup, command', () => {
  test('time and time -p at the start of a pipeline are the shell keyword', () => {
    same('time make', 'make');
    same('time -p make', 'make');
    same('a && time make', 'a && make');
    kept('time -p');
    apart('time -o t.txt make', 'make');
  });

  test('time after a pipe or an assignment is /usr/bin/time, which may not be there', () => {
    apart('a | time make', 'a | make');
    apart('A=1 time make', 'A=1 make');
  });

  test('nohup and command take the next word as the command', () => {
    same('nohup make', 'make');
    same('command make', 'make');
    same('nohup timeout 5 nice -n 3 stdbuf -oL make', 'make');
    apart('command -v make', 'make');
    apart('command -p make', 'make');
    kept('nohup');
  });

  test('a wrapper that refuses its options stays with its words when an outer wrapper goes', () => {
    // The outer timeout runs nice (a program), which refuses `-n x`: the command is nice's, not make's.
    assert.equal(actOf('timeout 5 nice -n x make'), 'nice -n x make');
    assert.equal(actOf('nohup stdbuf -iL make'), 'stdbuf -iL make');
    assert.equal(actOf('timeout 5 stdbuf -o Lx make'), 'stdbuf -o Lx make');
  });
});

// bash 5.2's `compgen -k` and `compgen -b`.
const KEYWORDS = ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc'];
const BUILTINS = [
  '.', ':', '[', 'alias', 'bg', 'bind', 'break', 'builtin', 'caller', 'cd', 'command', 'compgen', 'complete', 'compopt',
  'continue', 'declare', 'dirs', 'disown', 'echo', 'enable', 'eval', 'exec', 'exit', 'export', 'false', 'fc', 'fg',
  'getopts', 'hash', 'help', 'history', 'jobs', 'kill', 'let', 'local', 'logout', 'mapfile', 'popd', 'printf', 'pushd',
  'pwd', 'read', 'readarray', 'readonly', 'return', 'set', 'shift', 'shopt', 'source', 'suspend', 'test', 'times',
  'trap', 'true', 'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'wait',
];

describe('act rule wrappers: what a wrapper can run', () => {
  test('after any wrapper a keyword is a plain word: the wrapper stays', () => {
    for (const keyword of KEYWORDS) {
      for (const wrapper of ['command', 'nohup']) apart(`${wrapper} '${keyword}' x`, `'${keyword}' x`);
    }
    // After the time keyword, ! negates the command: it is not a program named !.
    apart('time ! make', "'!' make");
    kept('command time make');
    kept('nice time make');
  });

  test('a program wrapper cannot run a shell builtin: the wrapper stays', () => {
    for (const builtin of BUILTINS) apart(`nohup '${builtin}' x`, `'${builtin}' x`);
    for (const wrapper of ['timeout 5', 'nice', 'nohup', 'stdbuf -oL']) {
      apart(`${wrapper} cd /tmp && make`, 'cd /tmp && make');
      apart(`${wrapper} command make`, 'make');
    }
  });

  test('command and time run builtins themselves: they go', () => {
    same('command cd /tmp && make', 'cd /tmp && make');
    same('time cd /tmp && make', 'cd /tmp && make');
    same('time command make', 'make');
  });

  test('a word named like an Object member is no wrapper', () => {
    kept('constructor make');
    kept('toString make');
  });

  test('the rule gives back the very line when there is nothing to unwrap', () => {
    const line = lineOf('make test | grep x && timeout 5');
    assert.equal(wrappers.apply(line), line);
  });
});

const command = (...words: string[]): Command => ({ assigns: [], words: words.map(word), redirects: [] });

describe('act syntax: canonical quoting', () => {
  test('a value of safe characters only is bare; anything else, or nothing, is single-quoted', () => {
    assert.equal(quote('src/a-b_c.ts'), 'src/a-b_c.ts');
    assert.equal(quote('a@b%c+d=e:f,g'), 'a@b%c+d=e:f,g');
    assert.equal(quote('a b'), "'a b'");
    assert.equal(quote(' ab'), "' ab'");
    assert.equal(quote('ab '), "'ab '");
    assert.equal(quote('$HOME'), "'$HOME'");
    assert.equal(quote(''), "''");
  });

  test('a single quote inside is closed, escaped and reopened', () => {
    assert.equal(quote("it's"), "'it'\\''s'");
    assert.deepEqual(word("it's"), { text: "'it'\\''s'", value: "it's" });
  });
});

describe('act syntax: reading and mapping a line', () => {
  test('a command name is its first literal word', () => {
    assert.equal(nameOf(command('make', 'test')), 'make');
    assert.equal(nameOf(command()), null);
    assert.equal(valueOf(undefined), null);
    assert.equal(valueOf({ text: '$X', value: null }), null);
    assert.equal(valueOf(word('a')), 'a');
  });

  test('mapping that changes nothing gives back the very line, and a change gives a new one', () => {
    const line = lineOf('a | b && c');
    assert.equal(mapCommands(line, (c) => c), line);
    assert.equal(mapPipelines(line, (p) => p), line);
    const renamed = mapCommands(line, (c) => (nameOf(c) === 'b' ? command('B') : c));
    assert.notEqual(renamed, line);
    assert.equal(renamed.pipelines[1], line.pipelines[1]);
    assert.equal(renderLine(renamed), 'a | B && c');
  });

  test('a command is mapped with its place in its pipeline', () => {
    const places: number[] = [];
    mapCommands(lineOf('a | b | c; d'), (c, place) => {
      places.push(place);
      return c;
    });
    assert.deepEqual(places, [0, 1, 2, 0]);
  });

  test('the last pipeline is replaced, the others kept in order', () => {
    const line = lineOf('a; b; c');
    assert.equal(renderLine(withLastPipeline(line, [command('z')])), 'a; b; z');
  });

  test('the canonical text: single spaces, redirections after the words, each connector, a trailing &', () => {
    assert.equal(renderLine(lineOf('A=1   make  >log   x')), 'A=1 make x >log');
    assert.equal(renderLine(lineOf('a;b&&c||d&e')), 'a; b && c || d & e');
    assert.equal(renderLine(lineOf('a 2>&1 | b &')), 'a 2>&1 | b &');
    assert.equal(renderLine(lineOf('a')), 'a');
  });
});

describe('reading a tool call', () => {
  test('name, arguments and agent, and the host fallbacks for each', () => {
    const agent = {};
    const args = { command: 'ls' };
    assert.deepEqual(readCall({ name: 'bash', arguments: args, agent }), { name: 'bash', args, agent });
    assert.equal(readCall({ toolName: 'bash' }).name, 'bash');
    assert.equal(readCall({ tool: { name: 'bash' } }).name, 'bash');
    assert.equal(readCall({ args }).args, args);
    assert.equal(readCall({ exec: { agent } }).agent, agent);
    assert.equal(readCall({ name: 'a', toolName: 'b', tool: { name: 'c' } }).name, 'a');
    assert.equal(readCall({ toolName: 'b', tool: { name: 'c' } }).name, 'b');
    assert.equal(readCall({ arguments: 1, args: 2 }).args, 1);
    assert.equal(readCall({ agent, exec: { agent: {} } }).agent, agent);
  });

  test('what is absent or of the wrong type reads as no name, no arguments, no agent', () => {
    assert.deepEqual(readCall({}), { name: '', args: {}, agent: null });
    assert.deepEqual(readCall(null), { name: '', args: {}, agent: null });
    assert.equal(readCall({ name: 42 }).name, '');
    assert.equal(readCall({ agent: 'me' }).agent, null);
  });

  test('a throwing getter or Proxy makes the whole call unreadable, never an error', () => {
    const throwing = Object.defineProperty({ name: 'bash' }, 'agent', {
      get() {
        throw new Error('no');
      },
    });
    const hostile = new Proxy({}, {
      get() {
        throw new Error('no');
      },
    });
    for (const exec of [throwing, hostile]) {
      const call = readCall(exec);
      assert.deepEqual(call, { name: '', args: {}, agent: null });
      assert.ok(Object.isFrozen(call), 'the empty call read is frozen');
    }
  });

  test('an agent is an object or a function: a primitive cannot key the state', () => {
    assert.equal(isAgent({}), true);
    assert.equal(isAgent(() => undefined), true);
    assert.equal(isAgent(null), false);
    assert.equal(isAgent(undefined), false);
    assert.equal(isAgent('agent'), false);
    assert.equal(isAgent(1), false);
  });
});

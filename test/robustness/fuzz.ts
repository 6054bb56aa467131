/**
 * The seeded hostile fuzz: a stream of random calls, some hostile, some
 * unreadable, most from a small alphabet so the repeat paths run, each driven
 * through every hook with a hostile result and a random answer, and now and
 * then a step message that may reset. Each suite passes its own mix; the same
 * seed and mix always draw the same stream.
 */
import { drive } from './drive.js';
import { captureHooks, type PluginLike } from './hooks.js';
import { HOSTILE_ARGUMENTS, HOSTILE_COMMANDS, HOSTILE_RESULTS, seeded } from './shapes.js';

export interface HostileMix {
  readonly seed: number;
  readonly config: unknown;
  /** Cumulative odds of a hostile command, hostile arguments and an unreadable call; the rest draw from `alphabet`. */
  readonly odds: readonly [command: number, args: number, unreadable: number];
  /** Tool names the hostile arguments are sent to. */
  readonly tools: readonly string[];
  /** Calls the plugin cannot read; a function, so each draw gets fresh objects. */
  readonly unreadable: () => readonly unknown[];
  /** The small alphabet of bash commands, so that repeats form. */
  readonly alphabet: readonly string[];
  /** Give each hostile command a varying `description` decoy. */
  readonly describe?: boolean;
}

const CALLS = 300;
const AGENTS = 3;
const SMALL = 4096;

/** Drives {@link CALLS} calls over {@link AGENTS} agents; any throw or ill-formed decision fails the caller. */
export async function fuzzHostile(plugin: PluginLike, mix: HostileMix): Promise<void> {
  const random = seeded(mix.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const hooks = captureHooks(plugin, mix.config);
  const agents = Array.from({ length: AGENTS }, () => ({}));
  // The 100,000-deep and 100,000-key shapes have tests of their own; the fuzz is about mixes, not size.
  const args = HOSTILE_ARGUMENTS.filter(([l]) => !l.includes('100,000'));
  const [command, hostile, unreadable] = mix.odds;
  for (let i = 0; i < CALLS; i += 1) {
    const roll = random();
    const agent = pick(agents);
    let exec: unknown;
    if (roll < command) {
      const text = pick(HOSTILE_COMMANDS)[1](SMALL);
      exec = { name: 'bash', arguments: mix.describe === true ? { command: text, description: `${i}` } : { command: text }, agent };
    } else if (roll < hostile) exec = { name: pick(mix.tools), arguments: pick(args)[1](), agent };
    else if (roll < unreadable) exec = pick(mix.unreadable());
    else exec = { name: 'bash', arguments: { command: pick(mix.alphabet) }, agent };
    await drive(hooks, exec, pick(HOSTILE_RESULTS)[1](SMALL), { answer: pick(['approve', 'decline'] as const) });
    if (random() < 0.03) hooks.step({ agent, messages: [{ source: { kind: pick(['user', 'plugin']) } }] });
  }
}

/**
 * Reading a tool call. The pipeline object is the one thing every hook
 * receives, so reading it must never throw: a getter that throws or a Proxy
 * whose traps throw makes the call unreadable, and an unreadable call is
 * transparent (allowed, never counted) rather than a crash inside the pipeline.
 */
import type { Agent } from '../host/types.js';
import { member } from '../host/member.js';
import type { Dialect } from '../shell/lex.js';

export interface ToolCall {
  /** The tool name; `''` when absent or not a string (such a call is never tracked). */
  readonly name: string;
  /** The raw arguments, decoys included. */
  readonly args: unknown;
  /** The agent whose window counts the call; `null` makes the call transparent. */
  readonly agent: Agent | null;
}

/** State is keyed by object identity, and a primitive cannot key a WeakMap (setting one throws). */
export function isAgent(value: unknown): value is Agent {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

// Exported for the tests' generators, which draw tool names from it.
export const SHELLS: ReadonlySet<string> = new Set(['bash', 'pwsh', 'shell']);

/** Whether the tool runs shell commands (`arguments.command`): matched by exact, case-sensitive name. */
export function isShell(name: string): boolean {
  return SHELLS.has(name);
}

/** The dialect a shell tool's line is written in: PowerShell's for `pwsh`, the posix shell's for every other. */
export const dialectOf = (name: string): Dialect => (name === 'pwsh' ? 'pwsh' : 'posix');

const UNREADABLE: ToolCall = Object.freeze({ name: '', args: {}, agent: null });

/** Reads name, arguments and agent with the host's fallbacks (`toolName`, `tool.name`, `args`, `exec.agent`). */
export function readCall(exec: unknown): ToolCall {
  try {
    const name = member(exec, 'name') ?? member(exec, 'toolName') ?? member(member(exec, 'tool'), 'name') ?? '';
    const args = member(exec, 'arguments') ?? member(exec, 'args') ?? {};
    const agent = member(exec, 'agent') ?? member(member(exec, 'exec'), 'agent') ?? null;
    return { name: typeof name === 'string' ? name : '', args, agent: isAgent(agent) ? agent : null };
  } catch {
    return UNREADABLE;
  }
}

/**
 * Shapes that outlive their objects. V8 compiles a hot function against the
 * hidden class of the objects it reads and holds that class weakly: when a full
 * collection finds no object of it alive (every call's marks gone with their
 * calls while an agent waits on its model), the class goes, and every
 * function compiled against it is thrown away ("weak objects") and compiled
 * again over the next calls, which run slower meanwhile. One instance of such a
 * class held for the process's life keeps its hidden class, and the code with it.
 * For what a call makes, and for an agent's books, which go with the agent or
 * at a human message: a process whose agents come and go (subagents, a session
 * after another) would otherwise compile the books' code again after each.
 * docs/performance.md ("Shapes that outlive a collection", "Books and hooks that outlive
 * a breaker") has the figures.
 */

const kept: object[] = [];

/** `instance`, held for the process's life: one small object per class. */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}

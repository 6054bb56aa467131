/**
 * Shapes that outlive their objects. V8 compiles a hot function against the
 * hidden class of the objects it reads and holds that class weakly: when a full
 * collection finds no object of it alive (every call's marks gone with their
 * calls while an agent waits on its model), the class goes, and every
 * function compiled against it is thrown away ("weak objects") and compiled
 * again over the next calls, which run slower meanwhile. One instance of such a
 * class held for the process's life keeps its hidden class, and the code with it.
 * Only for what a call makes: an agent's books live as long as the agent, and
 * keeping their classes too held 48 KB more code in the preset's memory probe.
 * docs/performance.md ("Shapes that outlive a collection") has the figures.
 */

const kept: object[] = [];

/** `instance`, held for the process's life: one small object per class. */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}

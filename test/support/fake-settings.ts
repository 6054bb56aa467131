/**
 * A small stand-in for DSH's settings service (`@deepseek-ai/dsh-settings`
 * 0.1.0-rc.8), faithful to what the plugin relies on: `register(ns, schema,
 * { base, applies, validate })` resolves `schema(merge(base, user))` then
 * `validate`, and returns a scope with `get` and `watch`; `update` merges a
 * patch into the user layer, refuses an invalid result before storing
 * anything, and tells the watchers; `publish` takes a new stored section as
 * the file provider does (a refused one keeps the last good value), and both
 * announce `settings/document-updated`; `describe` hands out the raw user
 * layer. The genuine service is exercised by the host suite
 * `test/host/suites/settings.ts`.
 */
// dsh-settings' layering, shared with the card (client/layers.ts), which predicts the host the same way.
import { mergeLayers } from '../../client/layers.js';
import type { PluginModule } from './fake-host.js';

type Watcher = (next: unknown, prev: unknown) => void;

interface Registration {
  readonly schema: (value: unknown) => unknown;
  readonly base: unknown;
  readonly applies: unknown;
  readonly validate: ((value: unknown) => void) | undefined;
  resolved: unknown;
  readonly watchers: Set<Watcher>;
}

export class FakeSettings {
  readonly registrations = new Map<string, Registration>();
  /** The stored user layer per namespace (what settings.yaml would hold). */
  readonly document: Record<string, Record<string, unknown>> = {};
  /** Where the file provider keeps the document. */
  readonly documentPath = '/home/operator/.dsh/settings.yaml';
  /** How many times a section was stored. */
  writes = 0;
  /** Listeners of `settings/document-updated` (through the fake `sctx.on`). */
  readonly documentListeners = new Set<(ns: string) => void>();
  /** What the service itself warned about (rc.8 logs it to cordis's logger, which prints nowhere). */
  readonly warnings: unknown[] = [];

  register(ns: string, schema: (value: unknown) => unknown, options: { base?: unknown; applies?: unknown; validate?: (value: unknown) => void } = {}): unknown {
    if (this.registrations.has(ns)) throw new Error(`settings namespace "${ns}" is already registered`);
    const registration: Registration = {
      schema,
      base: options.base,
      applies: options.applies,
      validate: options.validate,
      resolved: undefined,
      watchers: new Set(),
    };
    registration.resolved = this.resolve(registration, this.document[ns]);
    this.registrations.set(ns, registration);
    return {
      get: () => registration.resolved,
      watch: (callback: Watcher) => {
        registration.watchers.add(callback);
        return () => registration.watchers.delete(callback);
      },
    };
  }

  private resolve(registration: Registration, section: unknown): unknown {
    const value = registration.schema(mergeLayers(registration.base, section));
    registration.validate?.(value);
    return value;
  }

  get(ns: string): unknown {
    return this.registrations.get(ns)?.resolved;
  }

  describe(): { ns: string; base: unknown; user: unknown; value: unknown }[] {
    return [...this.registrations].map(([ns, r]) => ({ ns, base: r.base, user: this.document[ns], value: r.resolved }));
  }

  /** The provider saw a new stored section (settings.yaml edited while DSH runs). */
  publish(ns: string, section: Record<string, unknown> | undefined): void {
    const registration = this.registrations.get(ns);
    if (section === undefined) delete this.document[ns];
    else this.document[ns] = section;
    if (registration === undefined) return;
    let next: unknown;
    try {
      next = this.resolve(registration, section);
    } catch (error) {
      this.warnings.push(error);
      return;
    }
    this.announce(ns);
    this.commit(registration, next);
  }

  private announce(ns: string): void {
    for (const listener of this.documentListeners) listener(ns);
  }

  private commit(registration: Registration, next: unknown): void {
    const prev = registration.resolved;
    if (JSON.stringify(prev) === JSON.stringify(next)) return;
    registration.resolved = next;
    for (const watcher of registration.watchers) watcher(next, prev);
  }

  /** Merges `patch` into the user layer; an invalid result throws and stores nothing. */
  async update(ns: string, patch: Record<string, unknown>): Promise<void> {
    const registration = this.registrations.get(ns);
    if (registration === undefined) throw new Error(`settings namespace "${ns}" is not registered`);
    const section = mergeLayers(this.document[ns] ?? {}, structuredClone(patch)) as Record<string, unknown>;
    const next = this.resolve(registration, section);
    this.document[ns] = section;
    this.writes += 1;
    this.announce(ns);
    this.commit(registration, next);
  }

  /** Removes one top-level key of the user layer (the card's Reset: `settings.mutate` unset). */
  async unset(ns: string, key: string): Promise<void> {
    const registration = this.registrations.get(ns);
    if (registration === undefined) throw new Error(`settings namespace "${ns}" is not registered`);
    const { [key]: _dropped, ...section } = this.document[ns] ?? {};
    const next = this.resolve(registration, section);
    this.document[ns] = section;
    this.writes += 1;
    this.announce(ns);
    this.commit(registration, next);
  }
}

/** What a fake `ctx.inject` saw: the services asked for, and any error the callback threw. */
export interface InjectLog {
  readonly asked: string[][];
  readonly errors: unknown[];
}

/**
 * The plugin with a cordis-like `ctx.inject` added to the context it is
 * applied to: the callback runs at once with `{ settings: service }` (and a
 * recorded `effect`), and a throw is recorded, as cordis logs it.
 */
export function withSettings(plugin: PluginModule, service: unknown, log: InjectLog = { asked: [], errors: [] }): PluginModule {
  return {
    apply: (ctx: Record<string, unknown>, config?: unknown) => {
      const inject = (deps: string[], callback: (sctx: unknown) => void): { dispose(): void } => {
        log.asked.push([...deps]);
        const effects: (() => void)[] = [];
        const on = (name: string, listener: (ns: string) => void): (() => void) => {
          const listeners = name === 'settings/document-updated' && service instanceof FakeSettings ? service.documentListeners : new Set<(ns: string) => void>();
          listeners.add(listener);
          return () => listeners.delete(listener);
        };
        const sctx = { settings: service, on, effect: (execute: () => () => void) => effects.push(execute()) };
        try {
          callback(sctx);
        } catch (error) {
          log.errors.push(error);
        }
        return { dispose: () => effects.splice(0).forEach((dispose) => dispose()) };
      };
      return plugin.apply({ ...ctx, inject }, config);
    },
  };
}

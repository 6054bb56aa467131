/**
 * The settings scope a card reads and writes through, typed here: DSH
 * publishes no typings for third-party client plugins, so these follow what
 * rc.8's own cards call (`@deepseek-ai/dsh-client-ui-settings-plugins`). Kept
 * apart from host.ts so the store, which needs only this, type-checks without
 * React's declarations (the unit tests run it in Node).
 */

/** A namespace's snapshot: the resolved section, the row's config (`base`) and the raw user layer. */
export interface ScopeSnapshot {
  readonly status: 'loading' | 'ready' | 'unavailable' | (string & {});
  readonly value: unknown;
  readonly base: unknown;
  readonly user: unknown;
  readonly revision: number | undefined;
  readonly writable: boolean;
}

/** `ctx.settingsScope.bind({ namespace })`: one namespace, writes fenced by its revision. */
export interface SettingsScope {
  getSnapshot(): ScopeSnapshot;
  subscribe(listener: () => void): () => void;
  /** Sets one top-level field of the user layer; settles after the host answered (a refusal is not thrown). */
  set(field: string, value: unknown): Promise<void>;
  unset(field: string): Promise<void>;
}

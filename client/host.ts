/**
 * The slice of DSH's browser plugin context the card uses, typed here: DSH
 * publishes no typings for third-party client plugins (the slot package is at
 * rc.6 only), so these follow what rc.8's own cards call
 * (`@deepseek-ai/dsh-client-ui-settings-plugins`, `…-ui-settings`).
 */
import type { ReactElement } from 'react';

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

export interface ClientContext {
  readonly slots: {
    /** Runs `register` once the slot is declared (the Plugins tab declares `settings.plugin.item`). */
    inject(name: string, register: () => unknown): void;
    register(options: { readonly name: string; readonly key: string }, component: () => ReactElement | null): () => void;
  };
  readonly settingsScope: {
    bind(spec: { readonly namespace: string; readonly decode?: (value: unknown) => unknown }): SettingsScope;
  };
}

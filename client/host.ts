/**
 * The slice of DSH's browser plugin context the card uses, typed here: DSH
 * publishes no typings for third-party client plugins (the slot package is at
 * rc.6 only), so these follow what rc.8's own cards call
 * (`@deepseek-ai/dsh-client-ui-settings-plugins`, `…-ui-settings`,
 * `@deepseek-ai/dsh-client-locale`).
 */
import type { ReactElement } from 'react';

import type { SettingsScope } from './scope.js';

export interface ClientContext {
  readonly slots: {
    /** Runs `register` once the slot is declared (the Plugins tab declares `settings.plugin.item`). */
    inject(name: string, register: () => unknown): void;
    register(options: { readonly name: string; readonly key: string }, component: () => ReactElement | null): () => void;
  };
  readonly settingsScope: {
    bind(spec: { readonly namespace: string; readonly decode?: (value: unknown) => unknown }): SettingsScope;
  };
  /** cordis: runs `apply` in a child fiber while the named services are up (the card asks for `locale` this way: optional). */
  readonly inject?: (services: readonly string[], apply: (ctx: LocaleContext) => void) => unknown;
}

/** What `@deepseek-ai/dsh-client-locale` publishes on `locale/change` and from `getLocale()`. */
export interface LocaleSnapshot {
  readonly active: string;
  readonly revision: number;
}

/** DSH's locale service (`LocaleRuntime`), the part the card uses. */
export interface LocaleService {
  /** Registers a namespace's dictionaries, every shipped locale at once; returns the disposer. */
  register(ns: string, dictionaries: Readonly<Record<string, Readonly<Record<string, string>>>>): () => void;
  /** The namespace's translate function: key → template of the active locale, `{name}` filled from `params`. */
  bind(ns: string): (key: string, params?: Readonly<Record<string, string | number>>) => string;
  getLocale(): LocaleSnapshot;
}

/** The child fiber's context, once `locale` is there. */
export interface LocaleContext {
  readonly locale: LocaleService;
  on(event: 'locale/change', listener: (snapshot: LocaleSnapshot) => void): () => void;
  effect(body: () => () => void, label?: string): void;
}

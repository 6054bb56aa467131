/**
 * The slice of DSH's browser plugin context the card uses, typed here: DSH
 * publishes no typings for third-party client plugins (the slot package is at
 * rc.6 only), so these follow what rc.8's own cards call
 * (`@deepseek-ai/dsh-client-ui-settings-plugins`, `…-ui-settings`).
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
}

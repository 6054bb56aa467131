/**
 * The live settings namespace `repeat-tool-breaker`: where the host runs DSH's
 * settings service (`ctx.settings`), the plugin registers its settings there
 * with the row's YAML config as the base layer, so the web UI can show and
 * change them, and follows every saved change without a restart.
 *
 * Everything here is optional. The plugin's contract stays `inject: ['tools']`;
 * the service is asked for at run time through cordis's `ctx.inject`, and a
 * host without it (or with a different settings API) leaves the breaker on
 * its YAML config, exactly as before (docs/live-settings.md).
 *
 * The same service holds the operator's language: DSH's web app registers a
 * `locale` namespace (`{ preference?: 'zh' | 'en' }`, the UI's language
 * switch). While the service is up, `OperatorLocale.current()` reads that
 * preference from the service's resolved values (a map lookup: no wait, no
 * disk), so an ask and a refused `settings.update` are said in the language
 * the operator chose, and follow a switch at once. No service, or no `locale`
 * namespace (headless): English.
 */
import { resolveConfig, resolveConfigIn, type BreakerConfig } from '../config/config.js';
import { member } from '../host/member.js';
import type { Dispose } from '../host/types.js';
import { asLocale, type Locale } from '../config/locale.js';
import { safely } from './hook.js';
import { createSettingsSchema } from '../config/schema.js';

export const SETTINGS_NAMESPACE = 'repeat-tool-breaker';

/** DSH's locale namespace (`@deepseek-ai/dsh-client-locale`) and its field. */
const LOCALE_NAMESPACE = 'locale';
const LOCALE_FIELD = 'preference';

/** The operator's language as the settings service holds it, read when asked. */
export interface OperatorLocale {
  current(): Locale;
  /** Reads through `settings` (the service `register` got) until the returned function is called. */
  attach(settings: unknown): () => void;
}

export function createOperatorLocale(): OperatorLocale {
  let settings: unknown;
  return {
    current() {
      if (settings === undefined) return 'en';
      return safely(() => asLocale(member(call(settings, 'get', LOCALE_NAMESPACE), LOCALE_FIELD)), 'en');
    },
    attach(service) {
      settings = service;
      return () => void (settings = undefined);
    },
  };
}

/** A config error of ours, as `resolveConfig` throws it. */
function isOwnConfigError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('repeat-tool-breaker: ');
}

/**
 * Calls a method of a host object. Anything else throws a TypeError: reading a
 * member of null or undefined does, and Reflect.apply does for a member that is
 * not a function (none of the keys used here is a member of a primitive).
 */
function call(holder: unknown, key: string, ...args: unknown[]): unknown {
  return Reflect.apply((holder as Record<string, unknown>)[key] as (...args: unknown[]) => unknown, holder, args);
}

/**
 * Registers the namespace in a context that has the settings service and
 * hands `follow` the validated config now and after every saved change; when
 * the service goes away, `follow` gets the YAML config back. A stored section
 * our checks refuse (a hand-edited settings.yaml) fails the registration with
 * our message, which cordis logs; the breaker stays on the YAML config.
 */
function register(sctx: unknown, base: unknown, yaml: BreakerConfig, follow: (cfg: BreakerConfig) => void, operator: OperatorLocale): void {
  let scope: unknown;
  const settings = safely(() => (sctx as { settings?: unknown }).settings, undefined);
  try {
    // The operator reads a refusal in their language; a profile's load error stays English (no `locale` yet, or none at all).
    const locale = (): Locale => operator.current();
    scope = call(settings, 'register', SETTINGS_NAMESPACE, createSettingsSchema(locale), {
      base,
      applies: 'live',
      // The schema already resolves with our checks; this keeps them on a host that resolves another way.
      validate: (value: unknown) => void resolveConfigIn(value, locale),
    });
  } catch (error) {
    if (isOwnConfigError(error)) throw error;
    return;
  }
  const detach = operator.attach(settings);
  safely(() => call(sctx, 'effect', () => detach), undefined);
  const adopt = (value: unknown): void => {
    const cfg = safely(() => resolveConfig(value), null);
    if (cfg !== null) follow(cfg);
  };
  safely(() => adopt(call(scope, 'get')), undefined);
  safely(() => call(scope, 'watch', adopt), undefined);
  safely(() => call(sctx, 'effect', () => () => follow(yaml)), undefined);
}

/**
 * Offers the settings namespace where the host can serve it. `base` is the
 * row's config as written; `yaml` the same config resolved. Returns a
 * disposer, or `undefined` when the host has no `ctx.inject`.
 */
export function offerSettings(
  ctx: unknown,
  base: unknown,
  yaml: BreakerConfig,
  follow: (cfg: BreakerConfig) => void,
  operator: OperatorLocale = createOperatorLocale(),
): Dispose | undefined {
  let fiber: unknown;
  try {
    fiber = call(ctx, 'inject', ['settings'], (sctx: unknown) => register(sctx, base, yaml, follow, operator));
  } catch {
    return undefined;
  }
  return () => safely(() => void call(fiber, 'dispose'), undefined);
}

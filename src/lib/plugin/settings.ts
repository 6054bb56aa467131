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
import { isMapping, member } from '../host/member.js';
import type { Dispose } from '../host/types.js';
import { asLocale, type Locale } from '../text/locale.js';
import { safely } from './hook.js';
import { configText } from '../config/messages.js';
import { createSettingsSchema, type StoredSection } from '../config/schema.js';
import { leftOut, type DroppedValue } from '../config/stored.js';

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

/**
 * Calls a method of a host object. Anything else throws a TypeError: reading a
 * member of null or undefined does, and Reflect.apply does for a member that is
 * not a function (none of the keys used here is a member of a primitive).
 */
function call(holder: unknown, key: string, ...args: unknown[]): unknown {
  return Reflect.apply((holder as Record<string, unknown>)[key] as (...args: unknown[]) => unknown, holder, args);
}

/** Where the operator reads what the plugin has to say about its settings: the terminal that runs DSH. */
export type Report = (line: string) => void;

/**
 * rc.8 registers no exporter on cordis's logger (its output stays in an
 * in-memory buffer), so `ctx.logger` never reaches the terminal of `dsh web`;
 * `console.warn` does, on stderr (docs/live-settings.md).
 */
export const toTerminal: Report = (line) => console.warn(line);

/** DSH's layering (`@deepseek-ai/dsh-settings` mergeLayers): plain objects merge key by key, anything else replaces. */
function mergeLayers(under: unknown, over: unknown): unknown {
  if (over === undefined) return under;
  if (!isMapping(under) || !isMapping(over)) return over;
  const merged: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) merged[key] = key in merged ? mergeLayers(merged[key], value) : value;
  return merged;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (!isMapping(a) || !isMapping(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The terminal line for a stored section our checks refuse: what is refused,
 * what runs meanwhile, and how to fix it.
 */
export function refusedSectionLine(error: unknown, file: string | undefined, meanwhile: 'profile' | 'before'): string {
  const where = file ?? 'settings.yaml';
  const runs =
    meanwhile === 'profile'
      ? "none of that section applies: the breaker runs on the profile's config (cordis.patch.yml) and the defaults"
      : 'none of the edit applies: the breaker keeps the settings it ran on before it';
  return (
    `repeat-tool-breaker: the \`${SETTINGS_NAMESPACE}:\` section of ${where} is refused, so ${runs}. ` +
    `${messageOf(error).replace(/^repeat-tool-breaker: /, '')}. ` +
    `Fix it in ${where}, or with Reset in Settings → Plugins → Repeat-tool breaker.`
  );
}

/** The terminal line for a value of the stored section that is left out: which, why, and that the rest applies. */
export function droppedValueLine(drop: DroppedValue, file: string | undefined): string {
  const where = file ?? 'settings.yaml';
  return (
    `repeat-tool-breaker: \`${drop.path}\` in the \`${SETTINGS_NAMESPACE}:\` section of ${where} is left out, and the rest of the section applies: ` +
    `${configText(drop.refusal)}. Fix it or remove it in ${where}, or in Settings → Plugins → Repeat-tool breaker.`
  );
}

/**
 * The stored section as the schema meets it (`StoredSection`), and the terminal
 * lines about it: one per value left out and one when it is refused whole,
 * each said once, and one when it resolves in full again.
 */
function storedSectionOf(settings: unknown, base: unknown, report: Report) {
  let scope: unknown;
  let registering = true;
  /** What the terminal was told about the section as it stands: a line's key, per value left out or for the whole. */
  let reported = new Set<string>();
  const file = (): string => {
    const path = safely(() => member(settings, 'documentPath'), undefined);
    return typeof path === 'string' ? path : 'settings.yaml';
  };
  /** The user section settings.yaml holds now (the service has taken it in before it resolves it). */
  const section = (): unknown =>
    safely(() => {
      const views = call(settings, 'describe');
      return Array.isArray(views) ? member(views.find((view) => member(view, 'ns') === SETTINGS_NAMESPACE), 'user') : undefined;
    }, undefined);
  /** Says each line not said yet for the section as it stands, and forgets lines about what it no longer holds. */
  const tell = (lines: ReadonlyMap<string, () => string>): void => {
    for (const [key, line] of lines) if (!reported.has(key)) report(line());
    reported = new Set(lines.keys());
  };
  const stored: StoredSection = {
    // At registration the value resolved is the stored one; later, a publish resolves the stored section and a write a candidate.
    matches: (value) => registering || sameJson(value, mergeLayers(base, section())),
    base,
    leftOut: () => leftOut(base, mergeLayers(base, section())),
    fallback: () => (scope === undefined ? resolveConfig(base) : (call(scope, 'get') as BreakerConfig)),
    dropped(dropped) {
      tell(new Map(dropped.map((drop) => [`${drop.path} ${configText(drop.refusal)}`, () => droppedValueLine(drop, file())])));
    },
    refused(error, value) {
      tell(new Map([[`whole ${JSON.stringify(value)}`, () => refusedSectionLine(error, file(), scope === undefined ? 'profile' : 'before')]]));
    },
  };
  return {
    stored,
    registered(registeredScope: unknown): void {
      registering = false;
      scope = registeredScope;
    },
    /** `settings/document-updated`: a section reported before that resolves in full now (edited, fixed from the card) is said once. */
    updated(ns: unknown): void {
      if (ns !== SETTINGS_NAMESPACE || reported.size === 0) return;
      if (safely(() => resolveConfig(mergeLayers(base, section())), null) === null) return;
      reported = new Set();
      report(`repeat-tool-breaker: the \`${SETTINGS_NAMESPACE}:\` section of ${file()} is accepted again; the breaker follows it.`);
    },
  };
}

/**
 * Registers the namespace in a context that has the settings service and
 * hands `follow` the validated config now and after every saved change; when
 * the service goes away, `follow` gets the YAML config back.
 *
 * A stored section our checks refuse (a hand-edited settings.yaml, a key of
 * another version) never costs the namespace: the settings service would fail
 * the registration on it (rc.8: the card and `settings.describe` lose the
 * namespace, silently). So the schema resolves the section *as stored* without
 * each value it refuses (config/stored.ts), and, where no single value can be
 * left out, to the last value accepted: the YAML config at registration, the
 * value in force when the file is edited while DSH runs (what the service
 * itself keeps then). What was left out goes to the terminal, and the card
 * reads the stored section back and shows it at its top. A write
 * (`settings.update`, the card's Save) is still refused with our message.
 */
function register(sctx: unknown, base: unknown, yaml: BreakerConfig, follow: (cfg: BreakerConfig) => void, operator: OperatorLocale, report: Report): void {
  let scope: unknown;
  const settings = safely(() => (sctx as { settings?: unknown }).settings, undefined);
  const stored = storedSectionOf(settings, base, report);
  try {
    // The operator reads a refusal in their language; a profile's load error stays English (no `locale` yet, or none at all).
    const locale = (): Locale => operator.current();
    scope = call(settings, 'register', SETTINGS_NAMESPACE, createSettingsSchema(locale, stored.stored), {
      base,
      applies: 'live',
      // The schema already resolves with our checks; this keeps them on a host that resolves another way.
      validate: (value: unknown) => void resolveConfigIn(value, locale),
    });
  } catch (error) {
    // Not ours to fix (a section that is no mapping, another plugin on the namespace): still never silent.
    report(`repeat-tool-breaker: the settings namespace \`${SETTINGS_NAMESPACE}\` could not be registered (${messageOf(error)}); the breaker runs on the profile's config.`);
    return;
  } finally {
    stored.registered(scope);
  }
  safely(() => call(sctx, 'on', 'settings/document-updated', stored.updated), undefined);
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
  report: Report = toTerminal,
): Dispose | undefined {
  let fiber: unknown;
  try {
    const inject = (ctx as Record<string, unknown>).inject;
    // A host without cordis's `inject` (a bare context) has nothing to offer: said without a TypeError built, stack and all, and thrown on every `apply`.
    if (typeof inject !== 'function') return undefined;
    fiber = Reflect.apply(inject, ctx, [['settings'], (sctx: unknown) => register(sctx, base, yaml, follow, operator, report)]);
  } catch {
    return undefined;
  }
  return () => safely(() => void call(fiber, 'dispose'), undefined);
}

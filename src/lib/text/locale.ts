/**
 * The two languages of the operator's texts, DSH's own: `locale.preference`
 * in settings.yaml is `zh` or `en` (`@deepseek-ai/dsh-client-locale`), and
 * English is what a host without that preference gets. What the model reads
 * (denials, advisories, notice summaries) has no language setting: it is
 * English everywhere, one protocol for every model.
 *
 * Templates use `{name}` placeholders, filled the way DSH's locale service
 * fills them (`LocaleRuntime.translate`), so one dictionary serves the host
 * and the browser card's registration alike. The Chinese words follow one
 * glossary: client/locales/glossary.md.
 */

export type Locale = 'en' | 'zh';

export const LOCALES: readonly Locale[] = ['en', 'zh'];

/** A preference as the settings service holds it: `zh`, or English for anything else (absent included). */
export function asLocale(value: unknown): Locale {
  return value === 'zh' ? 'zh' : 'en';
}

export type Params = Readonly<Record<string, string | number>>;

/** `{name}` replaced by `params[name]`; a placeholder with no param stays as written (DSH's rule). */
export function fill(template: string, params?: Params): string {
  if (params === undefined) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : match));
}

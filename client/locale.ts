/**
 * The card's language, from DSH's locale service (`@deepseek-ai/dsh-client-locale`).
 *
 * The service is optional: the card's plugin asks only for `slots` and
 * `settingsScope`, and a child fiber (`ctx.inject(['locale'], …)`) starts
 * while `locale` is up. There the card registers its two dictionaries under
 * its namespace (i18n.ts), translates through the service's `bind`, and takes
 * new words on every `locale/change`; when the service goes, the fiber's
 * effect puts the English back. A page without the service never starts the
 * fiber: the card stays English. Nothing here can break the card: a service
 * of another shape leaves it English too.
 */
import { asLocale } from '../src/lib/text/locale.js';
import { COPY, wordsOf } from './copy.js';
import type { ClientContext, LocaleContext, LocaleSnapshot } from './host.js';
import { DICTIONARIES, type Translate } from './i18n.js';
import type { CardStore } from './store.js';

/** Runs `body`, or leaves the card as it is when the host's API is not what rc.8's is. */
function quietly(body: () => void): void {
  try {
    body();
  } catch {
    // A locale service of another shape: the card stays in the words it has.
  }
}

/** The card's words follow the page's locale for as long as the locale service is up. */
export function followLocale(ctx: ClientContext, namespace: string, store: Pick<CardStore, 'setWords'>): void {
  const start = (lctx: LocaleContext): void => {
    quietly(() => {
      const { locale } = lctx;
      lctx.effect(() => locale.register(namespace, DICTIONARIES), 'repeat-tool-breaker: card dictionaries');
      const t = locale.bind(namespace) as Translate;
      const adopt = (snapshot: LocaleSnapshot): void => store.setWords(wordsOf(t, asLocale(snapshot.active)));
      adopt(locale.getLocale());
      lctx.on('locale/change', (snapshot) => quietly(() => adopt(snapshot)));
      lctx.effect(() => () => store.setWords(COPY), 'repeat-tool-breaker: card back to English');
    });
  };
  quietly(() => void ctx.inject?.(['locale'], start));
}

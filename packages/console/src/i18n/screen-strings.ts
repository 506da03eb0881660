import i18next from 'i18next';
import { useTranslation } from 'react-i18next';

/** The same keys as `T`, each leaf a string: what a translation of `T` must give (the compiler checks). */
export type Translation<T> = { readonly [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };

/** A screen's own texts in the console's three languages; English is the source of the keys. */
export interface ScreenStrings<T> {
  readonly en: T;
  readonly 'pt-BR': Translation<T>;
  readonly es: Translation<T>;
}

/**
 * The `t` of a screen whose texts live beside it (`screens/<name>/strings.ts`) rather than in the
 * console's shared files: they load with the screen's own code, and screens built side by side do
 * not edit the same file. The texts are added to i18next under the namespace `ns` on first use; a
 * key the screen lacks (`actions.cancel`, `errors.codes.*`) falls back to the shared texts.
 */
export function useScreenStrings<T>(ns: string, strings: ScreenStrings<T>) {
  if (!i18next.hasResourceBundle('en', ns)) {
    for (const language of ['en', 'pt-BR', 'es'] as const) i18next.addResourceBundle(language, ns, strings[language], true, true);
  }
  return useTranslation(ns);
}

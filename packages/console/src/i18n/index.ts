import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en } from './en.js';
import { es } from './es.js';
import { ptBR } from './pt-BR.js';

export const LANGUAGES = [
  { code: 'pt-BR', name: 'Português (Brasil)' },
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
] as const;

/** Chosen by the browser's languages, then switchable (remembered in localStorage). */
export async function initI18n(): Promise<void> {
  await i18next
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: { en: { translation: en }, 'pt-BR': { translation: ptBR }, es: { translation: es } },
      // A screen's own namespace (screen-strings.ts) falls back to the shared texts.
      fallbackNS: 'translation',
      supportedLngs: LANGUAGES.map((l) => l.code),
      fallbackLng: { pt: ['pt-BR'], default: ['en'] },
      nonExplicitSupportedLngs: false,
      load: 'currentOnly',
      detection: { order: ['localStorage', 'navigator'], lookupLocalStorage: 'servicedesk.language', caches: ['localStorage'] },
      interpolation: { escapeValue: false },
    });
  document.documentElement.lang = i18next.resolvedLanguage ?? 'en';
  i18next.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
}

export function setLanguage(code: string) {
  return i18next.changeLanguage(code);
}

import { minorDigits, parsePriceText } from '@servicedesk/core/catalog/catalog-rules';

/** The currency the company prices in: its default order setting's (`GET /order-settings`), else BRL, as the server decides. */
export const FALLBACK_CURRENCY = 'BRL';

export function companyCurrency(settings: ReadonlyArray<{ connectionId: number | null; currency: string }> | undefined): string {
  return settings?.find((s) => s.connectionId === null)?.currency ?? FALLBACK_CURRENCY;
}

const formats = new Map<string, Intl.NumberFormat>();

/** An amount in minor units (cents) as the reader writes money (`R$ 12,50`, `$12.50`), in the currency's own digits. */
export function formatMoney(minor: number, currency: string, language: string): string {
  const key = `${language} ${currency}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(language, { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formats.set(key, format);
  }
  return format.format(minor / 10 ** minorDigits(currency));
}

/** Minor units as an editable amount (`12.50`, `1250` for a currency without cents): what the price field starts with. */
export function minorToText(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0 ? String(minor) : (minor / 10 ** digits).toFixed(digits);
}

/**
 * A typed price in minor units, read as the server reads a spreadsheet's (`12,50`, `12.50`, `R$ 12,50`,
 * `1.234,56`), or null when it is not an amount: the form then sends none and the refusal shows at the field.
 */
export function textToMinor(text: string, currency: string): number | null {
  try {
    return parsePriceText(text, currency);
  } catch {
    return null;
  }
}

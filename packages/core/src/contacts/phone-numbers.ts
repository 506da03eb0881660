/** Digits only: `+55 (11) 98888-7777` becomes `5511988887777`. */
export function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * A Brazilian mobile written without the ninth digit: 55, a two-digit area code (no zeros) and
 * eight digits starting 6 to 9. Landlines (starting 2 to 5) never had a ninth digit added.
 */
const BR_MOBILE_WITHOUT_NINE = /^55([1-9][1-9])([6-9]\d{7})$/;
/** The same mobile with it: 55, the area code, 9, and the old eight digits. */
const BR_MOBILE_WITH_NINE = /^55([1-9][1-9])9([6-9]\d{7})$/;

/**
 * The form a phone number is identified by: a Brazilian mobile always with its ninth digit, any
 * other number as it is. Two numbers with the same canonical form reach the same person.
 */
export function canonicalPhone(number: string): string {
  const m = BR_MOBILE_WITHOUT_NINE.exec(number);
  return m ? `55${m[1]}9${m[2]}` : number;
}

/** Every way the number may be written: itself and, for a Brazilian mobile, the form with or without the ninth digit. */
export function phoneForms(number: string): string[] {
  const without = BR_MOBILE_WITHOUT_NINE.exec(number);
  if (without) return [number, `55${without[1]}9${without[2]}`];
  const withNine = BR_MOBILE_WITH_NINE.exec(number);
  if (withNine) return [number, `55${withNine[1]}${withNine[2]}`];
  return [number];
}

/** Digits only, 8 to 15 of them (E.164 without the plus). */
export function isPhoneNumber(number: string): boolean {
  return /^\d{8,15}$/.test(number);
}

/** The digits a search looks for in numbers: only a search made of digits and phone punctuation has them. */
export function numberSearch(search: string | undefined): string {
  return search && /^[\d\s()+\-.]+$/.test(search.trim()) ? digitsOf(search) : '';
}

/** The sign-up form's fields, in the order they are shown (the first refused one gets the focus). */
export const SIGNUP_FIELDS = ['planId', 'document', 'companyName', 'phone', 'name', 'email', 'password', 'confirm'] as const;
export type SignupField = (typeof SIGNUP_FIELDS)[number];
export type SignupForm = Record<Exclude<SignupField, 'planId'>, string>;

/** Why a field cannot be sent as typed: the key of the screen's sentence. */
export type SignupProblem = 'pickPlan' | 'required' | 'tooShortName' | 'documentDigits' | 'invalidEmail' | 'tooShort' | 'tooLong' | 'mismatch';

/** The digits of a CPF or CNPJ as typed with its punctuation. */
export function documentDigits(typed: string): string {
  return typed.replace(/\D/g, '');
}

/**
 * What the form checks before sending, as the server would refuse it (`POST /auth/signup`: names
 * of 2 characters or more, a well-formed e-mail, a password of 8 to 128 characters, a document of
 * 11 or 14 digits when given), plus the password typed twice. The server still checks the CNPJ's
 * check digits and whether the e-mail is taken.
 */
export function checkSignup(form: SignupForm, planId: number | null): Partial<Record<SignupField, SignupProblem>> {
  const out: Partial<Record<SignupField, SignupProblem>> = {};
  const named = (value: string): SignupProblem | null => (value.trim().length >= 2 ? null : value.trim() ? 'tooShortName' : 'required');
  if (planId === null) out.planId = 'pickPlan';
  const digits = documentDigits(form.document);
  if (form.document.trim() && digits.length !== 11 && digits.length !== 14) out.document = 'documentDigits';
  const company = named(form.companyName);
  if (company) out.companyName = company;
  const name = named(form.name);
  if (name) out.name = name;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) out.email = 'invalidEmail';
  if (form.password.length < 8) out.password = 'tooShort';
  else if (form.password.length > 128) out.password = 'tooLong';
  else if (form.password !== form.confirm) out.confirm = 'mismatch';
  return out;
}

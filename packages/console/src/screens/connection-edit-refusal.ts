import type { TFunction } from 'i18next';
import { ApiError } from '../api/client.js';
import { codeOf, errorText, fieldMessages } from '../ui/errors.js';

/** The connection dialog's fields the server may refuse one by one (kept apart from the dialog for the unit test). */
export type EditField =
  | 'name'
  | 'greetingMessage'
  | 'complationMessage'
  | 'outOfHoursMessage'
  | 'reopenWindowMinutes'
  | 'token'
  | 'queueIds'
  | 'promptId'
  | 'externalId'
  | 'secrets';
const EDIT_FIELDS: readonly EditField[] = [
  'name',
  'greetingMessage',
  'complationMessage',
  'outOfHoursMessage',
  'reopenWindowMinutes',
  'token',
  'queueIds',
  'promptId',
  'externalId',
  'secrets',
];
/** The refusals of `PUT /chatapp/:id` that name one field. */
const FIELD_OF: Readonly<Record<string, EditField>> = {
  ERR_INVALID_CONNECTION_NAME: 'name',
  ERR_INVALID_REOPEN_WINDOW: 'reopenWindowMinutes',
  ERR_INVALID_CONNECTION_TOKEN_FORMAT: 'token',
  ERR_TOKEN_IN_USE: 'token',
  ERR_TOO_MANY_QUEUES: 'queueIds',
  ERR_QUEUE_NOT_FOUND: 'queueIds',
  ERR_NO_PROMPT_FOUND: 'promptId',
  ERR_INVALID_EXTERNAL_ID: 'externalId',
  ERR_EXTERNAL_ID_REQUIRED: 'externalId',
  ERR_PAGE_IN_USE: 'externalId',
  ERR_PAGE_NOT_OWNED: 'externalId',
  ERR_BIZCHAT_NUMBER_IN_USE: 'externalId',
  ERR_BIZCHAT_NUMBER_NOT_OWNED: 'externalId',
  ERR_INVALID_SECRETS: 'secrets',
  ERR_PAGE_ACCESS_TOKEN_REQUIRED: 'secrets',
  ERR_PAGE_ACCESS_TOKEN_INVALID: 'secrets',
  ERR_BIZCHAT_TOKEN_INVALID: 'secrets',
  ERR_BIZCHAT_ACCOUNT_INCOMPLETE: 'secrets',
};
/** The schema refusals said in the screen's words (the server's own are in English). */
const OWN_WORDS: readonly EditField[] = ['name', 'greetingMessage', 'complationMessage', 'outOfHoursMessage', 'reopenWindowMinutes', 'token'];

/** A refusal in the screen's words: its own sentence for the code, else the console's. */
export function said(t: TFunction, err: unknown): string {
  return t(`codes.${codeOf(err)}`, { defaultValue: errorText(t, err) });
}

/** Where a save's refusal goes: beside the field it names, else above the buttons. */
export function editRefusal(t: TFunction, err: unknown): { byField: Partial<Record<EditField, string>>; form: string | null } {
  if (!err) return { byField: {}, form: null };
  const byField: Partial<Record<EditField, string>> = {};
  if (err instanceof ApiError && err.code === 'ERR_VALIDATION') {
    const messages = fieldMessages(err);
    for (const field of EDIT_FIELDS) {
      const message = messages[field];
      if (message) byField[field] = OWN_WORDS.includes(field) ? t(`invalid.${field}`) : message;
    }
    if (Object.keys(byField).length > 0) return { byField, form: null };
  }
  const field = FIELD_OF[codeOf(err)];
  if (field) return { byField: { [field]: said(t, err) }, form: null };
  return { byField, form: said(t, err) };
}

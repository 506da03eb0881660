import type { EnabledDisabled, User } from './user.js';

/**
 * What a user form sets beyond name, e-mail, password and profile: working hours, the default
 * connection, preferences and the operator flags. Absent fields are left as they are (on creation:
 * their defaults).
 */
export interface UserFormFields {
  readonly allTicket?: 'enable' | 'disable';
  readonly startWork?: string | null;
  readonly endWork?: string | null;
  readonly farewellMessage?: string | null;
  readonly defaultTheme?: 'light' | 'dark';
  readonly defaultMenu?: 'open' | 'closed';
  /** The default connection; null for none. */
  readonly chatappId?: number | null;
  readonly allHistoric?: EnabledDisabled;
  readonly allUserChat?: EnabledDisabled;
  readonly userClosePendingTicket?: EnabledDisabled;
  readonly showDashboard?: EnabledDisabled;
  readonly allowRealTime?: EnabledDisabled;
  readonly allowConnections?: EnabledDisabled;
  readonly allowGroup?: boolean;
}

const FORM_KEYS = [
  'allTicket',
  'startWork',
  'endWork',
  'farewellMessage',
  'defaultTheme',
  'defaultMenu',
  'chatappId',
  'allHistoric',
  'allUserChat',
  'userClosePendingTicket',
  'showDashboard',
  'allowRealTime',
  'allowConnections',
  'allowGroup',
] as const satisfies ReadonlyArray<keyof UserFormFields & keyof User>;

/** Copies the given form fields onto the user. */
export function applyUserForm(user: User, form: UserFormFields): void {
  const target = user as unknown as Record<string, unknown>;
  for (const key of FORM_KEYS) if (form[key] !== undefined) target[key] = form[key];
}

/** The given form fields only (for a new user, whose other fields take their defaults). */
export function userFormValues(form: UserFormFields): Partial<User> {
  const values: Record<string, unknown> = {};
  for (const key of FORM_KEYS) if (form[key] !== undefined) values[key] = form[key];
  return values as Partial<User>;
}

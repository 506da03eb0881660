/**
 * How a channel names a person: a phone number, a WhatsApp LID (an id that hides the number), or
 * a Meta page-scoped user id (`psid`, with the page it belongs to). A contact may have several;
 * within a company each belongs to one contact, so a person never becomes two contacts.
 */
export type IdentifierKind = 'phone' | 'lid' | 'psid';
export const IDENTIFIER_KINDS: readonly IdentifierKind[] = ['phone', 'lid', 'psid'];

export interface ContactIdentifier {
  readonly kind: IdentifierKind;
  /** For `phone`, the canonical form (see `canonicalPhone`); otherwise as the channel gave it. */
  readonly value: string;
  /** The page a `psid` belongs to; null for the other kinds. */
  readonly pageId: string | null;
}

export const MAX_IDENTIFIER_VALUE = 100;
export const MAX_IDENTIFIERS_PER_CONTACT = 20;

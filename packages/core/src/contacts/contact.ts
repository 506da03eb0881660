export interface Contact {
  id: number;
  companyId: number;
  name: string;
  /** Digits only (country + area + number), or a group id. */
  number: string;
  email: string | null;
  isGroup: boolean;
  profilePicUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Its messages are still stored, but they open no ticket and reach no operator. */
  blocked: boolean;
  /** Whether the contact may send audio messages (the lineage's `acceptAudioMessage`). */
  acceptAudio: boolean;
  /** Chatbots and queue menus leave this contact alone. */
  disableBot: boolean;
  /** The operator who owns the contact (the lineage's "wallet"), a user of the same company. */
  walletUserId: number | null;
  /** The platform user this contact is (an employee writing from their own number); one contact per user. */
  linkedUserId: number | null;
  /** Free key/value notes kept on the contact, in the order the operator gave them. */
  extraInfo: ContactExtraInfo[];
}

export interface ContactExtraInfo {
  name: string;
  value: string;
}

/** The contact fields that have defaults: a new contact may leave them out. */
export type ContactSettings = Pick<Contact, 'blocked' | 'acceptAudio' | 'disableBot' | 'walletUserId' | 'linkedUserId' | 'extraInfo'>;

/** A contact to create: everything but the id, the settings optional (see `contactDefaults`). */
export type NewContact = Omit<Contact, 'id' | keyof ContactSettings> & Partial<ContactSettings>;

/** Not blocked, accepts audio, bot enabled, no owner, no linked user, no notes. */
export function contactDefaults(): ContactSettings {
  return { blocked: false, acceptAudio: true, disableBot: false, walletUserId: null, linkedUserId: null, extraInfo: [] };
}

/** The new contact with every default filled in. */
export function withContactDefaults(contact: NewContact): Omit<Contact, 'id'> {
  const d = contactDefaults();
  return {
    ...contact,
    blocked: contact.blocked ?? d.blocked,
    acceptAudio: contact.acceptAudio ?? d.acceptAudio,
    disableBot: contact.disableBot ?? d.disableBot,
    walletUserId: contact.walletUserId ?? d.walletUserId,
    linkedUserId: contact.linkedUserId ?? d.linkedUserId,
    extraInfo: contact.extraInfo ?? d.extraInfo,
  };
}

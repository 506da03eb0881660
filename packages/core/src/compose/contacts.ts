import type { Contacts } from '../contacts/ports.js';
import type { WalletAssignments } from '../contacts/wallet.js';
import { CreateContact, DeleteContact, UpdateContact } from '../contacts/change-contacts.js';
import { GetContactProfile } from '../contacts/contact-profile.js';
import { LinkContactUser, SetContactBlocked, SetContactWallet, ToggleAcceptAudio, ToggleDisableBot, UnlinkContactUser } from '../contacts/contact-settings.js';
import { ContactPresenter } from '../contacts/contact-view.js';
import { ImportAddressBook } from '../contacts/import-address-book.js';
import { ShowContactImport, StartContactImport } from '../contacts/import-contacts.js';
import { ListContactChoices, ListContacts, ListContactTags, ShowContact } from '../contacts/read-contacts.js';
import type { SharedPorts } from './shared-ports.js';

export interface ContactsPorts {
  readonly contacts: Contacts;
  /** The contacts' owners and their history (its table comes with the contact sellers, m0030). */
  readonly walletAssignments: WalletAssignments;
}

/** The use cases of the "Contacts" routes. */
export function createContacts(p: ContactsPorts & SharedPorts) {
  const { contacts, connections, users, tags, channelQueries: queries, jobs, cache, realtime, tx, clock, ids } = p;
  const presenter = new ContactPresenter({ contacts, tags, realtime });
  const changing = { contacts, presenter, clock };
  const startContactImport = new StartContactImport({ contacts, cache, jobs, realtime, tx, clock, ids });
  return {
    listContacts: new ListContacts({ contacts, tags }),
    listContactChoices: new ListContactChoices({ contacts }),
    showContact: new ShowContact({ contacts, presenter }),
    listContactTags: new ListContactTags({ contacts, tags }),
    createContact: new CreateContact({ ...changing, tx }),
    updateContact: new UpdateContact({ ...changing, tx }),
    deleteContact: new DeleteContact({ contacts, tags, presenter, tx }),
    toggleAcceptAudio: new ToggleAcceptAudio(changing),
    toggleDisableBot: new ToggleDisableBot(changing),
    setContactBlocked: new SetContactBlocked(changing),
    setContactWallet: new SetContactWallet({ ...changing, users, wallets: p.walletAssignments, tx }),
    linkContactUser: new LinkContactUser({ ...changing, users }),
    unlinkContactUser: new UnlinkContactUser({ ...changing, users }),
    getContactProfile: new GetContactProfile({ connections, contacts, queries, realtime, clock }),
    startContactImport,
    showContactImport: new ShowContactImport({ cache }),
    importAddressBook: new ImportAddressBook({ connections, queries, start: startContactImport }),
  };
}
export type ContactsApi = ReturnType<typeof createContacts>;

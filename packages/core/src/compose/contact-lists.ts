import { CheckListNumbers } from '../contact-lists/check-list-numbers.js';
import { ContactListPresenter } from '../contact-lists/contact-list-view.js';
import { ImportAnnouncer } from '../contact-lists/import-announcer.js';
import { RunContactListImport, StartContactListImport } from '../contact-lists/import-contact-list.js';
import {
  CreateContactListItem,
  DeleteContactListItem,
  ListAllContactListItems,
  ListContactListItems,
  ShowContactListItem,
  UpdateContactListItem,
} from '../contact-lists/manage-contact-list-items.js';
import {
  CreateContactList,
  DeleteContactList,
  ListAllContactLists,
  ListContactLists,
  ShowContactList,
  UpdateContactList,
} from '../contact-lists/manage-contact-lists.js';
import type { ContactListImports, ContactListItems, ContactLists, ContactListUsage } from '../contact-lists/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { SharedPorts } from './shared-ports.js';

/** The contact lists' own ports. */
export interface ContactListPorts {
  readonly contactLists: ContactLists;
  readonly contactListItems: ContactListItems;
  readonly contactListImports: ContactListImports;
  /** Which campaigns still read a list (the campaigns feature answers it): deleting such a list is refused. */
  readonly contactListUsage: ContactListUsage;
}

/** Contact lists and their items, spreadsheet imports into them, and the number check (the jobs' use cases). */
export function createContactLists(p: ContactListPorts & SharedPorts) {
  const { contactLists: lists, contactListItems: items, contactListImports: imports, contactListUsage: usage, blobs, jobQueue, realtime, tx, clock, ids } = p;
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const presenter = new ContactListPresenter({ lists, imports });
  const reads = { lists, presenter, plan };
  const writes = { ...reads, clock, realtime };
  const itemReads = { lists, items, plan };
  const itemWrites = { ...itemReads, presenter, clock, realtime };
  return {
    listContactLists: new ListContactLists(reads),
    listAllContactLists: new ListAllContactLists(reads),
    showContactList: new ShowContactList(reads),
    createContactList: new CreateContactList(writes),
    updateContactList: new UpdateContactList(writes),
    deleteContactList: new DeleteContactList({ lists, usage, plan, realtime }),
    listContactListItems: new ListContactListItems(itemReads),
    listAllContactListItems: new ListAllContactListItems(itemReads),
    showContactListItem: new ShowContactListItem(itemReads),
    createContactListItem: new CreateContactListItem(itemWrites),
    updateContactListItem: new UpdateContactListItem(itemWrites),
    deleteContactListItem: new DeleteContactListItem(itemWrites),
    startContactListImport: new StartContactListImport({ lists, imports, plan, blobs, jobQueue, tx, clock, ids }),
    runContactListImport: new RunContactListImport({
      items,
      imports,
      announcer: new ImportAnnouncer({ lists, items, presenter, realtime }),
      blobs,
      jobQueue,
      tx,
      clock,
    }),
    checkListNumbers: new CheckListNumbers({ lists, items, connections: p.connections, queries: p.channelQueries, presenter, tx, clock, realtime }),
  };
}
export type ContactListsApi = ReturnType<typeof createContactLists>;

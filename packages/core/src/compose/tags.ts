import { TicketPresenter } from '../tickets/ticket-details.js';
import { CreateTag, DeleteTag, ListAllTags, ListKanbanLanes, ListTags, ShowTag, UpdateTag } from '../tags/manage-tags.js';
import type { Tags } from '../tags/ports.js';
import { SyncTags, TagTicket, UntagContact, UntagTicket } from '../tickets/tag-links.js';
import { TicketKanban } from '../tickets/ticket-kanban.js';
import type { SharedPorts } from './shared-ports.js';

/** The ports the tag and kanban use cases need. */
export interface TagPorts {
  readonly tags: Tags;
}

/** Tags, their links to tickets and contacts, and the ticket kanban. */
export function createTags(p: TagPorts & SharedPorts) {
  const { tags, tickets, contacts, connections, users, queues, realtime, tx, clock } = p;
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags, queues });
  const links = { tags, tickets, contacts, users, presenter, tx, realtime };
  return {
    listAllTags: new ListAllTags({ tags }),
    listTags: new ListTags({ tags }),
    showTag: new ShowTag({ tags }),
    listKanbanLanes: new ListKanbanLanes({ tags }),
    createTag: new CreateTag({ tags, clock, realtime }),
    updateTag: new UpdateTag({ tags, clock, realtime }),
    deleteTag: new DeleteTag({ tags, realtime }),
    syncTags: new SyncTags(links),
    tagTicket: new TagTicket(links),
    untagTicket: new UntagTicket(links),
    untagContact: new UntagContact(links),
    ticketKanban: new TicketKanban({ tickets, users, tags, presenter }),
  };
}
export type TagsApi = ReturnType<typeof createTags>;

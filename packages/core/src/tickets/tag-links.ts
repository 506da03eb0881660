import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Ticket } from './ticket.js';
import type { Contacts } from '../contacts/ports.js';
import type { Tickets } from './ports.js';
import { visibleTicket } from './ticket-access.js';
import type { TicketDetails, TicketPresenter } from './ticket-details.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { TagEvent } from '../tags/tag-events.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { Transaction } from '../shared/ports.js';
import { findTag } from '../tags/manage-tags.js';
import type { Tags } from '../tags/ports.js';
import { MAX_TAGS_PER_SYNC, toTagSummary, type TagSummary } from '../tags/tag.js';

interface LinkDeps {
  tags: Tags;
  tickets: Tickets;
  contacts: Contacts;
  users: Users;
  presenter: TicketPresenter;
  tx: Transaction;
  realtime: RealtimeEvents<TagEvent>;
}

/** The company's contact, or 404 `ERR_NO_CONTACT_FOUND` (also for another company's). */
async function findContact(contacts: Contacts, companyId: number, contactId: number) {
  const contact = await contacts.findById(companyId, contactId);
  if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
  return contact;
}

/** Announces a ticket whose tags changed, as it is now (`ticket` event, action `update`). */
async function announceTicket(deps: LinkDeps, ticket: Ticket): Promise<TicketDetails> {
  return deps.presenter.publish((await deps.tickets.findById(ticket.companyId, ticket.id)) ?? ticket, 'update');
}

async function contactTags(tags: Tags, companyId: number, contactId: number): Promise<TagSummary[]> {
  return ((await tags.tagsOfContacts(companyId, [contactId])).get(contactId) ?? []).map(toTagSummary);
}

/** A contact's tags changed: the operators get a `tag` event, action `contact`, with the new set. */
async function announceContact(deps: LinkDeps, companyId: number, contactId: number) {
  const tags = await contactTags(deps.tags, companyId, contactId);
  await deps.realtime.publish(companyId, { entity: 'tag', data: { action: 'contact', contactId, tags } });
  return { contactId, tags };
}

export interface SyncTagsInput {
  readonly actor: Actor;
  readonly ticketId?: number;
  readonly contactId?: number;
  readonly tagIds: readonly number[];
}

/**
 * Replaces the whole tag set of one ticket or one contact in one transaction. Any operator may
 * tag a ticket they can see and any contact of their company; every tag must be the company's.
 */
export class SyncTags {
  constructor(private readonly deps: LinkDeps) {}

  async execute(input: SyncTagsInput): Promise<{ ticketId: number; tags: TagSummary[] } | { contactId: number; tags: TagSummary[] }> {
    const { tags, tx } = this.deps;
    const { actor } = input;
    if ((input.ticketId === undefined) === (input.contactId === undefined)) throw new ValidationError('ERR_TAG_SYNC_NEEDS_ONE_TARGET');
    const tagIds = [...new Set(input.tagIds)];
    if (tagIds.length > MAX_TAGS_PER_SYNC) throw new ValidationError('ERR_TOO_MANY_TAGS');
    const ticket = input.ticketId !== undefined ? await visibleTicket(this.deps, actor, input.ticketId) : null;
    const contact = ticket ? null : await findContact(this.deps.contacts, actor.companyId, input.contactId!);
    if ((await tags.findByIds(actor.companyId, tagIds)).length !== tagIds.length) throw new NotFoundError('ERR_NO_TAG_FOUND');
    if (ticket) {
      await tx.run(async () => {
        await tags.lockTicketTags(actor.companyId, ticket.id);
        await tags.setTicketTags(actor.companyId, ticket.id, tagIds);
      });
      return { ticketId: ticket.id, tags: (await announceTicket(this.deps, ticket)).tags };
    }
    await tx.run(async () => {
      await tags.lockContactTags(actor.companyId, contact!.id);
      await tags.setContactTags(actor.companyId, contact!.id, tagIds);
    });
    return announceContact(this.deps, actor.companyId, contact!.id);
  }
}

/**
 * Puts a tag on a ticket the caller can see. When the tag is a kanban lane this is a move
 * between lanes: the ticket leaves its other lanes (its plain tags stay). Either way the
 * operators get the ticket, with its tags, in a `ticket` event, action `update`.
 */
export class TagTicket {
  constructor(private readonly deps: LinkDeps) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number; readonly tagId: number }): Promise<TicketDetails> {
    const { tags, tx } = this.deps;
    const { actor } = input;
    const ticket = await visibleTicket(this.deps, actor, input.ticketId);
    const tag = await findTag(tags, actor.companyId, input.tagId);
    await tx.run(async () => {
      await tags.lockTicketTags(actor.companyId, ticket.id);
      if (tag.kanban) {
        const current = (await tags.tagsOfTickets(actor.companyId, [ticket.id])).get(ticket.id) ?? [];
        const otherLanes = current.filter((t) => t.kanban && t.id !== tag.id).map((t) => t.id);
        if (otherLanes.length) await tags.removeTicketTags(actor.companyId, ticket.id, otherLanes);
      }
      await tags.addTicketTag(actor.companyId, ticket.id, tag.id);
    });
    return announceTicket(this.deps, ticket);
  }
}

/**
 * Takes every tag off a ticket the caller can see, or only its kanban lanes with `lanesOnly`
 * (back to the untagged lane); a `ticket` event, action `update`, follows.
 */
export class UntagTicket {
  constructor(private readonly deps: LinkDeps) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number; readonly lanesOnly?: boolean }): Promise<TicketDetails> {
    const { tags, tx } = this.deps;
    const { actor } = input;
    const ticket = await visibleTicket(this.deps, actor, input.ticketId);
    await tx.run(async () => {
      await tags.lockTicketTags(actor.companyId, ticket.id);
      if (!input.lanesOnly) return tags.removeTicketTags(actor.companyId, ticket.id);
      const lanes = ((await tags.tagsOfTickets(actor.companyId, [ticket.id])).get(ticket.id) ?? []).filter((t) => t.kanban).map((t) => t.id);
      if (lanes.length) await tags.removeTicketTags(actor.companyId, ticket.id, lanes);
    });
    return announceTicket(this.deps, ticket);
  }
}

/** Takes one tag off a contact of the company; answers with the contact's remaining tags. */
export class UntagContact {
  constructor(private readonly deps: LinkDeps) {}

  async execute(input: { readonly actor: Actor; readonly tagId: number; readonly contactId: number }): Promise<{ contactId: number; tags: TagSummary[] }> {
    const { tags, tx } = this.deps;
    const { actor } = input;
    const tag = await findTag(tags, actor.companyId, input.tagId);
    const contact = await findContact(this.deps.contacts, actor.companyId, input.contactId);
    await tx.run(async () => {
      await tags.lockContactTags(actor.companyId, contact.id);
      await tags.removeContactTags(actor.companyId, contact.id, [tag.id]);
    });
    return announceContact(this.deps, actor.companyId, contact.id);
  }
}

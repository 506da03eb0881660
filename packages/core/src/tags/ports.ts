import type { Page, PageRequest } from '../shared/paging.js';
import type { NewTag, Tag } from './tag.js';

export interface TagQuery {
  readonly companyId: number;
  /** In the name, case- and accent-insensitive. */
  readonly search?: string;
  readonly kanban?: boolean;
  readonly page: PageRequest;
}

/**
 * A company's tags and their links to tickets and contacts. Every method is scoped by
 * `companyId`: tags of another company are never returned, linked or unlinked. The caller makes
 * sure the ticket or contact belongs to the company (the use cases read it first).
 */
export interface Tags {
  findById(companyId: number, id: number): Promise<Tag | null>;
  /** The tags of the company among `ids`, in id order; unknown ids are absent. */
  findByIds(companyId: number, ids: readonly number[]): Promise<Tag[]>;
  /** Compared ignoring case. */
  findByName(companyId: number, name: string): Promise<Tag | null>;
  /** Every tag of the company (only lanes or only plain tags with `kanban`), by name (folded), then id. */
  listAll(companyId: number, filter?: { readonly kanban?: boolean }): Promise<Tag[]>;
  /** The kanban lanes: tags with `kanban` set, by `laneOrder`, then id. */
  lanes(companyId: number): Promise<Tag[]>;
  /** A page of the company's tags, by name (folded), then id. */
  list(query: TagQuery): Promise<Page<Tag>>;
  /** How many tickets carry each tag; tags on no ticket are absent. */
  countTickets(companyId: number, tagIds: readonly number[]): Promise<Map<number, number>>;
  /** A second tag with the same name (ignoring case) in the company throws ConflictError `ERR_TAG_NAME_ALREADY_EXISTS`. */
  add(tag: NewTag): Promise<Tag>;
  /** Saves every field; the same name rule as `add`. */
  update(tag: Tag): Promise<void>;
  /** Removes the tag and every link of it to tickets and contacts. */
  remove(companyId: number, id: number): Promise<void>;

  /** The tags of each ticket, by name (folded), then id, in one read; tickets without tags are absent. */
  tagsOfTickets(companyId: number, ticketIds: readonly number[]): Promise<Map<number, Tag[]>>;
  /**
   * Holds the ticket's tag set until the surrounding transaction ends, so that read-then-write
   * changes of one ticket's tags happen one after the other. Call it inside `Transaction.run`.
   */
  lockTicketTags(companyId: number, ticketId: number): Promise<void>;
  /** Makes the ticket's tags exactly `tagIds` (ignoring other companies' tags). */
  setTicketTags(companyId: number, ticketId: number, tagIds: readonly number[]): Promise<void>;
  /** Links the tag to the ticket; linking it again changes nothing. */
  addTicketTag(companyId: number, ticketId: number, tagId: number): Promise<void>;
  /** Unlinks these tags (all of them when `tagIds` is omitted) from the ticket. */
  removeTicketTags(companyId: number, ticketId: number, tagIds?: readonly number[]): Promise<void>;

  /** The same operations for contacts. */
  tagsOfContacts(companyId: number, contactIds: readonly number[]): Promise<Map<number, Tag[]>>;
  lockContactTags(companyId: number, contactId: number): Promise<void>;
  setContactTags(companyId: number, contactId: number, tagIds: readonly number[]): Promise<void>;
  addContactTag(companyId: number, contactId: number, tagId: number): Promise<void>;
  removeContactTags(companyId: number, contactId: number, tagIds?: readonly number[]): Promise<void>;
}

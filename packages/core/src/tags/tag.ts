import { ValidationError } from '../shared/errors.js';

/**
 * A company's label for tickets and contacts. A tag with `kanban` set is also a lane of the
 * ticket kanban, placed by `laneOrder`; names are unique per company, ignoring case.
 */
export interface Tag {
  id: number;
  companyId: number;
  name: string;
  /** `#rrggbb`, lower case. */
  color: string;
  kanban: boolean;
  laneOrder: number;
  createdAt: Date;
  updatedAt: Date;
}

export type NewTag = Omit<Tag, 'id'>;

export interface TagView extends Omit<Tag, 'createdAt' | 'updatedAt'> {
  createdAt: string;
  updatedAt: string;
}

/** What a ticket view carries of each of its tags. */
export interface TagSummary {
  readonly id: number;
  readonly name: string;
  readonly color: string;
  readonly kanban: boolean;
}

export const MAX_TAG_NAME = 60;
export const MAX_LANE_ORDER = 100_000;
export const DEFAULT_TAG_COLOR = '#808080';
/** How many tags one sync may set on a ticket or a contact. */
export const MAX_TAGS_PER_SYNC = 100;

export function toTagView(t: Tag): TagView {
  return { ...t, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() };
}

export function toTagSummary(t: Tag): TagSummary {
  return { id: t.id, name: t.name, color: t.color, kanban: t.kanban };
}

/** Trimmed, 1 to 60 characters (422 `ERR_INVALID_TAG_NAME` otherwise). */
export function cleanTagName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_TAG_NAME) throw new ValidationError('ERR_INVALID_TAG_NAME');
  return trimmed;
}

/** `#rrggbb` in any case, stored lower case (422 `ERR_INVALID_TAG_COLOR` otherwise). */
export function cleanTagColor(color: string): string {
  const trimmed = color.trim();
  if (!/^#[0-9a-fA-F]{6}$/.test(trimmed)) throw new ValidationError('ERR_INVALID_TAG_COLOR');
  return trimmed.toLowerCase();
}

export function cleanLaneOrder(order: number): number {
  if (!Number.isInteger(order) || order < 0 || order > MAX_LANE_ORDER) throw new ValidationError('ERR_INVALID_LANE_ORDER');
  return order;
}

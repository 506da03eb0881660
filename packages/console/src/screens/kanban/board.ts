import type { Schema } from '../../api/client.js';
import { keys } from '../../realtime/apply-frame.js';

export type Ticket = Schema<'TicketDetails'>;
export type Tag = Schema<'Tag'>;
export type KanbanPage = Schema<'TicketKanban'>;

/** The board's lanes (`GET /tag/kanban`): under `tags`, so a `tag` frame (a lane added, renamed, removed) redraws the columns. */
export const LANES_KEY = [...keys.tags, 'kanban'] as const;
/** The board's pages: under `tickets`, so every ticket or tag frame (and a resync) refetches the pages shown. */
export const BOARD_KEY = [...keys.tickets, 'kanban'] as const;

/** The server's page size of `GET /ticket/kanban`: the same page of 20 of every lane. */
export const PAGE_SIZE = 20;

/** A lane of the board: `open` for the tickets in no lane, else its kanban tag's id. */
export type LaneKey = 'open' | `tag-${number}`;

export const laneKeyOf = (tagId: number | null): LaneKey => (tagId === null ? 'open' : `tag-${tagId}`);
export const tagIdOf = (key: LaneKey): number | null => (key === 'open' ? null : Number(key.slice(4)));

/** A move asked and not yet answered: the card shows in `to` until the server's answer (and the board's refetch). */
export interface Move {
  readonly ticket: Ticket;
  readonly from: LaneKey;
  readonly to: LaneKey;
  /** The target lane's tag (`null`: the open lane). */
  readonly tag: Tag | null;
}

/** The lane of one page of the board, by its tag (`null`: the open lane). */
export function laneOfPage(page: KanbanPage | undefined, key: LaneKey) {
  const tagId = tagIdOf(key);
  return page?.lanes.find((l) => (l.tag?.id ?? null) === tagId);
}

/**
 * The ticket as it will be once moved: its plain tags kept, its lanes replaced by the target's
 * (the server takes a ticket out of its other lanes when it enters one).
 */
export function movedTicket(move: Move): Ticket {
  const plain = move.ticket.tags.filter((t) => !t.kanban);
  const lane = move.tag ? [{ id: move.tag.id, name: move.tag.name, color: move.tag.color, kanban: true }] : [];
  return { ...move.ticket, tags: [...lane, ...plain] };
}

/**
 * The rows of one lane as shown: `count` places (the lane's total), each the ticket fetched for it
 * or `undefined` while its page is not loaded; then the pending moves laid over them: a ticket
 * moving elsewhere leaves this lane at once, one moving here shows first. With several moves of
 * one ticket pending, the last asked wins.
 */
export function laneRows(key: LaneKey, count: number, pages: ReadonlyMap<number, KanbanPage>, moves: readonly Move[]): Array<Ticket | undefined> {
  const rows: Array<Ticket | undefined> = Array.from({ length: count }, () => undefined);
  for (const [number, page] of pages) {
    const lane = laneOfPage(page, key);
    lane?.tickets.forEach((ticket, i) => {
      const at = (number - 1) * PAGE_SIZE + i;
      if (at < rows.length) rows[at] = ticket;
      else rows.push(ticket);
    });
  }
  const last = new Map<number, Move>();
  for (const move of moves) last.set(move.ticket.id, move);
  if (!last.size) return rows;
  const kept = rows.filter((t) => !t || !last.has(t.id) || last.get(t.id)!.to === key);
  const arriving = [...last.values()].filter((m) => m.to === key && !kept.some((t) => t?.id === m.ticket.id)).map(movedTicket);
  return [...arriving, ...kept];
}

import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { TagEvent } from './tag-events.js';
import { ConflictError, NotFoundError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock } from '../shared/ports.js';
import type { Tags } from './ports.js';
import { cleanLaneOrder, cleanTagColor, cleanTagName, DEFAULT_TAG_COLOR, MAX_LANE_ORDER, toTagView, type Tag, type TagView } from './tag.js';

export interface TagFields {
  readonly name?: string;
  readonly color?: string;
  readonly kanban?: boolean;
  readonly laneOrder?: number;
}

/** The company's tag, or 404 `ERR_NO_TAG_FOUND` (also for another company's). */
export async function findTag(tags: Tags, companyId: number, tagId: number): Promise<Tag> {
  const tag = await tags.findById(companyId, tagId);
  if (!tag) throw new NotFoundError('ERR_NO_TAG_FOUND');
  return tag;
}

async function assertFreeName(tags: Tags, companyId: number, name: string, exceptId?: number) {
  const holder = await tags.findByName(companyId, name);
  if (holder && holder.id !== exceptId) throw new ConflictError('ERR_TAG_NAME_ALREADY_EXISTS');
}

/** Every tag of the company, by name (the pickers); `kanban` narrows to lanes or to plain tags. */
export class ListAllTags {
  constructor(private readonly deps: { tags: Tags }) {}

  async execute(input: { readonly actor: Actor; readonly kanban?: boolean }): Promise<TagView[]> {
    const filter = input.kanban === undefined ? {} : { kanban: input.kanban };
    return (await this.deps.tags.listAll(input.actor.companyId, filter)).map(toTagView);
  }
}

export interface TagWithCount extends TagView {
  ticketCount: number;
}

/** A page of the company's tags found by name, each with how many tickets carry it. */
export class ListTags {
  constructor(private readonly deps: { tags: Tags }) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly kanban?: boolean; readonly pageNumber?: number }) {
    const { companyId } = input.actor;
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.tags.list({
      companyId,
      page,
      ...(input.searchParam?.trim() ? { search: input.searchParam } : {}),
      ...(input.kanban === undefined ? {} : { kanban: input.kanban }),
    });
    const counts = result.rows.length
      ? await this.deps.tags.countTickets(
          companyId,
          result.rows.map((t) => t.id),
        )
      : new Map<number, number>();
    const tags: TagWithCount[] = result.rows.map((t) => ({ ...toTagView(t), ticketCount: counts.get(t.id) ?? 0 }));
    return { tags, count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export class ShowTag {
  constructor(private readonly deps: { tags: Tags }) {}

  async execute(input: { readonly actor: Actor; readonly tagId: number }): Promise<TagView> {
    return toTagView(await findTag(this.deps.tags, input.actor.companyId, input.tagId));
  }
}

/** The kanban's lanes: the company's kanban tags in lane order. */
export class ListKanbanLanes {
  constructor(private readonly deps: { tags: Tags }) {}

  /** `lista`: the lineage kanban page's name for the lanes. */
  async execute(input: { readonly actor: Actor }): Promise<{ lista: TagView[] }> {
    return { lista: (await this.deps.tags.lanes(input.actor.companyId)).map(toTagView) };
  }
}

/**
 * Admins create tags (`tag` event, action `create`). A new lane without `laneOrder` goes after
 * the company's last lane.
 */
export class CreateTag {
  constructor(private readonly deps: { tags: Tags; clock: Clock; realtime: RealtimeEvents<TagEvent> }) {}

  async execute(input: TagFields & { readonly actor: Actor; readonly name: string }): Promise<TagView> {
    const { tags, clock, realtime } = this.deps;
    const { actor } = input;
    assertAdmin(actor);
    const name = cleanTagName(input.name);
    const color = cleanTagColor(input.color ?? DEFAULT_TAG_COLOR);
    const kanban = input.kanban ?? false;
    const laneOrder = input.laneOrder !== undefined ? cleanLaneOrder(input.laneOrder) : kanban ? await nextLane(tags, actor.companyId) : 0;
    await assertFreeName(tags, actor.companyId, name);
    const now = clock.now();
    const view = toTagView(await tags.add({ companyId: actor.companyId, name, color, kanban, laneOrder, createdAt: now, updatedAt: now }));
    await realtime.publish(actor.companyId, { entity: 'tag', data: { action: 'create', tag: view } });
    return view;
  }
}

async function nextLane(tags: Tags, companyId: number): Promise<number> {
  const lanes = await tags.lanes(companyId);
  return lanes.length ? Math.min(lanes[lanes.length - 1]!.laneOrder + 1, MAX_LANE_ORDER) : 0;
}

/** Admins rename, recolor, make or unmake a lane, and reorder lanes (`tag` event, action `update`). */
export class UpdateTag {
  constructor(private readonly deps: { tags: Tags; clock: Clock; realtime: RealtimeEvents<TagEvent> }) {}

  async execute(input: TagFields & { readonly actor: Actor; readonly tagId: number }): Promise<TagView> {
    const { tags, clock, realtime } = this.deps;
    const { actor } = input;
    assertAdmin(actor);
    const tag = await findTag(tags, actor.companyId, input.tagId);
    const next: Tag = { ...tag, updatedAt: clock.now() };
    if (input.name !== undefined) next.name = cleanTagName(input.name);
    if (input.color !== undefined) next.color = cleanTagColor(input.color);
    if (input.kanban !== undefined) next.kanban = input.kanban;
    if (input.laneOrder !== undefined) next.laneOrder = cleanLaneOrder(input.laneOrder);
    else if (next.kanban && !tag.kanban) next.laneOrder = await nextLane(tags, actor.companyId);
    if (next.name !== tag.name) await assertFreeName(tags, actor.companyId, next.name, tag.id);
    await tags.update(next);
    const view = toTagView(next);
    await realtime.publish(actor.companyId, { entity: 'tag', data: { action: 'update', tag: view } });
    return view;
  }
}

/** Admins delete a tag; it leaves every ticket and contact (`tag` event, action `delete`, with the id). */
export class DeleteTag {
  constructor(private readonly deps: { tags: Tags; realtime: RealtimeEvents<TagEvent> }) {}

  async execute(input: { readonly actor: Actor; readonly tagId: number }): Promise<void> {
    const { tags, realtime } = this.deps;
    const { actor } = input;
    assertAdmin(actor);
    const tag = await findTag(tags, actor.companyId, input.tagId);
    await tags.remove(actor.companyId, tag.id);
    await realtime.publish(actor.companyId, { entity: 'tag', data: { action: 'delete', tagId: tag.id } });
  }
}

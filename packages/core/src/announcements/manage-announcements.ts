import type { Jobs } from '../jobs/jobs.js';
import { assertSuper, isSuper, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import { safeFileName } from '../connections/connection-media.js';
import { storeUpload, type UploadedFile } from '../uploads/image-upload.js';
import {
  assertWindow,
  cleanPriority,
  cleanTargets,
  cleanText,
  cleanTitle,
  DEFAULT_ANNOUNCEMENT_PRIORITY,
  isVisibleTo,
  parseWindowEdge,
  toAnnouncementView,
  type Announcement,
  type AnnouncementView,
} from './announcement.js';
import { acceptAnnouncementMedia } from './announcement-media.js';
import { dropWindowEdges, planWindowEdges } from './announcement-window.js';
import type { AnnouncementBroadcast } from './broadcast.js';
import type { AnnouncementAudience, AnnouncementQuery, Announcements } from './ports.js';

/** What `POST` and `PUT /announcements` may set; an absent field keeps its value (on create: its default). */
export interface AnnouncementInput {
  readonly title?: string;
  readonly text?: string | null;
  readonly priority?: number;
  readonly status?: boolean;
  /** Null: every company (those created later too); else the companies named. */
  readonly targetCompanyIds?: readonly number[] | null;
  /** ISO 8601 with an offset; null or `""`: open. */
  readonly startsAt?: string | null;
  readonly endsAt?: string | null;
}

interface ReadDeps {
  announcements: Announcements;
  blobs: BlobStorage;
  clock: Clock;
}
interface WriteDeps extends ReadDeps {
  audience: AnnouncementAudience;
  broadcast: AnnouncementBroadcast;
  jobQueue: Jobs;
  tx: Transaction;
  ids: IdGenerator;
}

const mediaUrl = (blobs: BlobStorage) => (key: string) => blobs.publicUrl(key);

/** As the caller may see it: whole for a super user, its targets narrowed for anyone else. */
function viewFor(deps: ReadDeps, actor: Actor, a: Announcement): AnnouncementView {
  return toAnnouncementView(a, mediaUrl(deps.blobs), isSuper(actor) ? undefined : actor.companyId);
}

/** What the caller lists: a super user every announcement (with the filters asked), anyone else what their company reads now. */
function scopeOf(deps: ReadDeps, actor: Actor, filters: { searchParam?: string; status?: boolean; companyId?: number }): AnnouncementQuery {
  const search = filters.searchParam?.trim() ? { search: filters.searchParam.trim() } : {};
  if (!isSuper(actor)) return { ...search, visibleTo: { companyId: actor.companyId, at: deps.clock.now() } };
  return {
    ...search,
    ...(filters.status === undefined ? {} : { status: filters.status }),
    ...(filters.companyId === undefined ? {} : { targetCompanyId: filters.companyId }),
  };
}

/** The announcement the caller may read, or 404 `ERR_NO_ANNOUNCEMENT_FOUND` (also one their company does not read now). */
async function readable(deps: ReadDeps, actor: Actor, id: number): Promise<Announcement> {
  const found = await deps.announcements.findById(id);
  if (!found || (!isSuper(actor) && !isVisibleTo(found, actor.companyId, deps.clock.now()))) throw new NotFoundError('ERR_NO_ANNOUNCEMENT_FOUND');
  return found;
}

async function writable(deps: WriteDeps, actor: Actor, id: number): Promise<Announcement> {
  assertSuper(actor);
  const found = await deps.announcements.findById(id);
  if (!found) throw new NotFoundError('ERR_NO_ANNOUNCEMENT_FOUND');
  return found;
}

/** `a` with the input applied and checked; target ids must be companies (404 `ERR_NO_COMPANY_FOUND` naming the others). */
async function applyInput(deps: WriteDeps, a: Announcement, input: AnnouncementInput): Promise<Announcement> {
  const next: Announcement = { ...a };
  if (input.title !== undefined) next.title = cleanTitle(input.title);
  if (input.text !== undefined) next.text = cleanText(input.text ?? '');
  if (input.priority !== undefined) next.priority = cleanPriority(input.priority);
  if (input.status !== undefined) next.status = input.status;
  if (input.startsAt !== undefined) next.startsAt = parseWindowEdge(input.startsAt, 'startsAt');
  if (input.endsAt !== undefined) next.endsAt = parseWindowEdge(input.endsAt, 'endsAt');
  assertWindow(next.startsAt, next.endsAt);
  if (input.targetCompanyIds !== undefined) {
    const wanted = cleanTargets(input.targetCompanyIds);
    if (wanted) {
      const existing = new Set(await deps.audience.existingCompanyIds(wanted));
      const missing = wanted.filter((id) => !existing.has(id));
      if (missing.length) throw new NotFoundError('ERR_NO_COMPANY_FOUND', { targetCompanyIds: missing });
    }
    next.targetCompanyIds = wanted;
  }
  return next;
}

/** `GET /announcements`: a page (20) by priority, then newest; a super user sees every one, the others what their company reads now. */
export class ListAnnouncements {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: {
    readonly actor: Actor;
    readonly searchParam?: string;
    readonly pageNumber?: number;
    readonly status?: boolean;
    readonly companyId?: number;
  }) {
    const page = pageFromNumber(input.pageNumber);
    const { rows, count } = await this.deps.announcements.page({ ...scopeOf(this.deps, input.actor, input), page });
    return { records: rows.map((a) => viewFor(this.deps, input.actor, a)), count, hasMore: hasMore(page, count) };
  }
}

export interface AnnouncementListed extends AnnouncementView {
  readonly company: { readonly id: number; readonly name: string } | null;
}

/** `GET /announcements/list`: the same, whole (no paging), each with its author's company `{id, name}`. */
export class ListAllAnnouncements {
  constructor(private readonly deps: ReadDeps & { companies: Companies }) {}

  async execute(input: { readonly actor: Actor; readonly companyId?: number }): Promise<AnnouncementListed[]> {
    const rows = await this.deps.announcements.all(scopeOf(this.deps, input.actor, input));
    const names = new Map<number, string>();
    for (const companyId of new Set(rows.map((a) => a.companyId))) {
      const company = await this.deps.companies.findById(companyId);
      if (company) names.set(companyId, company.name);
    }
    return rows.map((a) => {
      const name = names.get(a.companyId);
      return { ...viewFor(this.deps, input.actor, a), company: name === undefined ? null : { id: a.companyId, name } };
    });
  }
}

export class ShowAnnouncement {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly announcementId: number }): Promise<AnnouncementView> {
    return viewFor(this.deps, input.actor, await readable(this.deps, input.actor, input.announcementId));
  }
}

/** `POST /announcements` (super users): every company by default, active, priority 3. */
export class CreateAnnouncement {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly announcement: AnnouncementInput }): Promise<AnnouncementView> {
    const { actor } = input;
    assertSuper(actor);
    const now = this.deps.clock.now();
    const draft = await applyInput(
      this.deps,
      {
        id: 0,
        companyId: actor.companyId,
        priority: DEFAULT_ANNOUNCEMENT_PRIORITY,
        title: '',
        text: '',
        mediaKey: null,
        mediaName: null,
        mediaType: null,
        status: true,
        targetCompanyIds: null,
        startsAt: null,
        endsAt: null,
        createdAt: now,
        updatedAt: now,
      },
      { ...input.announcement, title: input.announcement.title ?? '' },
    );
    const { id: _unset, ...fields } = draft;
    const created = await this.deps.tx.run(async () => {
      const stored = await this.deps.announcements.add(fields);
      await planWindowEdges(this.deps.jobQueue, stored, now);
      return stored;
    });
    await this.deps.broadcast.changed(null, created, now);
    return viewFor(this.deps, actor, created);
  }
}

/** Stores `next` (stamped now) with its window's jobs, in one transaction. */
async function commit(deps: WriteDeps, next: Announcement, now: Date): Promise<Announcement> {
  const after = { ...next, updatedAt: now };
  await deps.tx.run(async () => {
    await deps.announcements.update(after);
    await planWindowEdges(deps.jobQueue, after, now);
  });
  return after;
}

/** Saves `next` over `before` and tells the companies concerned. */
async function save(deps: WriteDeps, actor: Actor, before: Announcement, next: Announcement): Promise<AnnouncementView> {
  const now = deps.clock.now();
  const after = await commit(deps, next, now);
  await deps.broadcast.changed(before, after, now);
  return viewFor(deps, actor, after);
}

/** `PUT /announcements/:id` (super users): only the fields sent change. */
export class UpdateAnnouncement {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly announcementId: number; readonly announcement: AnnouncementInput }): Promise<AnnouncementView> {
    const before = await writable(this.deps, input.actor, input.announcementId);
    return save(this.deps, input.actor, before, await applyInput(this.deps, before, input.announcement));
  }
}

/** `DELETE /announcements/:id` (super users): its attachment goes too. */
export class DeleteAnnouncement {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly announcementId: number }): Promise<void> {
    const before = await writable(this.deps, input.actor, input.announcementId);
    const removed = await this.deps.tx.run(async () => {
      const gone = await this.deps.announcements.remove(before.id);
      if (gone) await dropWindowEdges(this.deps.jobQueue, before.id);
      return gone;
    });
    if (!removed) return;
    if (before.mediaKey) await this.deps.blobs.delete(before.mediaKey).catch(() => undefined);
    await this.deps.broadcast.changed(before, null, this.deps.clock.now());
  }
}

/** `POST /announcements/:id/media-upload` (super users): an image or a PDF, replacing the previous one. */
export class SetAnnouncementMedia {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly announcementId: number; readonly file: UploadedFile | undefined }): Promise<AnnouncementView> {
    const before = await writable(this.deps, input.actor, input.announcementId);
    const { contentType } = acceptAnnouncementMedia(input.file);
    const file = input.file!;
    const key = `public/announcements/${this.deps.ids.uuid()}-${safeFileName(file.filename)}`;
    await storeUpload(this.deps.blobs, key, file, contentType);
    const now = this.deps.clock.now();
    let after: Announcement;
    try {
      after = await commit(
        this.deps,
        { ...before, mediaKey: key, mediaName: file.filename.slice(0, 255) || safeFileName(file.filename), mediaType: contentType },
        now,
      );
    } catch (err) {
      await this.deps.blobs.delete(key).catch(() => undefined);
      throw err;
    }
    // Only once the row points at the new file: a failed delete leaves an orphan, never a dangling key.
    if (before.mediaKey) await this.deps.blobs.delete(before.mediaKey).catch(() => undefined);
    await this.deps.broadcast.changed(before, after, now);
    return viewFor(this.deps, input.actor, after);
  }
}

/** `DELETE /announcements/:id/media-upload` (super users): the attachment goes; harmless without one. */
export class RemoveAnnouncementMedia {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly announcementId: number }): Promise<AnnouncementView> {
    const before = await writable(this.deps, input.actor, input.announcementId);
    if (!before.mediaKey) return viewFor(this.deps, input.actor, before);
    const view = await save(this.deps, input.actor, before, { ...before, mediaKey: null, mediaName: null, mediaType: null });
    await this.deps.blobs.delete(before.mediaKey).catch(() => undefined);
    return view;
  }
}

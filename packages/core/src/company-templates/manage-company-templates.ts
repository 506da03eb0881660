import { dropBlobsAfterCommit } from '../files/manage-file-lists.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import type { UploadedFile } from '../uploads/image-upload.js';
import type { CompanyTemplateEvent } from './company-template-events.js';
import {
  cleanShortcut,
  cleanTemplateCategory,
  cleanTemplateMessage,
  NO_MEDIA,
  toTemplateView,
  type CompanyTemplate,
  type CompanyTemplateView,
  type TemplateMedia,
} from './company-template.js';
import type { CompanyTemplates } from './ports.js';
import type { TicketTemplateRenderer } from './render-template.js';
import { assertMayChangeTemplate, maySeeTemplate, readersOf, visibleTemplate } from './template-access.js';
import { storeTemplateMedia } from './template-media.js';

interface ReadDeps {
  templates: CompanyTemplates;
  blobs: BlobStorage;
}
interface WriteDeps extends ReadDeps {
  tx: Transaction;
  clock: Clock;
  ids: IdGenerator;
  realtime: RealtimeEvents<CompanyTemplateEvent>;
}

const viewOf = (deps: ReadDeps, t: CompanyTemplate) => toTemplateView(t, (key) => deps.blobs.publicUrl(key));

/** A global template is the admins' to create or make (403 `ERR_NO_PERMISSION`). */
function assertMayMakeGlobal(actor: Actor, global: boolean | undefined): void {
  if (global === true && !isAdmin(actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
}

/** Stores the file before the transaction (a slow copy holds no lock); `write` runs with it, and a failure removes it again. */
async function withStoredMedia<T>(
  deps: WriteDeps,
  companyId: number,
  file: UploadedFile | undefined,
  write: (media: TemplateMedia | null) => Promise<T>,
): Promise<T> {
  const media = file ? await storeTemplateMedia(deps, companyId, file) : null;
  try {
    return await write(media);
  } catch (err) {
    if (media?.mediaKey) await deps.blobs.delete(media.mediaKey).catch(() => undefined);
    throw err;
  }
}

/** `GET /company-templates`: a page (20) by shortcut of the templates the caller sees, `searchParam` in the shortcut or the message. */
export class ListCompanyTemplates {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    const { actor } = input;
    const page = pageFromNumber(input.pageNumber);
    const found = await this.deps.templates.page({
      companyId: actor.companyId,
      page,
      ...(isAdmin(actor) ? {} : { readerId: actor.userId }),
      ...(input.searchParam?.trim() ? { search: input.searchParam } : {}),
    });
    return { templates: found.rows.map((t) => viewOf(this.deps, t)), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/**
 * `GET /company-templates/:id`: with `ticketId`, also `rendered`, its text with the variables filled
 * for that ticket (which the caller must be able to read).
 */
export class ShowCompanyTemplate {
  constructor(private readonly deps: ReadDeps & { renderer: TicketTemplateRenderer; clock: Clock }) {}

  async execute(input: {
    readonly actor: Actor;
    readonly templateId: number;
    readonly ticketId?: number;
  }): Promise<CompanyTemplateView & { rendered?: string }> {
    const t = await visibleTemplate(this.deps.templates, input.actor, input.templateId);
    const view = viewOf(this.deps, t);
    if (input.ticketId === undefined) return view;
    return { ...view, rendered: await this.deps.renderer.render(input.actor, input.ticketId, t.message, this.deps.clock.now()) };
  }
}

export interface TemplateFields {
  readonly shortcut?: string;
  readonly message?: string;
  readonly category?: string | null;
  readonly global?: boolean;
}

function cleanFields(f: TemplateFields): Partial<Pick<CompanyTemplate, 'shortcut' | 'message' | 'category' | 'global'>> {
  return {
    ...(f.shortcut !== undefined ? { shortcut: cleanShortcut(f.shortcut) } : {}),
    ...(f.message !== undefined ? { message: cleanTemplateMessage(f.message) } : {}),
    ...(f.category !== undefined ? { category: cleanTemplateCategory(f.category) } : {}),
    ...(f.global !== undefined ? { global: f.global } : {}),
  };
}

/** Tells the template's readers; those who lose sight of it (made personal) are told it is gone first. */
async function publish(deps: WriteDeps, action: 'create' | 'update', before: CompanyTemplate | null, after: CompanyTemplate): Promise<CompanyTemplateView> {
  const record = viewOf(deps, after);
  if (before?.global && !after.global) {
    await deps.realtime.publish(after.companyId, { entity: 'companyTemplate', data: { action: 'delete', id: after.id }, readers: readersOf(before) });
  }
  await deps.realtime.publish(after.companyId, { entity: 'companyTemplate', data: { action, record }, readers: readersOf(after) });
  return record;
}

/**
 * `POST /company-templates`: a personal template of the caller, or with `global` (admins) every
 * operator's. The shortcut another template of the company has is 409 `ERR_TEMPLATE_SHORTCUT_IN_USE`.
 * Emits `companyTemplate` (`create`).
 */
export class CreateCompanyTemplate {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: TemplateFields & { readonly actor: Actor; readonly shortcut: string; readonly message: string; readonly media?: UploadedFile }) {
    const { actor } = input;
    assertMayMakeGlobal(actor, input.global);
    const fields = cleanFields(input);
    const now = this.deps.clock.now();
    const created = await withStoredMedia(this.deps, actor.companyId, input.media, (media) =>
      this.deps.templates.add({
        companyId: actor.companyId,
        shortcut: fields.shortcut!,
        message: fields.message!,
        category: fields.category ?? null,
        global: fields.global ?? false,
        userId: actor.userId,
        ...(media ?? NO_MEDIA),
        createdAt: now,
        updatedAt: now,
      }),
    );
    return publish(this.deps, 'create', null, created);
  }
}

/**
 * `PUT /company-templates/:id`: the fields given change; a `media` file replaces the template's
 * file, `removeMedia` drops it (the old file is deleted once the change commits). Admins change
 * any template, users their personal ones; only admins make one global. Made personal, a template
 * is its creator's again. Emits `companyTemplate` (`update`).
 */
export class UpdateCompanyTemplate {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: TemplateFields & { readonly actor: Actor; readonly templateId: number; readonly media?: UploadedFile; readonly removeMedia?: boolean }) {
    const { actor } = input;
    const { templates, tx, clock } = this.deps;
    assertMayChangeTemplate(actor, await visibleTemplate(templates, actor, input.templateId));
    assertMayMakeGlobal(actor, input.global);
    const fields = cleanFields(input);
    const { before, after } = await withStoredMedia(this.deps, actor.companyId, input.media, (media) =>
      tx.run(async () => {
        const now = clock.now();
        // The row is locked first: changes to one template take turns, each on the other's result.
        const current = (await templates.touch(actor.companyId, input.templateId, now)) ? await templates.findById(actor.companyId, input.templateId) : null;
        if (!current || !maySeeTemplate(actor, current)) throw new NotFoundError('ERR_NO_COMPANY_TEMPLATE_FOUND');
        assertMayChangeTemplate(actor, current);
        const next: CompanyTemplate = { ...current, ...fields, ...(media ?? (input.removeMedia ? NO_MEDIA : {})), updatedAt: now };
        await templates.update(next);
        if (current.mediaKey !== next.mediaKey) dropBlobsAfterCommit(this.deps, [current.mediaKey]);
        return { before: current, after: next };
      }),
    );
    return publish(this.deps, 'update', before, after);
  }
}

/** `DELETE /company-templates/:id`: as for changes; its file goes too. Emits `companyTemplate` (`delete`). */
export class DeleteCompanyTemplate {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly templateId: number }): Promise<void> {
    const { actor } = input;
    const { templates, tx, realtime } = this.deps;
    const removed = await tx.run(async () => {
      const t = await visibleTemplate(templates, actor, input.templateId);
      assertMayChangeTemplate(actor, t);
      if (!(await templates.remove(actor.companyId, t.id))) throw new NotFoundError('ERR_NO_COMPANY_TEMPLATE_FOUND');
      dropBlobsAfterCommit(this.deps, [t.mediaKey]);
      return t;
    });
    await realtime.publish(actor.companyId, { entity: 'companyTemplate', data: { action: 'delete', id: removed.id }, readers: readersOf(removed) });
  }
}

import type { Application } from '@servicedesk/core';
import type { AnnouncementInput } from '@servicedesk/core/announcements/manage-announcements';
import { MAX_ANNOUNCEMENT_MEDIA_BYTES } from '@servicedesk/core/announcements/announcement-media';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { announcementListSchema, announcementMediaSchema, announcementPageSchema, announcementSchema } from './announcement-schemas.js';

type AnnouncementsApp = Pick<Application, 'announcements'>;

const SUPER_ONLY: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'Only super users write announcements' };
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_ANNOUNCEMENT_FOUND'] };
const WRITE_ERRORS: RouteError[] = [
  SUPER_ONLY,
  { status: 404, codes: ['ERR_NO_COMPANY_FOUND'], description: 'A target id is not a company (`details.targetCompanyIds` lists them)' },
  {
    status: 422,
    codes: [
      'ERR_ANNOUNCEMENT_INVALID_TITLE',
      'ERR_ANNOUNCEMENT_TEXT_TOO_LONG',
      'ERR_ANNOUNCEMENT_INVALID_PRIORITY',
      'ERR_ANNOUNCEMENT_INVALID_WINDOW',
      'ERR_ANNOUNCEMENT_INVALID_TARGET',
    ],
  },
];

const windowEdge = (description: string) => z.string().max(64).nullable().meta({ description });

/**
 * What AnnouncementModal sends: `{title, text, priority, status}` on create, the whole
 * `GET /announcements/:id` answer with its edits on save (what it does not edit is dropped).
 */
const announcementBody = z
  .object({
    title: z
      .string()
      .max(10_000)
      .nullable()
      .transform((v) => v ?? '')
      .meta({ description: 'Trimmed, 1 to 255 characters; required to create (null or blank is 422)', example: 'Scheduled maintenance' }),
    text: z.string().max(100_000).nullable().meta({
      description: 'The body shown under the title, up to 10,000 characters; null: empty',
      example: 'The platform will be offline on Sunday from 02:00 to 04:00 (UTC-3).',
    }),
    priority: z
      .union([
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,2}$/)
          .transform(Number),
      ])
      .meta({ description: '1 high, 2 medium, 3 low (default 3)' }),
    status: formBoolean.meta({ description: 'Active (default true)' }),
    targetCompanyIds: z
      .array(id)
      .max(10_000)
      .nullable()
      .meta({ description: 'null: every company, those created later too (the default); else 1 to 1,000 company ids' }),
    startsAt: windowEdge('ISO 8601 with an offset: shown from then on; null or `""`: at once'),
    endsAt: windowEdge('ISO 8601 with an offset: shown until then (excluded); null or `""`: no end'),
  })
  .partial();

const ANNOUNCEMENT_EXAMPLE = {
  title: 'Scheduled maintenance',
  text: 'The platform will be offline on Sunday from 02:00 to 04:00 (UTC-3).',
  priority: 1,
  status: true,
  targetCompanyIds: null,
  startsAt: '2026-03-01T08:00:00-03:00',
  endsAt: '2026-03-08T04:00:00-03:00',
};

const input = (body: z.output<typeof announcementBody>): AnnouncementInput =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as AnnouncementInput;

/**
 * Platform announcements ("Informativos"): super users write them; every user reads the active
 * ones aimed at their company, within their window, by priority. Frames are `company-announcement`
 * (the lineage's name) on each company's namespace it concerns.
 */
export function announcementRoutes(app: AnnouncementsApp) {
  const tag = 'Contact lists, announcements, internal chats';
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/announcements/list',
      auth: 'isAuth',
      tag,
      operationId: 'listAllAnnouncements',
      summary: "Every announcement the caller may read, unpaged, with its author's company",
      query: z.object({
        companyId: id.optional().meta({ description: "Super users: only those shown to this company. Ignored for others (their company is the caller's)" }),
      }),
      description:
        'A super user gets every announcement (active or not); anyone else the active ones aimed at their company, within their window. ' +
        'By priority (1 first), then newest.',
      response: announcementListSchema,
      handler: async ({ actor, query }) => app.announcements.listAllAnnouncements.execute({ actor, companyId: query.companyId }),
    }),
    route({
      method: 'GET',
      path: '/announcements',
      auth: 'isAuth',
      tag,
      operationId: 'listAnnouncements',
      summary: "A page of the announcements the caller may read (the bell, and the super user's list page)",
      query: pagedQuery.extend({
        status: formBoolean.optional().meta({ description: 'Super users: only active (`true`) or inactive (`false`) ones' }),
        companyId: id.optional().meta({ description: 'Super users: only those shown to this company' }),
      }),
      description:
        'A page (20) by priority (1 first), then newest, found by `searchParam` in the title. A super user pages through every ' +
        'announcement (with the `status` and `companyId` filters); anyone else through the active ones aimed at their company, within their window ' +
        '(the filters are then ignored).',
      response: announcementPageSchema,
      handler: async ({ actor, query }) => app.announcements.listAnnouncements.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/announcements/:id',
      auth: 'isAuth',
      tag,
      operationId: 'showAnnouncement',
      summary: 'One announcement',
      params: byId,
      description: 'A super user reads any; anyone else only one their company is shown now (404 otherwise).',
      response: announcementSchema,
      errors: [NOT_FOUND],
      handler: async ({ actor, params }) => app.announcements.showAnnouncement.execute({ actor, announcementId: params.id }),
    }),
    route({
      method: 'POST',
      path: '/announcements',
      auth: 'isAuth',
      tag,
      operationId: 'createAnnouncement',
      summary: 'Write an announcement (super user)',
      body: announcementBody.meta({ example: ANNOUNCEMENT_EXAMPLE }),
      description:
        'Super users only. Aimed at every company unless `targetCompanyIds` names some (each must exist: 404 otherwise); active, ' +
        'priority 3 and shown at once unless told otherwise. Answers 200 (as the lineage) and emits `company-announcement` (action `create`) to ' +
        'the companies it is shown to now and to super users; a company shown it later by its window gets `update` then.',
      response: announcementSchema,
      errors: WRITE_ERRORS,
      handler: async ({ actor, body }) => app.announcements.createAnnouncement.execute({ actor, announcement: input(body) }),
    }),
    route({
      method: 'PUT',
      path: '/announcements/:id',
      auth: 'isAuth',
      tag,
      operationId: 'updateAnnouncement',
      summary: 'Edit an announcement (super user)',
      params: byId,
      body: announcementBody.meta({ example: { priority: 2, status: false, targetCompanyIds: [3, 5] } }),
      description:
        'Super users only. Only the fields sent change (the client sends the whole announcement back: read-only fields are ignored). ' +
        'Emits `company-announcement` `update` to the companies shown it, `delete` to those no longer shown it (deactivated, no longer aimed at ' +
        'them, out of its window), and `update` to super users.',
      response: announcementSchema,
      errors: [...WRITE_ERRORS, NOT_FOUND],
      handler: async ({ actor, params, body }) => app.announcements.updateAnnouncement.execute({ actor, announcementId: params.id, announcement: input(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/announcements/:id',
      auth: 'isAuth',
      tag,
      operationId: 'deleteAnnouncement',
      summary: 'Delete an announcement with its attachment (super user)',
      params: byId,
      description: 'Super users only. Emits `company-announcement` (action `delete`, with the `id`) to the companies shown it and to super users.',
      response: deletedSchema,
      errors: [SUPER_ONLY, NOT_FOUND],
      handler: async ({ actor, params }) => {
        await app.announcements.deleteAnnouncement.execute({ actor, announcementId: params.id });
        return { message: 'Announcement deleted' };
      },
    }),
    route({
      method: 'POST',
      path: '/announcements/:id/media-upload',
      auth: 'isAuth',
      tag,
      operationId: 'setAnnouncementMedia',
      summary: 'Attach an image or a PDF (field `file`, super user)',
      params: byId,
      multipart: { fileFields: ['file'], maxFileBytes: MAX_ANNOUNCEMENT_MEDIA_BYTES, maxFiles: 1 },
      body: z.object({}).meta({ description: 'No form field besides `file`; others (`typeArch`) are ignored', example: {} }),
      description:
        'Super users only. A PNG, JPEG, WebP or GIF image or a PDF, recognised by its bytes (not its name or claimed type), up to 10 MB; ' +
        "it replaces the previous one and is served publicly at `mediaPath`. The client's `typeArch` field is ignored. Emits `company-announcement` `update`.",
      response: announcementMediaSchema,
      errors: [SUPER_ONLY, NOT_FOUND, { status: 422, codes: ['ERR_NO_FILE', 'ERR_FILE_TYPE_NOT_ALLOWED'] }, { status: 413, codes: ['ERR_FILE_TOO_LARGE'] }],
      handler: async ({ actor, params, multipart }) => ({
        mensagem: 'Mensagem enviada',
        ...(await app.announcements.setAnnouncementMedia.execute({ actor, announcementId: params.id, file: multipart.files.file?.[0] })),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/announcements/:id/media-upload',
      auth: 'isAuth',
      tag,
      operationId: 'removeAnnouncementMedia',
      summary: "Remove the announcement's attachment (super user)",
      params: byId,
      description: 'Super users only; harmless without one. The file is no longer served. Emits `company-announcement` `update`.',
      response: announcementMediaSchema,
      errors: [SUPER_ONLY, NOT_FOUND],
      handler: async ({ actor, params }) => ({
        mensagem: 'Arquivo excluído',
        ...(await app.announcements.removeAnnouncementMedia.execute({ actor, announcementId: params.id })),
      }),
    }),
  ];
}

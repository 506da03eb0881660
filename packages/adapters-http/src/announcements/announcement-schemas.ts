import { z } from 'zod';

/**
 * The announcement views the API answers (packages/core/src/announcements: `AnnouncementView`),
 * under the lineage client's names, with our additions: `mediaType`, the targets and the window.
 */

const timestamp = z.iso.datetime();

const ANNOUNCEMENT_EXAMPLE = {
  id: 7,
  companyId: 1,
  priority: 1 as const,
  title: 'Manutenção programada',
  text: 'O sistema fica fora do ar domingo, das 2h às 4h.',
  mediaPath: 'https://files.example.com/public/announcements/0b6f…-aviso.png',
  mediaName: 'aviso.png',
  mediaType: 'image/png',
  status: true,
  targetCompanyIds: null,
  startsAt: '2025-11-28T12:00:00.000Z',
  endsAt: '2025-11-30T07:00:00.000Z',
  createdAt: '2025-11-27T18:00:00.000Z',
  updatedAt: '2025-11-27T18:05:00.000Z',
};

const announcementFields = {
  id: z.number().int().positive().meta({ description: 'The announcement id', example: 7 }),
  companyId: z.number().int().positive().meta({ description: "The author's company (the platform's)", example: 1 }),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)]).meta({ description: '1 high, 2 medium, 3 low: lists come in this order', example: 1 }),
  title: z.string().min(1).max(255).meta({ example: 'Manutenção programada' }),
  text: z.string().meta({ description: 'The body (plain text; line breaks kept)', example: 'O sistema fica fora do ar domingo, das 2h às 4h.' }),
  mediaPath: z.string().nullable().meta({ description: "The attachment's public URL (an image or a PDF), null without one", example: null }),
  mediaName: z.string().nullable().meta({ description: "The attachment's original file name", example: null }),
  mediaType: z.string().nullable().meta({ description: "The attachment's type, recognised from its bytes", example: null }),
  status: z.boolean().meta({ description: 'Active: shown to the companies it targets (within its window)', example: true }),
  targetCompanyIds: z.array(z.number().int().positive()).nullable().meta({
    description:
      "null: every company (those created later too); else the companies it is shown to. Someone who is not a super user sees null or their own company's id alone",
    example: null,
  }),
  startsAt: timestamp.nullable().meta({ description: 'Shown from this moment; null: at once', example: null }),
  endsAt: timestamp.nullable().meta({ description: 'Shown until this moment (excluded); null: until removed or deactivated', example: null }),
  createdAt: timestamp.meta({ example: '2025-11-27T18:00:00.000Z' }),
  updatedAt: timestamp.meta({ example: '2025-11-27T18:05:00.000Z' }),
};

export const announcementSchema = z.object(announcementFields).meta({
  id: 'Announcement',
  description: 'A platform announcement',
  example: ANNOUNCEMENT_EXAMPLE,
});

export const announcementPageSchema = z
  .object({
    records: z.array(announcementSchema),
    count: z.number().int().min(0).meta({ description: 'How many match in all', example: 1 }),
    hasMore: z.boolean().meta({ description: 'Whether a next page exists', example: false }),
  })
  .meta({
    id: 'AnnouncementPage',
    description: 'A page (20) of announcements, by priority then newest',
    example: { records: [ANNOUNCEMENT_EXAMPLE], count: 1, hasMore: false },
  });

export const announcementListSchema = z
  .array(
    z.object({
      ...announcementFields,
      company: z
        .object({ id: z.number().int().positive(), name: z.string() })
        .nullable()
        .meta({ description: "The author's company", example: { id: 1, name: 'Plataforma' } }),
    }),
  )
  .meta({
    id: 'AnnouncementList',
    description: "Every announcement the caller may read, by priority then newest, each with its author's company",
    example: [{ ...ANNOUNCEMENT_EXAMPLE, company: { id: 1, name: 'Plataforma' } }],
  });

/** `POST`/`DELETE /announcements/:id/media-upload`: the lineage's message and the announcement as it now is. */
export const announcementMediaSchema = z
  .object({
    mensagem: z.string().meta({ description: "The lineage's confirmation text", example: 'Mensagem enviada' }),
    ...announcementFields,
  })
  .meta({
    id: 'AnnouncementMedia',
    description: 'The announcement after its attachment changed',
    example: { mensagem: 'Mensagem enviada', ...ANNOUNCEMENT_EXAMPLE },
  });

import { z } from 'zod';

/** The template views as the API answers them (`CompanyTemplateView` of packages/core/src/company-templates). */

const timestamp = z.iso.datetime();

const TEMPLATE_EXAMPLE = {
  id: 12,
  companyId: 1,
  shortcut: 'boas-vindas',
  message: '{{ms}}, {{firstName}}! Sou {{userName}}, da {{name_company}}.',
  category: 'Vendas',
  global: true,
  userId: 3,
  mediaUrl: 'https://files.example.com/public/company-1/templates/0f8c1d2e-tabela.pdf',
  mediaName: 'tabela.pdf',
  mediaType: 'application/pdf',
  mediaSize: 184_320,
  createdAt: '2026-02-01T12:00:00.000Z',
  updatedAt: '2026-02-01T12:05:00.000Z',
};

export const companyTemplateSchema = z
  .object({
    id: z.number().int().positive(),
    companyId: z.number().int().positive(),
    shortcut: z
      .string()
      .min(1)
      .max(50)
      .meta({ description: 'The key typed after `/` in the composer, folded (lower case, no accents)', example: 'boas-vindas' }),
    message: z.string().meta({ description: 'The text, with `{{…}}` variables filled when sent (see docs/features/company-templates.md)' }),
    category: z.string().max(60).nullable().meta({ example: 'Vendas' }),
    global: z.boolean().meta({ description: "Every operator's (admins change it); false: its owner's and the admins'" }),
    userId: z.number().int().positive().nullable().meta({ description: 'Who created it, the owner of a personal one; null once that user is deleted' }),
    mediaUrl: z.string().nullable().meta({ description: 'Where its file is read (public, by URL); null without one' }),
    mediaName: z.string().nullable().meta({ description: "The file's original name" }),
    mediaType: z.string().nullable().meta({ description: "The file's type, recognised from its bytes" }),
    mediaSize: z.number().int().min(0).nullable().meta({ description: 'Bytes' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'CompanyTemplate', description: 'A reusable message of the ticket composer', example: TEMPLATE_EXAMPLE });

export const renderedTemplateSchema = companyTemplateSchema
  .extend({
    rendered: z.string().optional().meta({ description: 'With `ticketId`: the text with its variables filled for that ticket, the caller as `{{userName}}`' }),
  })
  .meta({
    id: 'CompanyTemplateRendered',
    description: 'A template, rendered for a ticket when one is named',
    example: { ...TEMPLATE_EXAMPLE, rendered: 'Bom dia, Carla! Sou Ana, da Loja Verde.' },
  });

export const companyTemplatePageSchema = z
  .object({
    templates: z.array(companyTemplateSchema),
    count: z.number().int().min(0).meta({ description: 'How many templates the caller sees match, in all', example: 1 }),
    hasMore: z.boolean(),
  })
  .meta({
    id: 'CompanyTemplatePage',
    description: 'A page (20) of templates by shortcut',
    example: { templates: [TEMPLATE_EXAMPLE], count: 1, hasMore: false },
  });

export const companyTemplateDeletedSchema = z
  .object({ message: z.literal('Template deleted') })
  .meta({ id: 'CompanyTemplateDeleted', description: 'The template is gone, with its file', example: { message: 'Template deleted' } });

import type { Application, ErrorCode } from '@servicedesk/core';
import { MAX_FILE_OPTION_BYTES } from '@servicedesk/core/files/file-media';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { companyTemplateDeletedSchema, companyTemplatePageSchema, companyTemplateSchema, renderedTemplateSchema } from './company-template-schemas.js';

export const COMPANY_TEMPLATES_TAG = 'Company templates';
const NOT_FOUND: RouteError = {
  status: 404,
  codes: ['ERR_NO_COMPANY_TEMPLATE_FOUND'],
  description: "Another company's template, or another user's personal one",
};
const CHANGE: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'A user changing a global template, or making one global' };
const FIELD_ERRORS: ErrorCode[] = ['ERR_INVALID_TEMPLATE_SHORTCUT', 'ERR_INVALID_TEMPLATE_MESSAGE', 'ERR_INVALID_TEMPLATE_CATEGORY'];
const MEDIA = { fileFields: ['media'], maxFileBytes: MAX_FILE_OPTION_BYTES, maxFiles: 1, maxFields: 20 } as const;
const WRITE_ERRORS: RouteError[] = [
  CHANGE,
  { status: 409, codes: ['ERR_TEMPLATE_SHORTCUT_IN_USE'] },
  { status: 413, codes: ['ERR_FILE_TOO_LARGE'] },
  { status: 422, codes: [...FIELD_ERRORS, 'ERR_NO_FILE', 'ERR_FILE_TYPE_NOT_ALLOWED'] },
];
const ACCESS = 'Every operator sees the global templates and their own; admins see and change every template, users their own personal ones.';

/** Form fields arrive as text: the usual spellings of a boolean, an empty field saying nothing. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((v): boolean | undefined => (v === '' ? undefined : v === true || v === 'true' || v === '1'));

/** The fields of a template, as JSON or as multipart form fields (with the file in `media`); `userId` or `companyId` sent are ignored. */
const templateBody = z
  .object({
    shortcut: z.string().max(200).meta({ description: 'The key typed after `/` (a leading `/` is dropped), folded: 1 to 50 letters, digits, `-` and `_`' }),
    message: z.string().max(65_536).meta({ description: 'Up to 4,096 characters, with `{{…}}` variables' }),
    category: z.string().max(1000).nullable().meta({ description: 'Up to 60 characters; empty or null: none' }),
    global: flag.meta({ description: "Every operator's (admins only); false: the caller's own" }),
  })
  .partial();

const fields = (b: z.output<typeof templateBody>) => ({
  ...(b.shortcut !== undefined ? { shortcut: b.shortcut } : {}),
  ...(b.message !== undefined ? { message: b.message } : {}),
  ...(b.category !== undefined ? { category: b.category } : {}),
  ...(b.global !== undefined ? { global: b.global } : {}),
});

type TemplatesApp = Pick<Application, 'companyTemplates'>;

/**
 * Company templates (`/company-templates`): the composer's reusable messages, global or personal,
 * with variables and an optional file. Events: `company-<id>-companyTemplate`, to those who may read the template.
 */
export function companyTemplateRoutes(app: TemplatesApp) {
  const tag = COMPANY_TEMPLATES_TAG;
  const t = app.companyTemplates;
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/company-templates',
      auth: 'isAuth',
      tag,
      summary: 'Page through the templates the caller sees',
      description: `${ACCESS} A page (20) as \`{templates, count, hasMore}\`, by shortcut; \`searchParam\` in the shortcut or the message, ignoring case and accents.`,
      query: pagedQuery,
      response: companyTemplatePageSchema,
      handler: async ({ actor, query }) => t.listCompanyTemplates.execute({ actor, searchParam: query.searchParam, pageNumber: query.pageNumber }),
    }),
    route({
      method: 'GET',
      path: '/company-templates/:id',
      auth: 'isAuth',
      tag,
      summary: 'A template, rendered for a ticket when `ticketId` is given',
      description:
        `${ACCESS} With \`ticketId\` (a ticket the caller may read: 404 \`ERR_NO_TICKET_FOUND\`, 403 otherwise), \`rendered\` is the text with its ` +
        "variables filled for that ticket, the caller as `{{userName}}`, on the company's clock.",
      params: byId,
      query: z.object({
        ticketId: id.optional().meta({ description: "A ticket the caller may read, to fill the template's variables for; absent: no `rendered`" }),
      }),
      response: renderedTemplateSchema,
      errors: [
        NOT_FOUND,
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'A ticket the caller may not read' },
      ],
      handler: async ({ actor, params, query }) =>
        t.showCompanyTemplate.execute({
          actor,
          templateId: params.id,
          ...(query.ticketId !== undefined ? { ticketId: query.ticketId } : {}),
        }),
    }),
    route({
      method: 'POST',
      path: '/company-templates',
      auth: 'isAuth',
      tag,
      summary: 'Create a template (JSON, or multipart with its file in `media`)',
      description:
        `${ACCESS} \`shortcut\` and \`message\` are required; \`global\` is for admins. A file (up to ${MAX_FILE_OPTION_BYTES / 1024 / 1024} MiB) must be ` +
        "of a type recognised from its bytes, as a file list's. Answers 200 with the template; emits `companyTemplate` `create`.",
      body: templateBody.required({ shortcut: true, message: true }).meta({
        example: { shortcut: 'boleto', message: 'Olá {{firstName}}, segue o boleto do seu pedido.', category: 'Billing', global: true },
      }),
      multipart: MEDIA,
      jsonOrMultipart: true,
      response: companyTemplateSchema,
      errors: WRITE_ERRORS,
      handler: async ({ actor, body, multipart }) =>
        t.createCompanyTemplate.execute({
          actor,
          ...fields(body),
          shortcut: body.shortcut,
          message: body.message,
          ...(multipart.files.media?.[0] ? { media: multipart.files.media[0] } : {}),
        }),
    }),
    route({
      method: 'PUT',
      path: '/company-templates/:id',
      auth: 'isAuth',
      tag,
      summary: 'Change a template (a `media` file replaces its file)',
      description:
        `${ACCESS} Only the fields sent change; a \`media\` file replaces the template's file, \`removeMedia: true\` drops it. Made personal, a ` +
        "template is its creator's again (the other operators get its `delete`). Emits `companyTemplate` `update`.",
      params: byId,
      body: templateBody
        .extend({ removeMedia: flag.optional().meta({ description: "Drops the template's file (a `media` file sent wins)" }) })
        .meta({ example: { message: 'Olá {{firstName}}, segue o boleto atualizado do seu pedido.', removeMedia: true } }),
      multipart: MEDIA,
      jsonOrMultipart: true,
      response: companyTemplateSchema,
      errors: [NOT_FOUND, ...WRITE_ERRORS],
      handler: async ({ actor, params, body, multipart }) =>
        t.updateCompanyTemplate.execute({
          actor,
          templateId: params.id,
          ...fields(body),
          ...(body.removeMedia ? { removeMedia: true } : {}),
          ...(multipart.files.media?.[0] ? { media: multipart.files.media[0] } : {}),
        }),
    }),
    route({
      method: 'DELETE',
      path: '/company-templates/:id',
      auth: 'isAuth',
      tag,
      summary: 'Delete a template with its file',
      description: `${ACCESS} Emits \`companyTemplate\` \`delete\` (\`id\`).`,
      params: byId,
      response: companyTemplateDeletedSchema,
      errors: [NOT_FOUND, { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'A user deleting a global template' }],
      handler: async ({ actor, params }) => {
        await t.deleteCompanyTemplate.execute({ actor, templateId: params.id });
        return { message: 'Template deleted' as const };
      },
    }),
  ];
}

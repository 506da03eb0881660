import { z } from 'zod';

const component = z.object({
  type: z.string().meta({ description: '`HEADER`, `BODY`, `FOOTER` or `BUTTONS`' }),
  format: z.string().optional().meta({ description: "A header's: `TEXT`, `IMAGE`, `VIDEO`, `DOCUMENT`" }),
  text: z.string().optional(),
  buttons: z.array(z.object({ type: z.string(), text: z.string().optional(), url: z.string().optional() })).optional(),
});

export const bizchatTemplateSchema = z
  .object({
    id: z.string().meta({ description: "The provider's id of the template" }),
    name: z.string(),
    language: z.string().meta({ example: 'pt_BR' }),
    status: z.string().meta({ description: '`APPROVED`, `PENDING`, `REJECTED`, `PAUSED`, `DISABLED`…; only APPROVED ones can be sent' }),
    category: z.string().meta({ description: '`MARKETING`, `UTILITY` or `AUTHENTICATION`' }),
    parameterFormat: z.enum(['POSITIONAL', 'NAMED']),
    components: z.array(component),
    variables: z.object({
      header: z.number().int().meta({ description: 'Values the header takes (its text variables, or 1: a media link)' }),
      headerFormat: z.string().nullable(),
      body: z.array(z.string()).meta({ description: "The body's variables in order (`1`, `2`… or the names of a NAMED template)" }),
      buttons: z.array(z.number().int()).meta({ description: 'Indexes of the buttons that take a value, in the order `parameters.buttons` gives them' }),
    }),
  })
  .meta({ id: 'BizchatTemplate' });

export const bizchatTemplateListSchema = z.object({
  templates: z.array(bizchatTemplateSchema),
  syncedAt: z.string().nullable().meta({ description: 'When the list was read from the provider (ISO 8601); null: never' }),
});

export const bizchatTemplateSentSchema = z.object({
  ticketId: z.number().int(),
  messageId: z.string().meta({ description: 'The stored message (pending until the provider accepts it)' }),
  body: z.string().meta({ description: 'The rendered text kept in the conversation' }),
  template: z.object({ name: z.string(), language: z.string() }),
});

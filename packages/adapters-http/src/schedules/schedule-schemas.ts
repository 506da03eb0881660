import { OCCURRENCE_STATUSES, SCHEDULE_STATUSES } from '@servicedesk/core/schedules/schedule';
import { z } from 'zod';

/**
 * The schedule views the API answers (packages/core/src/schedules/schedule-view.ts): contact
 * schedules under the lineage client's names except its brand words (`chatappId`, `chatapp`), and
 * scheduled messages under the lineage's snake_case names, each with our additions (`repeatUntil`,
 * `lastError`, the occurrences on a single read).
 */

const timestamp = z.iso.datetime();
const refId = (description: string, example: number | null) => z.number().int().positive().nullable().meta({ description, example });
const count = (description: string, example: number) => z.number().int().min(0).meta({ description, example });
const namedRef = z.object({ id: z.number().int().positive(), name: z.string() });

const common = {
  id: z.number().int().positive().meta({ description: 'The schedule id', example: 31 }),
  companyId: z.number().int().positive().meta({ example: 1 }),
  status: z.enum(SCHEDULE_STATUSES).meta({
    description:
      '`PENDENTE` while an occurrence waits; once the series ended, `ENVIADA` (its last occurrence was sent), `ERRO` (failed: see `lastError`) or `PERDIDA` (missed)',
    example: 'PENDENTE',
  }),
  sentAt: timestamp.nullable().meta({ description: 'When the last send happened', example: null }),
  contadorEnvio: count('Occurrences sent so far', 0),
  repeatUntil: timestamp.nullable().meta({ description: 'Ours: no send after this moment (null: no end date)', example: null }),
  lastError: z.string().nullable().meta({ description: 'Ours: why the last occurrence failed (an error code)', example: null }),
  mediaPath: z.string().nullable().meta({ description: "The attachment's file key (served at `/<mediaPath>`), null without one", example: null }),
  mediaName: z.string().nullable().meta({ description: "The attachment's original file name", example: null }),
  createdAt: timestamp.meta({ example: '2026-03-02T12:00:00.000Z' }),
  updatedAt: timestamp.meta({ example: '2026-03-02T12:00:00.000Z' }),
};

export const occurrenceSchema = z
  .object({
    id: z.number().int().positive(),
    sequence: z.number().int().positive().meta({ description: 'Its position in the series (1 is the first moment)' }),
    dueAt: timestamp.meta({ description: 'Its moment' }),
    status: z.enum(OCCURRENCE_STATUSES).meta({
      description: '`pending`, `sending` (a scheduled message working through its recipients), `sent`, `failed` (see `failureReason`) or `missed`',
    }),
    recipients: count('Its recipients', 1),
    sent: count('Recipients it was sent to', 1),
    failed: count('Recipients it failed for', 0),
    failureReason: z.string().nullable().meta({ description: 'Why it failed (an error code: `ERR_SESSION_NOT_CONNECTED`, `ERR_NO_DEFAULT_CONNECTION`…)' }),
    settledAt: timestamp.nullable(),
  })
  .meta({
    id: 'ScheduleOccurrence',
    description: "One moment of a schedule's series and what happened to it",
    example: {
      id: 7,
      sequence: 1,
      dueAt: '2026-03-05T12:00:00.000Z',
      status: 'sent',
      recipients: 1,
      sent: 1,
      failed: 0,
      failureReason: null,
      settledAt: '2026-03-05T12:00:01.000Z',
    },
  });

const SCHEDULE_EXAMPLE = {
  id: 31,
  companyId: 1,
  body: 'Olá {{firstName}}, lembrete da sua consulta amanhã.',
  sendAt: '2026-03-05T12:00:00.000Z',
  sentAt: null,
  status: 'PENDENTE' as const,
  contactId: 12,
  ticketId: null,
  userId: 4,
  ticketUserId: null,
  queueId: null,
  chatappId: 2,
  statusTicket: 'closed' as const,
  openTicket: 'disabled' as const,
  mediaPath: null,
  mediaName: null,
  intervalo: 2,
  valorIntervalo: 1,
  enviarQuantasVezes: 4,
  tipoDias: 4,
  contadorEnvio: 0,
  assinar: false,
  repeatUntil: null,
  lastError: null,
  createdAt: '2026-03-02T12:00:00.000Z',
  updatedAt: '2026-03-02T12:00:00.000Z',
  contact: { id: 12, name: 'Maria Souza', number: '5511988887777', urlPicture: '' },
  user: { id: 4, name: 'Ana Lima' },
  ticketUser: null,
  chatapp: { id: 2, name: 'Vendas', channel: 'chatapp' },
  queue: null,
};

const scheduleFields = {
  ...common,
  body: z.string().meta({
    description: 'The text; `{{firstName}}`, `{{name}}`, `{{userName}}`, `{{ms}}`, `{{date}}`, `{{hour}}`, `{{protocol}}`… are filled in at the send',
  }),
  sendAt: timestamp.meta({ description: 'The moment of the waiting occurrence (of the last one once the series ended)', example: '2026-03-05T12:00:00.000Z' }),
  contactId: refId('The contact it goes to', 12),
  ticketId: refId('The ticket of the last send', null),
  userId: refId('Who created it', 4),
  ticketUserId: refId("With `openTicket`: the ticket's user", null),
  queueId: refId("With `openTicket`: the ticket's queue", null),
  chatappId: refId("The sending connection; null: the company's default one at the send", 2),
  statusTicket: z.enum(['open', 'pending', 'closed']).meta({ description: 'With `openTicket`: the status of a ticket it opens', example: 'closed' }),
  openTicket: z.enum(['enabled', 'disabled']).meta({
    description:
      "`enabled`: the message goes through the contact's active ticket or a new one with `statusTicket`, `ticketUserId` and `queueId`; " +
      '`disabled`: through the active ticket or the latest closed one',
    example: 'disabled',
  }),
  intervalo: z
    .number()
    .int()
    .meta({ description: 'Unit of the recurrence: 1 days, 2 weeks, 3 months, 4 minutes, 5 business days (Monday to Friday)', example: 2 }),
  valorIntervalo: z.number().int().min(0).meta({ description: 'Every how many units; 0: sent once', example: 1 }),
  enviarQuantasVezes: z.number().int().min(0).meta({ description: 'Sends in all; 0: no limit', example: 4 }),
  tipoDias: z.number().int().meta({ description: 'A moment on a weekend: 4 sent then, 5 moved to the Friday before, 6 to the Monday after', example: 4 }),
  assinar: z.boolean().meta({ description: 'Prefix the text with `*<creator>:*`', example: false }),
  contact: z.object({ id: z.number().int().positive(), name: z.string(), number: z.string(), urlPicture: z.string() }).nullable(),
  user: namedRef.nullable(),
  ticketUser: namedRef.nullable(),
  chatapp: z.object({ id: z.number().int().positive(), name: z.string(), channel: z.string() }).nullable(),
  queue: namedRef.nullable(),
};

/** `ScheduleView`: a contact schedule with the names of what it points at (as lists and `schedule` frames show it). */
export const scheduleSchema = z.object(scheduleFields).meta({
  id: 'Schedule',
  description: 'A message scheduled to one contact, with its contact, creator, ticket user, connection and queue',
  example: SCHEDULE_EXAMPLE,
});

export const scheduleWithOccurrencesSchema = z.object({ ...scheduleFields, occurrences: z.array(occurrenceSchema) }).meta({
  id: 'ScheduleWithOccurrences',
  description: 'A schedule with its latest 20 occurrences, latest first',
  example: { ...SCHEDULE_EXAMPLE, occurrences: [] },
});

export const schedulePageSchema = z
  .object({
    schedules: z.array(scheduleSchema),
    count: count('How many schedules match in all', 1),
    hasMore: z.boolean().meta({ example: false }),
  })
  .meta({ id: 'SchedulePage', description: 'A page (20) of schedules, newest first', example: { schedules: [SCHEDULE_EXAMPLE], count: 1, hasMore: false } });

export const scheduleMediaSchema = z.object({ mensagem: z.string(), ...scheduleFields }).meta({
  id: 'ScheduleMediaAnswer',
  description: "The lineage's confirmation, with the schedule as it is now",
  example: { mensagem: 'Arquivo Anexado', ...SCHEDULE_EXAMPLE },
});

const MESSAGE_EXAMPLE = {
  id: 40,
  companyId: 1,
  nome: 'Aviso de feriado',
  mensagem: 'Olá {{firstName}}, não abriremos na segunda.',
  data_mensagem_programada: '2026-04-17T12:00:00.000Z',
  id_conexao: 2,
  intervalo: 1,
  valor_intervalo: 0,
  enviar_quantas_vezes: 1,
  tipo_dias_envio: 4,
  mostrar_usuario_mensagem: false,
  criar_ticket: false,
  contatos: [12, 13],
  tags: [5],
  usuario_envio: null,
  tipo_arquivo: null,
  status: 'PENDENTE' as const,
  sentAt: null,
  contadorEnvio: 0,
  repeatUntil: null,
  lastError: null,
  mediaPath: null,
  mediaName: null,
  createdAt: '2026-03-02T12:00:00.000Z',
  updatedAt: '2026-03-02T12:00:00.000Z',
};

const scheduledMessageFields = {
  ...common,
  nome: z.string().meta({ description: 'Its name' }),
  mensagem: z.string().meta({ description: 'The text (the same `{{…}}` variables as a schedule)' }),
  data_mensagem_programada: timestamp.meta({ description: 'The moment of the waiting occurrence (of the last one once the series ended)' }),
  id_conexao: refId("The sending connection; null: the company's default one", 2),
  intervalo: z.number().int().meta({ description: 'Unit of the recurrence: 1 days, 2 weeks, 3 months, 4 minutes, 5 business days' }),
  valor_intervalo: z.number().int().min(0).meta({ description: 'Every how many units; 0: sent once' }),
  enviar_quantas_vezes: z.number().int().min(0).meta({ description: 'Sends in all; 0: no limit' }),
  tipo_dias_envio: z.number().int().meta({ description: 'A moment on a weekend: 4 sent then, 5 the Friday before, 6 the Monday after' }),
  mostrar_usuario_mensagem: z.boolean().meta({ description: 'Prefix the text with `*<usuario_envio>:*`' }),
  criar_ticket: z.boolean().meta({ description: 'Each message goes through a ticket opened for `usuario_envio` (pending without one)' }),
  contatos: z.array(z.number().int().positive()).meta({ description: 'Chosen contacts' }),
  tags: z.array(z.number().int().positive()).meta({ description: 'Chosen tags: every contact carrying one when it fires' }),
  usuario_envio: refId('The user shown as the sender', null),
  tipo_arquivo: z.string().nullable().meta({ description: "The attachment's media type" }),
};

export const scheduledMessageSchema = z.object(scheduledMessageFields).meta({
  id: 'ScheduledMessage',
  description: 'A message scheduled to chosen contacts and tags',
  example: MESSAGE_EXAMPLE,
});

export const scheduledMessageWithOccurrencesSchema = z.object({ ...scheduledMessageFields, occurrences: z.array(occurrenceSchema) }).meta({
  id: 'ScheduledMessageWithOccurrences',
  description: 'A scheduled message with its latest 20 occurrences (their counts of recipients sent and failed)',
  example: { ...MESSAGE_EXAMPLE, occurrences: [] },
});

export const scheduledMessagePageSchema = z
  .object({
    schedules: z.array(scheduledMessageSchema),
    count: count('How many match in all', 1),
    hasMore: z.boolean(),
  })
  .meta({
    id: 'ScheduledMessagePage',
    description: 'A page (20) of scheduled messages, newest first',
    example: { schedules: [MESSAGE_EXAMPLE], count: 1, hasMore: false },
  });

import type { Application, ErrorCode } from '@servicedesk/core';
import { MAX_SCHEDULE_MEDIA_BYTES } from '@servicedesk/core/schedules/schedule-book';
import type { RecurrenceInput, ScheduleInput } from '@servicedesk/core/schedules/schedule-input';
import { SCHEDULE_STATUSES } from '@servicedesk/core/schedules/schedule';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import {
  scheduledMessagePageSchema,
  scheduledMessageSchema,
  scheduledMessageWithOccurrencesSchema,
  scheduleMediaSchema,
  schedulePageSchema,
  scheduleSchema,
  scheduleWithOccurrencesSchema,
} from './schedule-schemas.js';

type SchedulesApp = Pick<Application, 'schedules'>;

const TAG = 'Dashboard, statistics, schedules, transcription';
const ACCESS = 'Any operator of a company whose plan has schedules reads and creates them; admins change any, users the ones they created.';
const PLAN: RouteError = { status: 403, codes: ['ERR_PLAN_FEATURE_DISABLED'], description: "The company's plan has no schedules" };
const CHANGE: RouteError = {
  status: 403,
  codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'],
  description: "A user changing someone else's schedule, or a plan without schedules",
};
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_SCHEDULE_FOUND'] };
const INPUT_CODES: ErrorCode[] = [
  'ERR_SCHEDULE_INVALID_BODY',
  'ERR_SCHEDULE_INVALID_TIME',
  'ERR_SCHEDULE_IN_PAST',
  'ERR_SCHEDULE_INVALID_RECURRENCE',
  'ERR_SCHEDULE_NO_RECIPIENTS',
];
const REFERENCES: RouteError = {
  status: 404,
  codes: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_NO_USER_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_TAG_FOUND'],
  description: "A referenced id is not one of the company's",
};
const SENDING: RouteError = { status: 409, codes: ['ERR_SCHEDULE_SENDING'], description: 'A scheduled message is being sent: its time cannot move now' };
const WHEN = "ISO 8601 with an offset, or `YYYY-MM-DD HH:mm[:ss]` / `YYYY-MM-DDTHH:mm` on the company's clock (setting `timezone`, default America/Sao_Paulo)";

const intId = z.number().int().positive().max(2_147_483_647);
const numericId = z
  .string()
  .trim()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(intId);
/** Form spellings of "none": an empty select (`""`, `[]`), a cleared field (`"undefined"`, `"null"`, `0`, `"0"`), null. */
const NONE = new Set(['', 'undefined', 'null', '0']);
const reference = z
  .union([intId, numericId, z.null(), z.literal(0), z.string().refine((v) => NONE.has(v.trim()), 'an id'), z.array(z.unknown()).max(0)])
  .transform((v): number | null => (typeof v === 'number' && v > 0 ? v : null));
/** A whole number as a number or a form's text; an empty field says nothing. */
const whole = z
  .union([
    z.number().int().min(0).max(1_000_000),
    z
      .string()
      .trim()
      .regex(/^\d{0,7}$/),
  ])
  .transform((v): number | undefined => (typeof v === 'number' ? v : v === '' ? undefined : Number(v)));
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((v): boolean | undefined => (v === '' ? undefined : v === true || v === 'true' || v === '1'));
/** Ids as an array, or as the lineage form's comma-separated text. */
const idList = z.union([z.array(z.union([intId, numericId])).max(1000), z.string().max(20_000)]).transform((v, ctx): number[] => {
  if (Array.isArray(v)) return v;
  const parts = v
    .split(',')
    .map((p) => p.trim())
    .filter((p) => !NONE.has(p));
  const ids = parts.map(Number);
  if (parts.some((p) => !/^\d{1,10}$/.test(p)) || ids.some((n) => n > 2_147_483_647)) {
    ctx.addIssue({ code: 'custom', message: 'ids, as an array or separated by commas' });
    return z.NEVER;
  }
  return ids;
});
const moment = z.string().max(64);
const INTERVAL = '1 days, 2 weeks, 3 months, 4 minutes, 5 business days (Monday to Friday)';
const EVERY = 'Every how many units, 0 to 1,000; 0 sends once';
const COUNT = 'Sends in all, up to 10,000; 0: no limit';
const WEEKEND = 'A moment on a weekend: 4 sent then, 5 moved to the Friday before, 6 to the Monday after';
const untilField = z
  .string()
  .max(64)
  .nullable()
  .meta({ description: `Ours: no send after this moment (${WHEN}); null or \`""\`: no end` });

/** What ScheduleModal sends (the whole `GET /schedules/:id` answer back on an edit: what it does not edit is dropped). */
const scheduleBody = z
  .object({
    body: z
      .string()
      .max(65_536)
      .meta({ description: 'The text (1 to 4,096 characters); `{{firstName}}`, `{{name}}`, `{{userName}}`… are filled in at the send' }),
    sendAt: moment.meta({ description: `The first moment: ${WHEN}` }),
    contactId: reference.meta({ description: "One of the company's contacts" }),
    chatappId: reference.meta({ description: 'The sending connection; none (`[]`, `""`, null): the company\'s default one at the send' }),
    ticketUserId: reference.meta({
      description: 'With `openTicket`: the user of the company a ticket the send opens is assigned to; none (`""`, `[]`, null, 0): unassigned',
    }),
    queueId: reference.meta({ description: "With `openTicket`: the company's queue a ticket the send opens goes to; none: no queue" }),
    openTicket: z.union([z.enum(['enabled', 'disabled']), z.boolean(), z.literal(''), z.null()]).meta({
      description:
        '`enabled` or true: without an active ticket the send opens one with `statusTicket`, `ticketUserId` and `queueId`; `disabled` or false ' +
        '(the default): the message goes on the contact\'s active or latest closed ticket, or a new closed one; `""` or null: as absent',
    }),
    statusTicket: z.union([z.enum(['open', 'pending', 'closed']), z.literal(''), z.null()]).meta({
      description: 'With `openTicket`: the status of a ticket the send opens (`closed`, the default, leaves it closed); `""` or null: as absent',
    }),
    assinar: z.union([flag, z.null()]).meta({
      description: 'true (or `"true"`, `"1"`): the text goes out under `*<name>:*`, the name of the user who created the schedule; default false',
    }),
    intervalo: whole.meta({ description: INTERVAL }),
    valorIntervalo: whole.meta({ description: EVERY }),
    enviarQuantasVezes: whole.meta({ description: COUNT }),
    tipoDias: whole.meta({ description: WEEKEND }),
    repeatUntil: untilField,
  })
  .partial();

function recurrenceOf(r: { interval?: number; every?: number; count?: number; weekend?: number; until?: string | null }): RecurrenceInput | undefined {
  const given = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
  return Object.keys(given).length ? (given as RecurrenceInput) : undefined;
}

const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function scheduleInput(b: z.output<typeof scheduleBody>): ScheduleInput {
  const recurrence = recurrenceOf({ interval: b.intervalo, every: b.valorIntervalo, count: b.enviarQuantasVezes, weekend: b.tipoDias, until: b.repeatUntil });
  return defined({
    body: b.body,
    sendAt: b.sendAt,
    contactId: b.contactId ?? undefined,
    connectionId: b.chatappId,
    ticketUserId: b.ticketUserId,
    queueId: b.queueId,
    openTicket: b.openTicket === '' || b.openTicket === null || b.openTicket === undefined ? undefined : b.openTicket === true || b.openTicket === 'enabled',
    statusTicket: b.statusTicket || undefined,
    sign: b.assinar ?? undefined,
    recurrence,
  });
}

/** What MessageModal sends, as multipart form fields (every value text) or as JSON. */
const messageBody = z
  .object({
    nome: z.string().max(1000).meta({ description: 'Its name (1 to 255 characters)' }),
    mensagem: z.string().max(65_536).meta({ description: 'The text (1 to 4,096 characters)' }),
    data_mensagem_programada: moment.meta({ description: `The first moment: ${WHEN}` }),
    id_conexao: reference.meta({ description: "The sending connection; none: the company's default one" }),
    intervalo: whole.meta({ description: INTERVAL }),
    valor_intervalo: whole.meta({ description: EVERY }),
    enviar_quantas_vezes: whole.meta({ description: COUNT }),
    tipo_dias_envio: whole.meta({ description: WEEKEND }),
    mostrar_usuario_mensagem: flag.meta({
      description: 'true (or `"true"`, `"1"`): the text goes out under `*<name>:*`, the name of `usuario_envio` (else of the creator); default false',
    }),
    criar_ticket: flag.meta({
      description:
        'true (or `"true"`, `"1"`): without an active ticket a send opens one, `open` and assigned to `usuario_envio` when the message is signed, else `pending`; ' +
        "false (the default): the message goes on the contact's active or latest closed ticket, or a new closed one",
    }),
    contatos: idList.meta({ description: 'Contact ids (array, or text separated by commas)' }),
    tags: idList.meta({ description: 'Tag ids: every contact carrying one when it fires' }),
    usuario_envio: reference.meta({ description: 'The user shown as the sender (with `mostrar_usuario_mensagem`)' }),
    repeatUntil: untilField,
  })
  .partial();

function messageInput(b: z.output<typeof messageBody>): ScheduleInput {
  const recurrence = recurrenceOf({
    interval: b.intervalo,
    every: b.valor_intervalo,
    count: b.enviar_quantas_vezes,
    weekend: b.tipo_dias_envio,
    until: b.repeatUntil,
  });
  return defined({
    name: b.nome,
    body: b.mensagem,
    sendAt: b.data_mensagem_programada,
    connectionId: b.id_conexao,
    sign: b.mostrar_usuario_mensagem,
    openTicket: b.criar_ticket,
    contactIds: b.contatos,
    tagIds: b.tags,
    signUserId: b.usuario_envio,
    recurrence,
  });
}

const FILE = { fileFields: ['file'], maxFileBytes: MAX_SCHEDULE_MEDIA_BYTES, maxFiles: 1 } as const;
const FILE_ERRORS: RouteError[] = [
  { status: 413, codes: ['ERR_FILE_TOO_LARGE'] },
  { status: 422, codes: ['ERR_EMPTY_FILE'] },
];

/**
 * Schedules (`/schedules`: one message to one contact, optional recurrence) and scheduled messages
 * (`/schedules-message`: to chosen contacts and tags). Both are sent by the job runner at their
 * moment (see docs/features/schedules.md); every route checks the plan (`useSchedules`).
 */
export function scheduleRoutes(app: SchedulesApp) {
  const feature = 'schedules' as const;
  const tag = TAG;
  const byScheduleId = idParam('scheduleId');
  const byId = idParam('id');
  const s = app.schedules;
  return [
    route({
      method: 'GET',
      path: '/schedules',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'listSchedules',
      summary: "Page through the company's schedules",
      query: pagedQuery.extend({
        contactId: id.optional().meta({ description: "Only this contact's" }),
        userId: id.optional().meta({ description: 'Only those this user created' }),
        status: z.enum(SCHEDULE_STATUSES).optional().meta({ description: 'Only those in this status (`PENDENTE` hides the ones done)' }),
      }),
      description: `${ACCESS} A page (20), newest first, found by \`searchParam\` in the text or the contact's name.`,
      response: schedulePageSchema,
      errors: [PLAN],
      handler: async ({ actor, query }) => s.listSchedules.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/schedules/:scheduleId',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'showSchedule',
      summary: 'A schedule with its latest occurrences',
      params: byScheduleId,
      description: `${ACCESS} With \`occurrences\`: its latest 20, each with its status and, when it failed, the reason.`,
      response: scheduleWithOccurrencesSchema,
      errors: [PLAN, NOT_FOUND],
      handler: async ({ actor, params }) => s.showSchedule.execute({ actor, scheduleId: params.scheduleId }),
    }),
    route({
      method: 'POST',
      path: '/schedules',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'createSchedule',
      summary: 'Schedule a message to a contact, once or on a recurrence',
      body: scheduleBody.meta({
        example: {
          body: 'Olá {{firstName}}, lembrete: sua consulta é amanhã às 10h.',
          sendAt: '2026-03-02 09:00',
          contactId: 42,
          chatappId: 2,
          openTicket: 'disabled',
          assinar: true,
          intervalo: 2,
          valorIntervalo: 1,
          enviarQuantasVezes: 4,
          tipoDias: 4,
        },
      }),
      description:
        `${ACCESS} \`body\`, \`sendAt\` and \`contactId\` are required; a time more than 5 minutes past is 422, one just past is sent at once. ` +
        "Every id must be one of the company's (404). Answers 200 (as the lineage) and emits `schedule` (action `create`).",
      response: scheduleSchema,
      errors: [PLAN, REFERENCES, { status: 422, codes: [...INPUT_CODES, 'ERR_SCHEDULE_INVALID_NAME', 'ERR_SCHEDULE_TOO_MANY_RECIPIENTS'] }],
      handler: async ({ actor, body }) => s.createSchedule.execute({ actor, schedule: scheduleInput(body) }),
    }),
    route({
      method: 'PUT',
      path: '/schedules/:scheduleId',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'updateSchedule',
      summary: 'Edit a schedule',
      params: byScheduleId,
      body: scheduleBody.meta({ example: { sendAt: '2026-03-09 09:00', body: 'Olá {{firstName}}, lembrete: sua consulta é amanhã às 11h.' } }),
      description:
        `${ACCESS} Only the fields sent change. A new \`sendAt\` moves the waiting occurrence; on a schedule whose series ended it starts a new one. ` +
        'The same time sent back (to the minute) moves nothing. Emits `schedule` (action `update`).',
      response: scheduleSchema,
      errors: [
        CHANGE,
        NOT_FOUND,
        REFERENCES,
        SENDING,
        { status: 422, codes: [...INPUT_CODES, 'ERR_SCHEDULE_INVALID_NAME', 'ERR_SCHEDULE_TOO_MANY_RECIPIENTS'] },
      ],
      handler: async ({ actor, params, body }) => s.updateSchedule.execute({ actor, scheduleId: params.scheduleId, schedule: scheduleInput(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/schedules/:scheduleId',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'deleteSchedule',
      summary: 'Delete a schedule; nothing more of it is sent',
      params: byScheduleId,
      description: `${ACCESS} Its occurrences and attachment go with it. Emits \`schedule\` (action \`delete\`, with \`scheduleId\`).`,
      response: deletedSchema,
      errors: [CHANGE, NOT_FOUND],
      handler: async ({ actor, params }) => {
        await s.deleteSchedule.execute({ actor, scheduleId: params.scheduleId });
        return { message: 'Schedule deleted' };
      },
    }),
    route({
      method: 'POST',
      path: '/schedules/:id/media-upload',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'setScheduleMedia',
      summary: 'Attach the file later sends carry (field `file`)',
      params: byId,
      multipart: FILE,
      body: z.object({}).meta({ description: 'No form field besides `file`; others are ignored', example: {} }),
      description: `${ACCESS} Replaces an earlier file; the text goes as its caption. Emits \`schedule\` (action \`update\`).`,
      response: scheduleMediaSchema,
      errors: [CHANGE, NOT_FOUND, ...FILE_ERRORS, { status: 422, codes: ['ERR_NO_FILE'] }],
      handler: async ({ actor, params, multipart }) => ({
        mensagem: 'Arquivo Anexado',
        ...(await s.setScheduleMedia.execute({ actor, scheduleId: params.id, file: multipart.files.file?.[0] })),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/schedules/:id/media-upload',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'removeScheduleMedia',
      summary: "Remove a schedule's attachment",
      params: byId,
      description: `${ACCESS} Harmless without one. Emits \`schedule\` (action \`update\`).`,
      response: scheduleMediaSchema,
      errors: [CHANGE, NOT_FOUND],
      handler: async ({ actor, params }) => ({ mensagem: 'Arquivo Excluído', ...(await s.removeScheduleMedia.execute({ actor, scheduleId: params.id })) }),
    }),
    route({
      method: 'GET',
      path: '/schedules-message',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'listScheduledMessages',
      summary: 'Page through the scheduled messages',
      query: pagedQuery,
      description: `${ACCESS} A page (20), newest first, found by \`searchParam\` in the name or the text.`,
      response: scheduledMessagePageSchema,
      errors: [PLAN],
      handler: async ({ actor, query }) => s.listScheduledMessages.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/schedules-message/:scheduleId',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'showScheduledMessage',
      summary: 'A scheduled message with its latest occurrences',
      params: byScheduleId,
      description: `${ACCESS} With \`occurrences\`: its latest 20, each with how many recipients it was sent to and failed for.`,
      response: scheduledMessageWithOccurrencesSchema,
      errors: [PLAN, NOT_FOUND],
      handler: async ({ actor, params }) => s.showScheduledMessage.execute({ actor, scheduleId: params.scheduleId }),
    }),
    route({
      method: 'POST',
      path: '/schedules-message',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'createScheduledMessage',
      summary: 'Schedule a message to chosen contacts and tags (multipart with an optional `file`, or JSON)',
      body: messageBody.meta({
        example: {
          nome: 'Promoção de março',
          mensagem: 'Olá {{firstName}}, nossa promoção de março começou!',
          data_mensagem_programada: '2026-03-02 09:00',
          id_conexao: '2',
          intervalo: '3',
          valor_intervalo: '1',
          enviar_quantas_vezes: '3',
          tipo_dias_envio: '6',
          mostrar_usuario_mensagem: 'true',
          criar_ticket: 'false',
          contatos: '42,57',
          tags: '7',
          usuario_envio: '5',
        },
      }),
      multipart: FILE,
      jsonOrMultipart: true,
      description:
        `${ACCESS} \`nome\`, \`mensagem\`, \`data_mensagem_programada\` and at least one contact or tag are required. When it fires, its ` +
        'recipients are the chosen contacts and every contact carrying a chosen tag then, each once (blocked ones left out), sent one after the other ' +
        '(`SCHEDULED_MESSAGES_GAP_MS` apart). Answers 200.',
      response: scheduledMessageSchema,
      errors: [PLAN, REFERENCES, ...FILE_ERRORS, { status: 422, codes: [...INPUT_CODES, 'ERR_SCHEDULE_INVALID_NAME', 'ERR_SCHEDULE_TOO_MANY_RECIPIENTS'] }],
      handler: async ({ actor, body, multipart }) =>
        s.createScheduledMessage.execute({
          actor,
          message: messageInput(body),
          ...(multipart.files.file?.[0] ? { file: multipart.files.file[0] } : {}),
        }),
    }),
    route({
      method: 'PUT',
      path: '/schedules-message/:scheduleId',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'updateScheduledMessage',
      summary: 'Edit a scheduled message (a `file` replaces its attachment)',
      params: byScheduleId,
      body: messageBody.meta({ example: { data_mensagem_programada: '2026-03-03 10:30', tags: '7,9' } }),
      multipart: FILE,
      jsonOrMultipart: true,
      description:
        `${ACCESS} Only the fields sent change; a new time moves the waiting occurrence, or starts a new series once the last one ended. ` +
        'While it is being sent its time cannot move (409).',
      response: scheduledMessageSchema,
      errors: [
        CHANGE,
        NOT_FOUND,
        REFERENCES,
        SENDING,
        ...FILE_ERRORS,
        { status: 422, codes: [...INPUT_CODES, 'ERR_SCHEDULE_INVALID_NAME', 'ERR_SCHEDULE_TOO_MANY_RECIPIENTS'] },
      ],
      handler: async ({ actor, params, body, multipart }) =>
        s.updateScheduledMessage.execute({
          actor,
          scheduleId: params.scheduleId,
          message: messageInput(body),
          ...(multipart.files.file?.[0] ? { file: multipart.files.file[0] } : {}),
        }),
    }),
    route({
      method: 'DELETE',
      path: '/schedules-message/:scheduleId',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'deleteScheduledMessage',
      summary: 'Delete a scheduled message; nothing more of it is sent',
      params: byScheduleId,
      description: ACCESS,
      response: deletedSchema,
      errors: [CHANGE, NOT_FOUND],
      handler: async ({ actor, params }) => {
        await s.deleteScheduledMessage.execute({ actor, scheduleId: params.scheduleId });
        return { message: 'Schedule deleted' };
      },
    }),
  ];
}

import { z } from 'zod';

/**
 * The queue views the API answers (packages/core/src/queues/: `QueueView`, `QueueWithUsers`,
 * `QueueSummary`, `QueueOptionView`, `ChatbotView`, `QueueIntegrationView`, the job-queue
 * health), defined once: users and connections embed `queueSummarySchema`.
 */

const timestamp = z.iso.datetime();
const queueId = z.number().int().positive().meta({ description: 'The queue id', example: 1 });
const queueName = z.string().min(1).max(100).meta({ description: 'Unique in the company, ignoring case', example: 'Support' });
const queueColor = z
  .string()
  .regex(/^#[0-9a-f]{6}$/)
  .meta({ description: '`#rrggbb`, lower case', example: '#7c7c7c' });

const QUEUE_EXAMPLE = {
  id: 1,
  companyId: 1,
  name: 'Support',
  color: '#7c7c7c',
  greetingMessage: 'Welcome to support!',
  outOfHoursMessage: 'We are closed now; we answer from 8am.',
  schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday' as const, startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' }],
  orderQueue: 1,
  integrationId: null,
  promptId: null,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-02-01T09:30:00.000Z',
};

const hhmm = (example: string) => z.string().meta({ description: '`HH:MM`, or `""` for none', example });

/** `DayHours`: a day of the queue's hours with up to two ranges, as the lineage's queue editor reads it. */
export const queueDayHoursSchema = z
  .object({
    weekday: z.string().meta({ description: "The day's label", example: 'Segunda-feira' }),
    weekdayEn: z.enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']).meta({ example: 'monday' }),
    startTimeA: hhmm('08:00'),
    endTimeA: hhmm('12:00'),
    startTimeB: hhmm('13:00'),
    endTimeB: hhmm('18:00'),
  })
  .meta({
    id: 'DayHours',
    description: "A day of a queue's hours: range A, then range B (blank times: no range)",
    example: { weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' },
  });

const queueFields = {
  id: queueId,
  companyId: z.number().int().positive().meta({ description: 'The owning company', example: 1 }),
  name: queueName,
  color: queueColor,
  greetingMessage: z.string().nullable().meta({ description: 'Sent when a ticket enters the queue', example: 'Welcome to support!' }),
  outOfHoursMessage: z.string().nullable().meta({ description: "Sent outside the queue's hours (when the company schedules by queue)", example: null }),
  schedules: z.array(queueDayHoursSchema).meta({ description: "The queue's business hours, one entry per day" }),
  orderQueue: z.number().int().min(0).meta({ description: 'Its place in the menus (then by id)', example: 1 }),
  integrationId: z.number().int().nullable().meta({ description: 'The integration that receives its conversations', example: null }),
  promptId: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'The AI assistant (prompt) that answers its conversations while no operator has them; null: none', example: null }),
  createdAt: timestamp.meta({ example: '2025-01-31T12:00:00.000Z' }),
  updatedAt: timestamp.meta({ example: '2025-02-01T09:30:00.000Z' }),
};

/** `QueueView`: a queue of the company. */
export const queueViewSchema = z.object(queueFields).meta({ id: 'Queue', description: 'A queue (a department) of the company', example: QUEUE_EXAMPLE });

export const queueListSchema = z.array(queueViewSchema).meta({ id: 'QueueList', description: 'Queues, in menu order', example: [QUEUE_EXAMPLE] });

export const queueUserSchema = z
  .object({
    id: z.number().int().positive().meta({ example: 2 }),
    name: z.string().meta({ example: 'Ana Lima' }),
  })
  .meta({ id: 'QueueUser', description: 'An operator of a queue', example: { id: 2, name: 'Ana Lima' } });

const QUEUE_WITH_USERS_EXAMPLE = { ...QUEUE_EXAMPLE, users: [{ id: 2, name: 'Ana Lima' }], chatbots: [] };

/** `QueueWithUsers`: a queue with its operators and its chatbot menu. */
export const queueWithUsersSchema = z
  .object({
    ...queueFields,
    users: z.array(queueUserSchema).meta({ description: 'Its operators' }),
    get chatbots() {
      return z
        .array(chatbotTreeSchema)
        .meta({ description: 'Its chatbot menu: the top-level chatbots in menu order, each with the chatbots under it (`options`)' });
    },
  })
  .meta({ id: 'QueueWithUsers', description: 'A queue with its operators and chatbots', example: QUEUE_WITH_USERS_EXAMPLE });

export const queueWithUsersListSchema = z.array(queueWithUsersSchema).meta({
  id: 'QueueWithUsersList',
  description: "The company's queues with their operators, in menu order",
  example: [QUEUE_WITH_USERS_EXAMPLE],
});

/** What other views (users, connections) carry of a queue. */
export const queueSummarySchema = z.object({ id: queueId, name: queueName, color: queueColor }).meta({
  id: 'QueueSummary',
  description: 'A queue as users and connections carry it',
  example: { id: 1, name: 'Support', color: '#7c7c7c' },
});

const menuFields = {
  option: z.string().meta({ description: 'What the contact types to pick it: a number or a keyword', example: '1' }),
  forwardQueueId: z.number().int().nullable().meta({ description: 'Picking it moves the ticket to this queue', example: null }),
  forwardUserId: z.number().int().nullable().meta({ description: 'Picking it hands the ticket to this operator', example: null }),
  closeTicket: z.boolean().meta({ description: 'Picking it sends the message and closes the ticket', example: false }),
  createdAt: timestamp.meta({ example: '2025-01-31T12:00:00.000Z' }),
  updatedAt: timestamp.meta({ example: '2025-01-31T12:00:00.000Z' }),
};

const OPTION_EXAMPLE = {
  id: 10,
  companyId: 1,
  queueId: 1,
  parentId: null,
  kind: 'option' as const,
  title: 'Billing',
  message: 'Tell us your invoice number.',
  option: '1',
  forwardQueueId: null,
  forwardUserId: null,
  closeTicket: false,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
};

/** `QueueOptionView`: a node of a queue's menu tree. */
export const queueOptionSchema = z
  .object({
    id: z.number().int().positive().meta({ example: 10 }),
    companyId: z.number().int().positive().meta({ example: 1 }),
    queueId,
    parentId: z.number().int().nullable().meta({ description: "The node whose menu lists this one; null for the queue's first menu", example: null }),
    kind: z.enum(['option', 'chatbot']).meta({ description: 'Queue options and chatbots share one tree', example: 'option' }),
    title: z.string().meta({ description: 'The menu line', example: 'Billing' }),
    message: z.string().nullable().meta({ description: 'Sent when the contact picks it, before its own menu', example: 'Tell us your invoice number.' }),
    ...menuFields,
  })
  .meta({ id: 'QueueOption', description: 'A menu option of a queue', example: OPTION_EXAMPLE });

export const queueOptionListSchema = z.array(queueOptionSchema).meta({
  id: 'QueueOptionList',
  description: 'Queue options by queue, level, then menu order',
  example: [OPTION_EXAMPLE],
});

const CHATBOT_EXAMPLE = {
  id: 20,
  queueId: 1,
  chatbotId: null,
  name: 'Sales bot',
  greetingMessage: 'What are you looking for?',
  option: '1',
  forwardQueueId: null,
  forwardUserId: null,
  closeTicket: false,
  queueType: 'text' as const,
  optQueueId: null,
  optUserId: null,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
};

const chatbotFields = {
  id: z.number().int().positive().meta({ example: 20 }),
  queueId,
  chatbotId: z.number().int().nullable().meta({ description: "The chatbot it sits under; null at the top of the queue's menu", example: null }),
  name: z.string().meta({ description: 'Its menu line', example: 'Sales bot' }),
  greetingMessage: z.string().nullable().meta({ description: 'What it says when picked', example: 'What are you looking for?' }),
  ...menuFields,
  queueType: z.enum(['text', 'queue', 'attendent', 'integration', 'file']).meta({
    description: "The lineage's name of what picking it does: `queue` (to `optQueueId`), `attendent` (to the operator `optUserId`), `text` (the message only)",
    example: 'text',
  }),
  optQueueId: z.number().int().nullable().meta({ description: "The lineage's name of `forwardQueueId`", example: null }),
  optUserId: z.number().int().nullable().meta({ description: "The lineage's name of `forwardUserId`", example: null }),
};

/** `ChatbotView` as created, updated and listed (without the chatbots under it). */
export const chatbotSchema = z
  .object(chatbotFields)
  .meta({ id: 'Chatbot', description: "A chatbot: a named node of a queue's menu", example: CHATBOT_EXAMPLE });

interface ChatbotTreeInput extends z.input<typeof chatbotSchema> {
  options: ChatbotTreeInput[];
}

/** `ChatbotView` as shown: with every chatbot under it, each with its own. */
export const chatbotTreeSchema: z.ZodType<ChatbotTreeInput> = z
  .object({
    ...chatbotFields,
    get options() {
      return z.array(chatbotTreeSchema).meta({ description: 'The chatbots under this one, in menu order, each with its subtree' });
    },
  })
  .meta({
    id: 'ChatbotTree',
    description: 'A chatbot with every chatbot under it',
    example: { ...CHATBOT_EXAMPLE, options: [{ ...CHATBOT_EXAMPLE, id: 21, chatbotId: 20, name: 'Prices', greetingMessage: null, option: '1', options: [] }] },
  });

export const chatbotPageSchema = z
  .object({
    chatbots: z.array(chatbotSchema).meta({ description: 'This page, in menu order' }),
    count: z.number().int().nonnegative().meta({ example: 1 }),
    hasMore: z.boolean().meta({ example: false }),
  })
  .meta({ id: 'ChatbotPage', description: 'A page of chatbots', example: { chatbots: [CHATBOT_EXAMPLE], count: 1, hasMore: false } });

const INTEGRATION_EXAMPLE = {
  id: 5,
  companyId: 1,
  name: 'Sales n8n',
  type: 'n8n' as const,
  url: 'https://n8n.example.com/webhook/sales',
  config: { flow: 'sales' },
  hasToken: true,
  hasSecret: false,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
  urlN8N: 'https://n8n.example.com/webhook/sales',
  projectName: null,
  language: null,
  typebotSlug: null,
  typebotExpires: null,
  typebotDelayMessage: null,
  typebotKeywordFinish: null,
  typebotKeywordRestart: null,
  typebotUnknownMessage: null,
  typebotRestartMessage: null,
};

const lineageConfigField = (name: string) =>
  z
    .union([z.string(), z.number()])
    .nullable()
    .meta({ description: `The lineage editor's \`${name}\`, kept in \`config\`; null when unset`, example: null });

/** `QueueIntegrationView`: credentials are write-only, only whether they are set shows. */
export const queueIntegrationSchema = z
  .object({
    id: z.number().int().positive().meta({ example: 5 }),
    companyId: z.number().int().positive().meta({ example: 1 }),
    name: z.string().meta({ description: 'Unique in the company', example: 'Sales n8n' }),
    type: z.enum(['webhook', 'n8n', 'typebot', 'dialogflow']).meta({ example: 'n8n' }),
    url: z.string().meta({ description: 'Where each inbound message of its queues is POSTed', example: 'https://n8n.example.com/webhook/sales' }),
    config: z.record(z.string(), z.unknown()).meta({ description: 'Free-form settings for the receiving side, stored as given', example: { flow: 'sales' } }),
    urlN8N: z.string().meta({ description: "The lineage's name of `url`", example: 'https://n8n.example.com/webhook/sales' }),
    projectName: lineageConfigField('projectName'),
    language: lineageConfigField('language'),
    typebotSlug: lineageConfigField('typebotSlug'),
    typebotExpires: lineageConfigField('typebotExpires'),
    typebotDelayMessage: lineageConfigField('typebotDelayMessage'),
    typebotKeywordFinish: lineageConfigField('typebotKeywordFinish'),
    typebotKeywordRestart: lineageConfigField('typebotKeywordRestart'),
    typebotUnknownMessage: lineageConfigField('typebotUnknownMessage'),
    typebotRestartMessage: lineageConfigField('typebotRestartMessage'),
    hasToken: z.boolean().meta({ description: 'Whether a bearer token is set (never shown)', example: true }),
    hasSecret: z.boolean().meta({ description: 'Whether a signing secret is set (never shown)', example: false }),
    createdAt: timestamp.meta({ example: '2025-01-31T12:00:00.000Z' }),
    updatedAt: timestamp.meta({ example: '2025-01-31T12:00:00.000Z' }),
  })
  .meta({ id: 'QueueIntegration', description: 'An HTTP bot queues hand their conversations to', example: INTEGRATION_EXAMPLE });

export const queueIntegrationPageSchema = z
  .object({
    queueIntegrations: z.array(queueIntegrationSchema).meta({ description: 'This page, by name' }),
    count: z.number().int().nonnegative().meta({ example: 1 }),
    hasMore: z.boolean().meta({ example: false }),
  })
  .meta({
    id: 'QueueIntegrationPage',
    description: 'A page of queue integrations',
    example: { queueIntegrations: [INTEGRATION_EXAMPLE], count: 1, hasMore: false },
  });

export const integrationTestResultSchema = z
  .object({
    ok: z.boolean().meta({ description: 'The endpoint answered a 2xx', example: true }),
    status: z.number().int().nullable().meta({ description: 'The HTTP status it answered; null when it did not answer', example: 200 }),
    error: z.string().optional().meta({ description: 'Why there is no status (`ERR_INTEGRATION_UNREACHABLE`)', example: 'ERR_INTEGRATION_UNREACHABLE' }),
  })
  .meta({ id: 'QueueIntegrationTestResult', description: 'What a test call of an integration got back', example: { ok: true, status: 200 } });

const dependency = (name: string) => z.object({ connected: z.boolean().meta({ description: `Whether ${name} answers now`, example: true }) });

export const jobQueueHealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']).meta({
      description:
        '`down` (answered with 503) when the database, the cache or the broker does not answer; `degraded` when the oldest pending outbox entry is over a minute old',
      example: 'ok',
    }),
    error: z
      .enum(['ERR_DATABASE_UNAVAILABLE', 'ERR_CACHE_UNAVAILABLE', 'ERR_BROKER_UNAVAILABLE'])
      .optional()
      .meta({ description: 'With `down`: the first dependency that does not answer', example: 'ERR_CACHE_UNAVAILABLE' }),
    database: dependency('the database'),
    cache: dependency('the cache (Redis; the in-memory cache always does)'),
    broker: dependency('the broker (NATS; the in-process broker always does)'),
    outbox: z
      .object({
        pending: z.number().int().nonnegative().meta({ description: 'Outbox entries not yet relayed', example: 0 }),
        oldestAgeSeconds: z.number().int().nonnegative().nullable().meta({ description: 'Age of the oldest pending entry; null when none', example: null }),
        bySubject: z.record(z.string(), z.number().int().nonnegative()).meta({ description: 'Pending entries per subject kind (no ids)', example: {} }),
      })
      .nullable()
      .meta({ description: 'The outbox backlog; null when the database does not answer' }),
    backgroundJobs: z.object({ running: z.number().int().nonnegative().meta({ description: 'Background jobs running in this process', example: 0 }) }),
    checkedAt: timestamp.meta({ example: '2025-02-01T09:30:00.000Z' }),
  })
  .meta({
    id: 'JobQueueHealth',
    description: 'Health of the dependencies and job queues: counts and ages only, no tenant data',
    example: {
      status: 'ok',
      database: { connected: true },
      cache: { connected: true },
      broker: { connected: true },
      outbox: { pending: 0, oldestAgeSeconds: null, bySubject: {} },
      backgroundJobs: { running: 0 },
      checkedAt: '2025-02-01T09:30:00.000Z',
    },
  });

const deleted = <M extends string>(id: string, message: M, description: string) =>
  z.object({ message: z.literal(message) }).meta({ id, description, example: { message } });

export const queueDeletedSchema = deleted('QueueDeleted', 'Queue deleted', 'The queue is gone; its tickets stay without a queue');
export const queueOptionDeletedSchema = deleted('QueueOptionDeleted', 'Option deleted', 'The option is gone, with everything under it');
export const chatbotDeletedSchema = deleted('ChatbotDeleted', 'Chatbot deleted', 'The chatbot is gone, with every chatbot under it');
export const queueIntegrationDeletedSchema = deleted(
  'QueueIntegrationDeleted',
  'Integration deleted',
  'The integration is gone; its queues keep going without it',
);

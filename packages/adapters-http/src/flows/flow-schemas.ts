import { KEYWORD_MATCHES, TRIGGER_TYPES } from '@servicedesk/core/flows/flow';
import {
  CONDITION_MATCHES,
  CONDITION_OPERATORS,
  CONDITION_SOURCES,
  HTTP_METHODS,
  VALIDATION_KINDS,
  type FlowNodeType,
} from '@servicedesk/core/flows/flow-graph';
import { z } from 'zod';

/** The flows' wire shapes (packages/core/src/flows): nodes by type, edges, flows, versions and simulations. */

const timestamp = z.iso.datetime();
const count = z.number().int().nonnegative();
const rowId = z.number().int().positive().max(2_147_483_647);
const text = z.string().max(100_000);
export const elementId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/)
  .meta({ description: 'Letters, digits and `_.:-`, up to 64', example: 'n-3' });

export const position = z
  .object({
    x: z.number().meta({ description: 'Across the canvas, within ±1,000,000', example: 240 }),
    y: z.number().meta({ description: 'Down the canvas, within ±1,000,000', example: 0 }),
  })
  .meta({ description: 'Where the editor draws the node' });
const variableName = (description: string) =>
  z
    .string()
    .max(200)
    .meta({ description: `${description}: a letter or \`_\`, then letters, digits or \`_\` (up to 50)` });

const RULE = z.object({
  handle: z.string().max(64).meta({ description: 'With `match: first` (empty otherwise)' }),
  source: z.enum(CONDITION_SOURCES).meta({ description: 'Default `variable`' }),
  key: z.string().max(200).meta({ description: 'The variable, or the contact field (`name`, `firstName`, `number`, `email`); empty for business hours' }),
  operator: z
    .enum(CONDITION_OPERATORS)
    .meta({ description: 'Text compared without case or accents; `greaterThan`/`lessThan` as numbers; business hours by `isTrue`/`isFalse`' }),
  value: z.string().max(10_000).meta({ description: 'Compared with, `{{variables}}` filled in' }),
});
const MODEL = z.object({
  baseUrl: z.string().max(2000).meta({ description: 'An OpenAI-compatible endpoint, called without a key: an http(s) URL, up to 500 characters' }),
  model: z.string().max(200).meta({ description: "One of the server's models (`PROMPT_MODELS`), checked on publish" }),
  instructions: z.string().max(100_000).meta({ description: 'The system prompt, up to 20,000 characters; required to publish' }),
  temperature: z.number().meta({ description: '0 to 2 (default 1)' }),
  maxTokens: z.number().int().meta({ description: '1 to 16,000 (default 300)' }),
});

/** Each type's `data`, complete (as answered); requests may leave any field out for its default. */
const NODE_DATA = {
  start: z.object({}),
  message: z.object({
    text: text.meta({ description: 'Up to 4,096 characters; `{{variable}}`, `{{name}}`, `{{firstName}}`, `{{number}}`, `{{email}}` filled in' }),
    media: z
      .object({
        fileListId: rowId.meta({ description: "One of the company's file lists" }),
        fileOptionId: rowId.nullable().meta({ description: 'One file of that list; null: all its files' }),
      })
      .nullable()
      .meta({ description: 'Files of a file list sent after the text: one option, or all (`fileOptionId` null)' }),
    typingMs: z.number().int().meta({ description: '"Typing…" before it, 0 to 30,000 ms (default 0)' }),
  }),
  question: z.object({
    text: text.meta({ description: 'The question, up to 4,096 characters, `{{variables}}` filled in; asked again on an invalid answer unless `invalidText`' }),
    mode: z
      .enum(['options', 'free'])
      .meta({ description: '`options` (default): a numbered menu, one handle per option; `free`: any answer passing `validation`, handle `answer`' }),
    options: z
      .array(
        z.object({
          handle: elementId.meta({ description: "The option's way out, unique in the node and not a reserved handle (`next`, `answer`, `invalid`…)" }),
          label: z.string().max(1000).meta({ description: 'What the menu shows, up to 100 characters; required to publish' }),
        }),
      )
      .max(100)
      .meta({ description: 'Up to 20; picked by number or label' }),
    variable: z.string().max(200).nullable().meta({ description: "Keeps the answer (an option's label); every answer is also `lastAnswer`" }),
    validation: z.enum(VALIDATION_KINDS).meta({ description: 'For free answers (default `text`)' }),
    retries: z.number().int().meta({ description: 'Invalid answers asked again, 0 to 5 (default 2); then handle `invalid`' }),
    invalidText: text.meta({ description: 'Said on an invalid answer (empty: the question again)' }),
    timeoutSeconds: z.number().int().nullable().meta({ description: '10 s to 7 days without an answer: handle `timeout`; null waits' }),
  }),
  condition: z.object({
    match: z
      .enum(CONDITION_MATCHES)
      .meta({ description: '`all` (default) or `any`: handles `true`/`false`; `first`: the first rule holding, by its `handle`, else `else`' }),
    rules: z.array(RULE).max(100).meta({ description: 'The tests, up to 20; at least one to publish' }),
  }),
  interval: z.object({ seconds: z.number().int().meta({ description: '1 s to 7 days (default 60): the run waits, as data, never a sleep' }) }),
  setVariable: z.object({
    variable: variableName('The variable set'),
    value: text.meta({ description: 'Its new value, up to 4,096 characters, `{{variables}}` filled in' }),
  }),
  tags: z.object({
    add: z.array(rowId).max(200).meta({ description: "Tags (ids of the company's) put on the ticket, up to 50" }),
    remove: z.array(rowId).max(200).meta({ description: 'Tags taken off the ticket, up to 50; `add` and `remove` together name at least one to publish' }),
  }),
  transfer: z
    .object({
      queueId: rowId.nullable().meta({ description: 'The queue the ticket moves to; null: it stays in its queue' }),
      userId: rowId
        .nullable()
        .meta({ description: 'The user the ticket is opened for; null: none assigned (a transfer names a queue, a user or both to publish)' }),
    })
    .meta({ description: 'Ends the run, handed over' }),
  close: z.object({}),
  http: z
    .object({
      method: z.enum(HTTP_METHODS).meta({ description: 'Default `GET`' }),
      url: z.string().max(10_000).meta({ description: 'http(s); `{{variables}}` URL-encoded' }),
      headers: z
        .array(
          z.object({
            name: z.string().max(1000).meta({ description: 'A header name (token characters), up to 100', example: 'Authorization' }),
            value: z.string().max(10_000).meta({ description: 'Up to 1,000 characters, `{{variables}}` filled in', example: 'Bearer {{apiToken}}' }),
          }),
        )
        .max(100)
        .meta({ description: 'Request headers, up to 20' }),
      body: z.string().max(100_000).nullable().meta({ description: 'Variables escaped as inside a JSON string' }),
      timeoutMs: z.number().int().meta({ description: '1,000 to 30,000 (default 10,000)' }),
      save: z
        .array(
          z.object({
            path: z.string().max(1000).meta({ description: 'Where in the JSON answer, dotted, up to 200 characters', example: 'data.items.0.name' }),
            variable: variableName('The variable it is kept in'),
          }),
        )
        .max(100)
        .meta({ description: 'Parts of the JSON answer (`data.items.0.name`) kept in variables, up to 10' }),
    })
    .meta({ description: 'Handles `success` (2xx) and `error`' }),
  integration: z
    .object({ integrationId: rowId.meta({ description: "One of the company's queue integrations" }) })
    .meta({ description: 'Hands the conversation to a queue integration; ends the run' }),
  aiAgent: z.object({
    promptId: rowId.nullable().meta({ description: "One of the company's prompts; or `model`" }),
    model: MODEL.nullable().meta({ description: 'A keyless OpenAI-compatible endpoint of its own (keys live only in prompts)' }),
    input: text.meta({ description: "The contact's turn given on entering (default `{{lastAnswer}}`)" }),
    variable: z.string().max(200).nullable().meta({ description: 'Keeps each answer of the model (a variable name); null or empty: nowhere' }),
    maxTurns: z.number().int().meta({ description: 'Answers before handle `done`, 1 to 50 (default 1); the hand-over phrase: handle `handover`' }),
  }),
  goToFlow: z
    .object({ flowId: rowId.meta({ description: "Another of the company's flows, started from its published version (nothing when it has none)" }) })
    .meta({ description: 'Ends this run; the run time starts that flow' }),
} as const satisfies Record<FlowNodeType, z.ZodObject>;

const nodeOf = <T extends FlowNodeType>(type: T) => z.object({ id: elementId, type: z.literal(type), position, data: NODE_DATA[type] });
/** What a request may leave out: any data field, and the fields of a rule or an inline model too. */
const INPUT_DATA: { readonly [T in FlowNodeType]: z.ZodObject } = {
  ...NODE_DATA,
  condition: NODE_DATA.condition.extend({
    rules: z.array(RULE.partial()).max(100).meta({ description: 'The tests, up to 20 (fields left out take their defaults); at least one to publish' }),
  }),
  aiAgent: NODE_DATA.aiAgent.extend({
    model: MODEL.partial()
      .nullable()
      .meta({ description: 'A keyless OpenAI-compatible endpoint of its own (keys live only in prompts); null: `promptId` is used' }),
  }),
};
/** What each type of node does, said on its `type` and its `data`. */
const NODE_TYPES: { readonly [T in FlowNodeType]: string } = {
  start: 'Where a run begins (exactly one; handle `next`)',
  message: 'Says a text and/or sends files (handle `next`)',
  question: 'Asks and waits for the answer (a handle per option, or `answer`; `invalid`, `timeout`)',
  condition: 'Tests variables, contact fields or business hours (`true`/`false`, or a handle per rule and `else`)',
  interval: 'Waits a while (handle `next`)',
  setVariable: 'Sets a variable (handle `next`)',
  tags: "Adds and removes the ticket's tags (handle `next`)",
  transfer: 'Hands the ticket to a queue and/or a user; ends the run',
  close: 'Closes the ticket; ends the run',
  http: 'Calls a URL (handles `success`, `error`)',
  integration: 'Hands the conversation to a queue integration; ends the run',
  aiAgent: 'Lets an AI model answer (handles `done`, `handover`)',
  goToFlow: 'Ends this run and starts another flow',
};
const inputOf = <T extends FlowNodeType>(type: T) =>
  z.object({
    type: z.literal(type).meta({ description: NODE_TYPES[type] }),
    position: position.optional().meta({ description: 'Where the editor draws the node; absent: `{x: 0, y: 0}`' }),
    data: INPUT_DATA[type]
      .partial()
      .optional()
      .meta({ description: `The \`${type}\` node's settings; fields left out (or all of them) take their defaults` }),
  });
const savedOf = <T extends FlowNodeType>(type: T) => inputOf(type).extend({ id: elementId });

/** One schema per node type, spelled out so that the union keeps each type's data. */
const everyType = <S extends z.ZodObject>(of: <T extends FlowNodeType>(type: T) => S) =>
  [
    of('start'),
    of('message'),
    of('question'),
    of('condition'),
    of('interval'),
    of('setVariable'),
    of('tags'),
    of('transfer'),
    of('close'),
    of('http'),
    of('integration'),
    of('aiAgent'),
    of('goToFlow'),
  ] as const;

const NODE_EXAMPLE = {
  id: 'menu',
  type: 'question',
  position: { x: 240, y: 0 },
  data: {
    text: 'Como podemos ajudar?',
    mode: 'options',
    options: [
      { handle: 'a1', label: 'Pedidos' },
      { handle: 'a2', label: 'Outros' },
    ],
    variable: 'topic',
    validation: 'text',
    retries: 2,
    invalidText: '',
    timeoutSeconds: null,
  },
};

export const flowNodeSchema = z
  .discriminatedUnion('type', everyType(nodeOf))
  .meta({ id: 'FlowNode', description: 'A node of a flow, its `data` by `type`', example: NODE_EXAMPLE });

/** A node as sent: `data` fields left out take their defaults. */
export const flowNodeInput = z
  .discriminatedUnion('type', everyType(inputOf))
  .meta({ description: 'A node: its `type`, `position` and `data` (fields left out take their defaults)' });

/** A node of a whole draft being saved: with its id. */
export const savedNodeInput = z.discriminatedUnion('type', everyType(savedOf));

/** A small draft: a greeting after the start. */
export const GRAPH_INPUT_EXAMPLE = {
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
    { id: 'hello', type: 'message', position: { x: 240, y: 0 }, data: { text: 'Olá, {{firstName}}! Já vamos te atender.', typingMs: 1500 } },
  ],
  edges: [{ id: 'e1', source: 'start', sourceHandle: 'next', target: 'hello' }],
};

export const flowEdgeSchema = z
  .object({
    id: elementId,
    source: elementId,
    sourceHandle: elementId.meta({ description: "The source node's way out (`next`, an option's handle, `true`…)" }),
    target: elementId,
  })
  .meta({ id: 'FlowEdge', example: { id: 'e2', source: 'menu', sourceHandle: 'a1', target: 'orders' } });

export const flowGraphSchema = z.object({ nodes: z.array(flowNodeSchema), edges: z.array(flowEdgeSchema) }).meta({
  id: 'FlowGraph',
  example: {
    nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} }, NODE_EXAMPLE],
    edges: [{ id: 'e1', source: 'start', sourceHandle: 'next', target: 'menu' }],
  },
});

export const flowTriggerSchema = z.object({
  type: z.enum(TRIGGER_TYPES).meta({ description: "`welcome` (a contact's first conversation), `keyword`, `noMatch` (no keyword matched) or `manual`" }),
  chatappIds: z.array(rowId).max(1000).meta({ description: 'Only on these connections (empty: all)' }),
  keywords: z
    .array(
      z.object({
        text: z
          .string()
          .max(1000)
          .meta({ description: 'A word or phrase, 1 to 100 characters once trimmed, compared without case or accents', example: 'pedido' }),
        match: z.enum(KEYWORD_MATCHES).meta({ description: '`exact`: the whole message is the keyword; `contains`: the message contains it' }),
      }),
    )
    .max(1000)
    .meta({ description: 'For `keyword`: 1 to 20' }),
});

const FLOW_EXAMPLE = {
  id: 3,
  companyId: 1,
  name: 'Boas-vindas',
  active: true,
  triggers: [{ type: 'welcome' as const, chatappIds: [], keywords: [] }],
  version: 7,
  publishedVersion: 2,
  nodeCount: 2,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
};

export const flowSummarySchema = z
  .object({
    id: rowId,
    companyId: rowId,
    name: z.string(),
    active: z.boolean().meta({ description: 'Its triggers start runs (needs a published version)' }),
    triggers: z.array(flowTriggerSchema),
    version: z.number().int().positive().meta({ description: "The draft's version: send it back with `PUT /flows/:flowId/graph`" }),
    publishedVersion: z.number().int().positive().nullable().meta({ description: 'The version runs follow; null before the first publish' }),
    nodeCount: count,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'FlowSummary', description: 'A flow without its graph', example: FLOW_EXAMPLE });

export const flowDetailsSchema = flowSummarySchema
  .extend({
    draft: flowGraphSchema,
    versions: z.array(z.number().int().positive()).meta({ description: 'The numbers of its published versions, ascending' }),
  })
  .meta({
    id: 'Flow',
    description: "A flow with its draft and its published versions' numbers",
    example: { ...FLOW_EXAMPLE, draft: { nodes: [], edges: [] }, versions: [1, 2] },
  });

export const flowPageSchema = z
  .object({ flows: z.array(flowSummarySchema), count, hasMore: z.boolean() })
  .meta({ id: 'FlowPage', description: "A page of the company's flows (20 a page, by name)", example: { flows: [FLOW_EXAMPLE], count: 1, hasMore: false } });

export const flowVersionSchema = z
  .object({
    flowId: rowId,
    version: z.number().int().positive(),
    graph: flowGraphSchema,
    publishedBy: rowId.nullable().meta({ description: 'Who published it (null once that user is gone)' }),
    publishedAt: timestamp,
  })
  .meta({ id: 'FlowVersion', description: 'A published version, immutable' });

const version = z.number().int().positive().meta({ description: "The draft's version after the change" });
export const nodeAddedSchema = z.object({ node: flowNodeSchema, version });
export const nodeChangedSchema = z.object({
  node: flowNodeSchema,
  version,
  removedEdgeIds: z.array(z.string()).meta({ description: 'Edges of handles the node no longer has' }),
});
export const nodeRemovedSchema = z.object({ version, removedEdgeIds: z.array(z.string()).meta({ description: 'Its edges, gone with it' }) });
export const edgeAddedSchema = z.object({ edge: flowEdgeSchema, version });
export const edgeRemovedSchema = z.object({ version });

const chatTurn = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });

export const simulationBody = z
  .object({
    version: z
      .union([z.literal('draft'), z.number().int().positive().max(2_147_483_647)])
      .optional()
      .meta({ description: '`draft` (default) or a published version' }),
    inputs: z.array(z.string().max(4096)).max(100).meta({ description: "The contact's answers, in order" }),
    contact: z
      .object({
        name: z.string().max(200).meta({ description: '`{{name}}` (and `{{firstName}}`); default `Test Contact`', example: 'Carla Dias' }),
        number: z.string().max(50).meta({ description: '`{{number}}`; default `5511999999999`', example: '5511988887777' }),
        email: z.string().max(254).meta({ description: '`{{email}}`; default empty', example: 'carla@example.com' }),
      })
      .partial()
      .optional()
      .meta({ description: 'The contact the run talks to; fields left out take the test defaults' }),
    variables: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,49}$/), z.string().max(4096))
      .optional()
      .refine((v) => v === undefined || Object.keys(v).length <= 50, { message: 'At most 50 variables' })
      .meta({ description: 'Variables the run starts with' }),
    mocks: z
      .object({
        http: z
          .record(
            z.string().max(64),
            z.object({
              status: z
                .number()
                .int()
                .min(100)
                .max(599)
                .meta({ description: 'The status answered: 2xx leaves by `success`, any other by `error`', example: 200 }),
              body: z.unknown().optional().meta({ description: "The JSON answered, read by the node's `save` paths; absent: null" }),
            }),
          )
          .optional()
          .meta({ description: 'Answers of HTTP nodes by node id (`*` for the rest); an HTTP node without one fails (handle `error`)' }),
        ai: z.string().max(20_000).optional().meta({ description: 'What the model answers every AI-agent turn; absent: the model fails (handed over)' }),
      })
      .optional()
      .meta({ description: 'Answers for the nodes that would call out; nothing is called' }),
  })
  .meta({
    example: {
      inputs: ['1'],
      contact: { name: 'Carla Dias' },
      variables: { orderId: '10482' },
      mocks: { http: { '*': { status: 200, body: { data: { status: 'shipped' } } } }, ai: 'Seu pedido já foi enviado!' },
    },
  });

export const flowStateSchema = z
  .object({
    nodeId: z.string().nullable(),
    variables: z.record(z.string(), z.string()),
    waiting: z.object({ kind: z.enum(['answer', 'interval', 'http', 'ai']), until: timestamp.optional(), retries: count }).nullable(),
    status: z.enum(['running', 'waiting', 'done', 'handedOver']),
    ai: z.object({ turns: count, history: z.array(chatTurn) }).nullable(),
  })
  .meta({ id: 'FlowState', description: "A run's state: where it is, its variables, what it waits for" });

const transcriptEntry = z.union([
  z.object({ from: z.enum(['bot', 'contact']), text: z.string(), nodeId: z.string() }),
  z
    .looseObject({
      event: z.enum(['sendMedia', 'setTags', 'transfer', 'close', 'wait', 'callHttp', 'callAi', 'startIntegration', 'goToFlow', 'end']),
      nodeId: z.string(),
    })
    .meta({ description: "What the run did, with the action's fields; `callHttp` and `callAi` with the mocked `response`" }),
]);

export const simulationSchema = z
  .object({
    flowId: rowId,
    version: z.union([z.literal('draft'), z.number().int().positive()]),
    transcript: z.array(transcriptEntry),
    state: flowStateSchema,
    inputsUsed: count.meta({ description: 'Answers the run took; the rest came after it ended or stopped waiting' }),
  })
  .meta({
    id: 'FlowSimulation',
    description: 'What a simulated run said and did; nothing was sent or stored',
    example: {
      flowId: 3,
      version: 'draft',
      inputsUsed: 1,
      transcript: [
        { from: 'bot', text: 'Como podemos ajudar?\n[1] Pedidos\n[2] Outros', nodeId: 'menu' },
        { event: 'wait', nodeId: 'menu', kind: 'answer', until: null },
        { from: 'contact', text: '1', nodeId: 'menu' },
        { event: 'transfer', nodeId: 'to', queueId: 2, userId: null },
        { event: 'end', nodeId: 'to', status: 'handedOver', reason: 'transferred' },
      ],
      state: { nodeId: 'to', variables: { lastAnswer: '1', topic: 'Pedidos' }, waiting: null, status: 'handedOver', ai: null },
    },
  });

export const executeBody = z
  .object({
    ticketId: z
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .optional()
      .meta({ description: 'The ticket to run on; or `contactId` with `chatappId` instead, never both' }),
    contactId: z
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .optional()
      .meta({ description: "With `chatappId`: the contact's conversation on that connection (opened when none is active)" }),
    chatappId: z.number().int().positive().max(2_147_483_647).optional().meta({ description: 'With `contactId`: the connection the conversation is on' }),
  })
  .meta({ example: { contactId: 7, chatappId: 1 } });

export const flowRunSchema = z
  .object({
    id: rowId,
    flowId: rowId,
    version: z.number().int().positive().meta({ description: 'The published version the run follows until it ends' }),
    ticketId: rowId,
    contactId: rowId,
    chatappId: rowId,
    status: z.enum(['running', 'waiting', 'done', 'handedOver', 'cancelled', 'failed']),
    nodeId: z.string().nullable().meta({ description: 'Where the run is (waits, or ended)' }),
    variables: z.record(z.string(), z.string()),
    waitingUntil: timestamp.nullable().meta({ description: "When the interval or the question's timeout it waits for is due" }),
    trigger: z.enum(['welcome', 'keyword', 'noMatch', 'manual']),
    createdAt: timestamp,
    updatedAt: timestamp,
    endedAt: timestamp.nullable(),
  })
  .meta({
    id: 'FlowRun',
    description: 'A run of a published flow on a ticket',
    example: {
      id: 12,
      flowId: 3,
      version: 2,
      ticketId: 40,
      contactId: 7,
      chatappId: 1,
      status: 'waiting',
      nodeId: 'menu',
      variables: {},
      waitingUntil: null,
      trigger: 'manual',
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      endedAt: null,
    },
  });

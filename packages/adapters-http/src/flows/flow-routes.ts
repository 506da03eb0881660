import type { FlowsApi } from '@servicedesk/core/compose/flows';
import type { FlowFields } from '@servicedesk/core/flows/manage-flows';
import { z } from 'zod';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { route, type RouteError } from '../http/route.js';
import { id, pagedQuery } from '../http/schemas.js';
import {
  edgeAddedSchema,
  edgeRemovedSchema,
  elementId,
  flowDetailsSchema,
  flowEdgeSchema,
  flowNodeInput,
  flowPageSchema,
  flowTriggerSchema,
  flowVersionSchema,
  GRAPH_INPUT_EXAMPLE,
  nodeAddedSchema,
  nodeChangedSchema,
  nodeRemovedSchema,
  savedNodeInput,
  simulationBody,
  simulationSchema,
  executeBody,
  flowRunSchema,
  position,
} from './flow-schemas.js';

type FlowsApp = { readonly flows: FlowsApi };

const TAG = 'Flows (flow builder)';
const ADMIN_ONLY: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'Admins only' };
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_FLOW_FOUND'] };
const NODE_ERRORS: RouteError = {
  status: 422,
  codes: ['ERR_FLOW_INVALID_NODE', 'ERR_FLOW_TOO_LARGE'],
  description: '`{ error, nodeId, reason }`: the node refused and why',
};
const FIELDS: RouteError = { status: 422, codes: ['ERR_FLOW_INVALID_NAME', 'ERR_FLOW_INVALID_TRIGGERS'] };
const CONNECTION: RouteError = { status: 404, codes: ['ERR_NO_CONNECTION_FOUND'], description: "A trigger names a connection that is not the company's" };

const flowId = id.meta({ description: "The flow, one of the company's", example: 3 });
const flowParams = z.object({ flowId });
const nodeParams = z.object({ flowId, nodeId: elementId });
const edgeParams = z.object({ flowId, edgeId: elementId });

const flowBody = z
  .object({
    name: z.string().max(1000).meta({ description: '1 to 100 characters, unique in the company' }),
    active: z.boolean().meta({ description: 'Its triggers start runs; needs a published version' }),
    triggers: z.array(flowTriggerSchema).max(1000).meta({ description: 'Up to 20' }),
  })
  .partial();

const FLOW_BODY_EXAMPLE = {
  name: 'Pedidos',
  active: false,
  triggers: [{ type: 'keyword' as const, chatappIds: [], keywords: [{ text: 'pedido', match: 'contains' as const }] }],
};

const fields = (body: z.output<typeof flowBody>): FlowFields => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as FlowFields;

/**
 * The flow builder (`/flows`): flows with their triggers, the draft graph edited whole (with its
 * version) or node by node, publishing into immutable versions, and simulation. Admins only.
 */
export function flowRoutes(app: FlowsApp) {
  const f = app.flows;
  return [
    route({
      method: 'GET',
      path: '/flows',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'listFlows',
      summary: "The company's flows (admin)",
      query: pagedQuery,
      description: '20 a page, by name; `searchParam` matches the name. Without graphs (`GET /flows/:flowId` has the draft).',
      response: flowPageSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor, query }) =>
        f.listFlows.execute({
          actor,
          ...(query.searchParam !== undefined ? { searchParam: query.searchParam } : {}),
          ...(query.pageNumber !== undefined ? { pageNumber: query.pageNumber } : {}),
        }),
    }),
    route({
      method: 'POST',
      path: '/flows',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'createFlow',
      summary: 'Create a flow (admin)',
      status: 201,
      body: flowBody.required({ name: true }).meta({ example: FLOW_BODY_EXAMPLE }),
      description: 'Its draft starts with a start node (id `start`). Sends a `flow` frame (`create`) to admins.',
      response: flowDetailsSchema,
      errors: [
        ADMIN_ONLY,
        FIELDS,
        CONNECTION,
        { status: 409, codes: ['ERR_FLOW_NAME_IN_USE', 'ERR_FLOW_NOT_PUBLISHED'], description: 'The name is taken, or `active` before any publish' },
      ],
      handler: async ({ actor, body }) => f.createFlow.execute({ ...fields(body), actor, name: body.name }),
    }),
    route({
      method: 'GET',
      path: '/flows/:flowId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'showFlow',
      summary: 'One flow with its draft (admin)',
      params: flowParams,
      description: 'The draft graph, its `version` (send it back when saving the graph) and the numbers of the published versions.',
      response: flowDetailsSchema,
      errors: [ADMIN_ONLY, NOT_FOUND],
      handler: async ({ actor, params }) => f.showFlow.execute({ actor, flowId: params.flowId }),
    }),
    route({
      method: 'PUT',
      path: '/flows/:flowId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'updateFlow',
      summary: 'Rename, switch or re-trigger a flow (admin)',
      params: flowParams,
      body: flowBody.meta({ example: { active: true, triggers: [{ type: 'welcome', chatappIds: [1], keywords: [] }] } }),
      description: 'Only the fields sent change. `active: true` needs a published version. Sends a `flow` frame (`update`).',
      response: flowDetailsSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, FIELDS, CONNECTION, { status: 409, codes: ['ERR_FLOW_NAME_IN_USE', 'ERR_FLOW_NOT_PUBLISHED'] }],
      handler: async ({ actor, params, body }) => f.updateFlow.execute({ ...fields(body), actor, flowId: params.flowId }),
    }),
    route({
      method: 'DELETE',
      path: '/flows/:flowId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'deleteFlow',
      summary: 'Remove a flow (admin)',
      params: flowParams,
      description:
        'With its versions, unless another flow goes to it (a `goToFlow` node of its draft or latest version). Answers `{ "message": "Flow deleted" }`; ' +
        'sends a `flow` frame (`delete`).',
      response: deletedSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, { status: 409, codes: ['ERR_FLOW_IN_USE'], description: 'Another flow goes to it' }],
      handler: async ({ actor, params }) => {
        await f.deleteFlow.execute({ actor, flowId: params.flowId });
        return { message: 'Flow deleted' };
      },
    }),
    route({
      method: 'PUT',
      path: '/flows/:flowId/graph',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'saveFlowGraph',
      summary: 'Save the whole draft (admin)',
      params: flowParams,
      body: z
        .object({
          nodes: z.array(savedNodeInput).max(10_000).meta({ description: 'Every node of the draft with its id (unique), up to 500' }),
          edges: z.array(flowEdgeSchema).max(10_000).meta({ description: 'Every edge of the draft, up to 2,000; they may still dangle until publishing' }),
          version: z.number().int().positive().max(2_147_483_647).meta({ description: "The draft's version the editor read" }),
        })
        .meta({ example: { ...GRAPH_INPUT_EXAMPLE, version: 7 } }),
      description:
        'Replaces the draft if it is still at `version` (409 `ERR_FLOW_VERSION_CONFLICT` otherwise: someone saved in between; read it again). ' +
        'Every node is checked against its type; edges may still dangle (publishing refuses them). Answers the flow with the next `version`; sends a `flow` frame (`update`).',
      response: flowDetailsSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, NODE_ERRORS, { status: 422, codes: ['ERR_FLOW_INVALID_EDGE'] }, { status: 409, codes: ['ERR_FLOW_VERSION_CONFLICT'] }],
      handler: async ({ actor, params, body }) => f.saveFlowGraph.execute({ actor, flowId: params.flowId, version: body.version, graph: body }),
    }),
    route({
      method: 'POST',
      path: '/flows/:flowId/nodes',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'addFlowNode',
      summary: 'Add a node to the draft (admin)',
      status: 201,
      params: flowParams,
      body: flowNodeInput.meta({
        example: {
          type: 'question',
          position: { x: 480, y: 0 },
          data: {
            text: 'Como podemos ajudar?',
            options: [
              { handle: 'a1', label: 'Pedidos' },
              { handle: 'a2', label: 'Outros' },
            ],
            variable: 'topic',
          },
        },
      }),
      description: "The server gives it its id; `data` fields left out take their defaults. Answers the node and the draft's new `version`.",
      response: nodeAddedSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, NODE_ERRORS, { status: 409, codes: ['ERR_FLOW_VERSION_CONFLICT'] }],
      handler: async ({ actor, params, body }) => f.addFlowNode.execute({ actor, flowId: params.flowId, node: body }),
    }),
    route({
      method: 'PUT',
      path: '/flows/:flowId/nodes/:nodeId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'updateFlowNode',
      summary: 'Change a node of the draft (admin)',
      params: nodeParams,
      body: z
        .object({
          type: z
            .string()
            .max(50)
            .optional()
            .meta({ description: 'A new node type (`message`, `question`…); its `data` is then read for that type. Absent: unchanged' }),
          position: position.optional().meta({ description: 'Where the editor draws the node; absent: unchanged' }),
          data: z
            .record(z.string(), z.unknown())
            .optional()
            .meta({ description: "The node's settings for its type, replacing them whole (fields left out take their defaults); absent: unchanged" }),
        })
        .meta({ example: { position: { x: 240, y: 80 }, data: { text: 'Olá, {{firstName}}! Um momento, por favor.', typingMs: 1000 } } }),
      description:
        'Its position and `data` (replaced whole, defaults filled in), or its `type` (the data then read for the new type). Edges of handles it no ' +
        'longer has go (`removedEdgeIds`).',
      response: nodeChangedSchema,
      errors: [
        ADMIN_ONLY,
        { status: 404, codes: ['ERR_NO_FLOW_FOUND', 'ERR_FLOW_NODE_NOT_FOUND'] },
        NODE_ERRORS,
        { status: 409, codes: ['ERR_FLOW_VERSION_CONFLICT'] },
      ],
      handler: async ({ actor, params, body }) =>
        f.updateFlowNode.execute({
          actor,
          flowId: params.flowId,
          nodeId: params.nodeId,
          node: {
            ...(body.type !== undefined ? { type: body.type } : {}),
            ...(body.position ? { position: body.position } : {}),
            ...(body.data ? { data: body.data } : {}),
          },
        }),
    }),
    route({
      method: 'DELETE',
      path: '/flows/:flowId/nodes/:nodeId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'removeFlowNode',
      summary: 'Remove a node of the draft (admin)',
      params: nodeParams,
      description: 'With every edge to or from it.',
      response: nodeRemovedSchema,
      errors: [ADMIN_ONLY, { status: 404, codes: ['ERR_NO_FLOW_FOUND', 'ERR_FLOW_NODE_NOT_FOUND'] }, { status: 409, codes: ['ERR_FLOW_VERSION_CONFLICT'] }],
      handler: async ({ actor, params }) => f.removeFlowNode.execute({ actor, flowId: params.flowId, nodeId: params.nodeId }),
    }),
    route({
      method: 'POST',
      path: '/flows/:flowId/edges',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'addFlowEdge',
      summary: 'Join two nodes of the draft (admin)',
      status: 201,
      params: flowParams,
      body: flowEdgeSchema.omit({ id: true }).meta({ example: { source: 'menu', sourceHandle: 'a1', target: 'orders' } }),
      description: "Both nodes must exist; the handle must be one of the source's, not yet connected.",
      response: edgeAddedSchema,
      errors: [
        ADMIN_ONLY,
        { status: 404, codes: ['ERR_NO_FLOW_FOUND', 'ERR_FLOW_NODE_NOT_FOUND'] },
        { status: 422, codes: ['ERR_FLOW_INVALID_EDGE', 'ERR_FLOW_TOO_LARGE'] },
        { status: 409, codes: ['ERR_FLOW_VERSION_CONFLICT'] },
      ],
      handler: async ({ actor, params, body }) => f.addFlowEdge.execute({ actor, flowId: params.flowId, edge: body }),
    }),
    route({
      method: 'DELETE',
      path: '/flows/:flowId/edges/:edgeId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'removeFlowEdge',
      summary: 'Remove an edge of the draft (admin)',
      params: edgeParams,
      description: "Answers the draft's new `version`.",
      response: edgeRemovedSchema,
      errors: [ADMIN_ONLY, { status: 404, codes: ['ERR_NO_FLOW_FOUND', 'ERR_FLOW_EDGE_NOT_FOUND'] }, { status: 409, codes: ['ERR_FLOW_VERSION_CONFLICT'] }],
      handler: async ({ actor, params }) => f.removeFlowEdge.execute({ actor, flowId: params.flowId, edgeId: params.edgeId }),
    }),
    route({
      method: 'POST',
      path: '/flows/:flowId/publish',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'publishFlow',
      summary: 'Publish the draft (admin)',
      params: flowParams,
      description:
        'Checks the draft (exactly one start; every edge between nodes, by a handle its node has, one per handle; every required handle connected; every ' +
        "node reachable; each node complete; every queue, user, tag, file list, prompt, integration and flow it names the company's) and copies it into the next " +
        'version, immutable. Answers the version; sends a `flow` frame (`publish`).',
      response: flowVersionSchema,
      errors: [
        ADMIN_ONLY,
        NOT_FOUND,
        {
          status: 422,
          codes: ['ERR_FLOW_INVALID_GRAPH', 'ERR_PROMPT_INVALID_BASE_URL'],
          description: '`{ error, nodeId, reason }`: the node at fault and why',
        },
      ],
      handler: async ({ actor, params }) => f.publishFlow.execute({ actor, flowId: params.flowId }),
    }),
    route({
      method: 'POST',
      path: '/flows/:flowId/simulate',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'simulateFlow',
      summary: 'Simulate a run (admin)',
      params: flowParams,
      body: simulationBody,
      description:
        "Runs the draft (or a published `version`) with `inputs` as the contact's answers; intervals pass at once; HTTP and AI nodes are answered from " +
        '`mocks`, never called. Nothing is sent or stored.',
      response: simulationSchema,
      errors: [
        ADMIN_ONLY,
        { status: 404, codes: ['ERR_NO_FLOW_FOUND', 'ERR_FLOW_VERSION_NOT_FOUND'] },
        { status: 422, codes: ['ERR_FLOW_LOOP', 'ERR_FLOW_INVALID_GRAPH'] },
      ],
      handler: async ({ actor, params, body }) =>
        f.simulateFlow.execute({
          actor,
          flowId: params.flowId,
          inputs: body.inputs,
          ...(body.version !== undefined ? { version: body.version } : {}),
          ...(body.contact ? { contact: body.contact } : {}),
          ...(body.variables ? { variables: body.variables } : {}),
          ...(body.mocks
            ? { mocks: { ...(body.mocks.http ? { http: body.mocks.http } : {}), ...(body.mocks.ai !== undefined ? { ai: body.mocks.ai } : {}) } }
            : {}),
        }),
    }),
    route({
      method: 'POST',
      path: '/flows/:flowId/execute',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'executeFlow',
      summary: 'Start a run now (admin)',
      params: flowParams,
      body: executeBody,
      description:
        'The manual/API trigger: starts a run of the published version on `ticketId`, or on the active conversation of `contactId` on ' +
        '`chatappId` (opened when there is none), and answers the run as its first step left it (its messages are on their way).',
      response: flowRunSchema,
      errors: [
        ADMIN_ONLY,
        { status: 404, codes: ['ERR_NO_FLOW_FOUND', 'ERR_NO_TICKET_FOUND', 'ERR_NO_CONTACT_FOUND', 'ERR_NO_CONNECTION_FOUND'] },
        { status: 409, codes: ['ERR_FLOW_NOT_PUBLISHED', 'ERR_FLOW_RUN_ACTIVE', 'ERR_FLOW_TICKET_TAKEN'] },
        { status: 422, codes: ['ERR_FLOW_EXECUTE_TARGET', 'ERR_FLOW_LOOP'] },
      ],
      handler: async ({ actor, params, body }) =>
        f.executeFlow.execute({
          actor,
          flowId: params.flowId,
          ...(body.ticketId !== undefined ? { ticketId: body.ticketId } : {}),
          ...(body.contactId !== undefined ? { contactId: body.contactId } : {}),
          ...(body.chatappId !== undefined ? { chatappId: body.chatappId } : {}),
        }),
    }),
  ];
}

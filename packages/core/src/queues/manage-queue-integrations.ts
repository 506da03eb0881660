import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { QueueIntegrationEvent } from './queue-events.js';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock, IdGenerator } from '../shared/ports.js';
import type { ConversationIntegrations, QueueIntegrations } from './ports.js';
import {
  cleanCredential,
  cleanIntegrationConfig,
  cleanIntegrationName,
  cleanIntegrationType,
  cleanIntegrationUrl,
  toQueueIntegrationView,
  type QueueIntegration,
  type QueueIntegrationView,
} from './queue-integration.js';

export interface QueueIntegrationFields {
  readonly name?: string;
  readonly type?: string;
  readonly url?: string;
  /** null or '' removes it; absent keeps it. */
  readonly token?: string | null;
  readonly secret?: string | null;
  readonly config?: Record<string, unknown> | null;
}

/** The company's integration, or 404 `ERR_INTEGRATION_NOT_FOUND` (also for another company's). */
export async function findIntegration(integrations: QueueIntegrations, companyId: number, id: number): Promise<QueueIntegration> {
  const found = await integrations.findById(companyId, id);
  if (!found) throw new NotFoundError('ERR_INTEGRATION_NOT_FOUND');
  return found;
}

async function assertFreeName(integrations: QueueIntegrations, companyId: number, name: string, exceptId?: number) {
  const holder = await integrations.findByName(companyId, name);
  if (holder && holder.id !== exceptId) throw new ConflictError('ERR_INTEGRATION_NAME_ALREADY_EXISTS');
}

/**
 * Queue integrations are an admin's business: their URLs and settings are shown to admins only,
 * and their credentials to nobody. The routes also need the plan's `integrations` feature.
 */
export class ListQueueIntegrations {
  constructor(private readonly deps: { integrations: QueueIntegrations }) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    assertAdmin(input.actor);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.integrations.list({
      companyId: input.actor.companyId,
      page,
      ...(input.searchParam?.trim() ? { search: input.searchParam } : {}),
    });
    return { queueIntegrations: result.rows.map(toQueueIntegrationView), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export class ShowQueueIntegration {
  constructor(private readonly deps: { integrations: QueueIntegrations }) {}

  async execute(input: { readonly actor: Actor; readonly integrationId: number }): Promise<QueueIntegrationView> {
    assertAdmin(input.actor);
    return toQueueIntegrationView(await findIntegration(this.deps.integrations, input.actor.companyId, input.integrationId));
  }
}

export class CreateQueueIntegration {
  constructor(private readonly deps: { integrations: QueueIntegrations; clock: Clock; realtime: RealtimeEvents<QueueIntegrationEvent> }) {}

  async execute(input: QueueIntegrationFields & { readonly actor: Actor; readonly name: string; readonly type: string; readonly url: string }) {
    const { integrations, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const companyId = input.actor.companyId;
    const draft = {
      companyId,
      name: cleanIntegrationName(input.name),
      type: cleanIntegrationType(input.type),
      url: cleanIntegrationUrl(input.url),
      token: cleanCredential(input.token),
      secret: cleanCredential(input.secret),
      config: cleanIntegrationConfig(input.config),
    };
    await assertFreeName(integrations, companyId, draft.name);
    const now = clock.now();
    const view = toQueueIntegrationView(await integrations.add({ ...draft, createdAt: now, updatedAt: now }));
    await realtime.publish(companyId, { entity: 'queueIntegration', data: { action: 'create', queueIntegration: view } });
    return view;
  }
}

export class UpdateQueueIntegration {
  constructor(private readonly deps: { integrations: QueueIntegrations; clock: Clock; realtime: RealtimeEvents<QueueIntegrationEvent> }) {}

  async execute(input: QueueIntegrationFields & { readonly actor: Actor; readonly integrationId: number }) {
    const { integrations, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const current = await findIntegration(integrations, input.actor.companyId, input.integrationId);
    const next: QueueIntegration = { ...current };
    if (input.name !== undefined) next.name = cleanIntegrationName(input.name);
    if (input.type !== undefined) next.type = cleanIntegrationType(input.type);
    if (input.url !== undefined) next.url = cleanIntegrationUrl(input.url);
    if (input.token !== undefined) next.token = cleanCredential(input.token);
    if (input.secret !== undefined) next.secret = cleanCredential(input.secret);
    if (input.config !== undefined) next.config = cleanIntegrationConfig(input.config);
    if (next.name !== current.name) await assertFreeName(integrations, current.companyId, next.name, current.id);
    next.updatedAt = clock.now();
    await integrations.update(next);
    const view = toQueueIntegrationView(next);
    await realtime.publish(current.companyId, { entity: 'queueIntegration', data: { action: 'update', queueIntegration: view } });
    return view;
  }
}

/** Removing an integration detaches it from its queues; their conversations stay with the operators. */
export class DeleteQueueIntegration {
  constructor(private readonly deps: { integrations: QueueIntegrations; realtime: RealtimeEvents<QueueIntegrationEvent> }) {}

  async execute(input: { readonly actor: Actor; readonly integrationId: number }): Promise<void> {
    assertAdmin(input.actor);
    const found = await findIntegration(this.deps.integrations, input.actor.companyId, input.integrationId);
    await this.deps.integrations.remove(found.companyId, found.id);
    await this.deps.realtime.publish(found.companyId, { entity: 'queueIntegration', data: { action: 'delete', integrationId: found.id } });
  }
}

export interface TestSessionResult {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error?: string;
}

/**
 * Calls an integration (a stored one, or the fields of one being edited) with a `test` event and
 * answers what came back: `ok` for a 2xx. An address that is not allowed is a 422, like a bad URL;
 * an endpoint that does not answer is `ok: false` with no status.
 */
export class TestQueueIntegration {
  constructor(private readonly deps: { integrations: QueueIntegrations; conversations: ConversationIntegrations; clock: Clock; ids: IdGenerator }) {}

  async execute(input: QueueIntegrationFields & { readonly actor: Actor; readonly integrationId?: number }): Promise<TestSessionResult> {
    assertAdmin(input.actor);
    const companyId = input.actor.companyId;
    const stored = input.integrationId !== undefined ? await findIntegration(this.deps.integrations, companyId, input.integrationId) : null;
    const target = {
      name: input.name !== undefined ? cleanIntegrationName(input.name) : (stored?.name ?? 'test'),
      type: input.type !== undefined ? cleanIntegrationType(input.type) : (stored?.type ?? 'webhook'),
      url: input.url !== undefined ? cleanIntegrationUrl(input.url) : (stored?.url ?? cleanIntegrationUrl('')),
      token: input.token !== undefined ? cleanCredential(input.token) : (stored?.token ?? null),
      secret: input.secret !== undefined ? cleanCredential(input.secret) : (stored?.secret ?? null),
    };
    const deliveryId = this.deps.ids.uuid();
    const payload = {
      event: 'test',
      deliveryId,
      companyId,
      integration: { id: stored?.id ?? null, name: target.name, type: target.type },
      sentAt: this.deps.clock.now().toISOString(),
    };
    try {
      const { status } = await this.deps.conversations.post({
        url: target.url,
        token: target.token,
        secret: target.secret,
        deliveryId,
        event: 'test',
        payload,
      });
      return { ok: status >= 200 && status < 300, status };
    } catch (err) {
      if (err instanceof ServiceUnavailableError) return { ok: false, status: null, error: err.code };
      throw err;
    }
  }
}

import type { Connection } from '../connections/connection.js';
import type { Contact } from '../contacts/contact.js';
import type { Message } from '../messages/message.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Outbox } from '../outbox/ports.js';
import { ServiceUnavailableError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator } from '../shared/ports.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import type { ConversationIntegrations, QueueIntegrations } from '../queues/ports.js';

/** The subject of deliveries to one integration, consumed by the backend itself. */
export const integrationDeliverSubject = (integrationId: number) => `cmd.integration.deliver.${integrationId}`;
export const INTEGRATION_DELIVER_SUBJECTS = 'cmd.integration.deliver.>';

/** Command: hand one inbound message to the integration of the ticket's queue. */
export interface IntegrationDeliver {
  readonly type: 'IntegrationDeliver';
  readonly deliveryId: string;
  readonly companyId: number;
  readonly integrationId: number;
  readonly event: 'message.inbound';
  /** What the integration receives, captured when the message arrived. */
  readonly data: {
    readonly ticket: { id: number; uuid: string; status: string; queueId: number | null; connectionId: number; contactId: number; isGroup: boolean };
    readonly contact: { id: number; name: string; number: string };
    readonly connection: { id: number; name: string };
    readonly message: { id: string; body: string; providerMessageId: string | null; createdAt: string };
  };
}

/**
 * Writes the delivery of an inbound message to the outbox, in the caller's transaction: it goes
 * out after the commit through the relay and the broker, and survives a restart in between.
 */
export async function enqueueIntegrationDelivery(
  deps: { outbox: Outbox; ids: IdGenerator; clock: Clock },
  input: { integrationId: number; connection: Connection; contact: Contact; ticket: Ticket; message: Message },
): Promise<void> {
  const { ticket, contact, connection, message } = input;
  const deliveryId = deps.ids.uuid();
  const command: IntegrationDeliver = {
    type: 'IntegrationDeliver',
    deliveryId,
    companyId: ticket.companyId,
    integrationId: input.integrationId,
    event: 'message.inbound',
    data: {
      ticket: {
        id: ticket.id,
        uuid: ticket.uuid,
        status: ticket.status,
        queueId: ticket.queueId,
        connectionId: ticket.connectionId,
        contactId: ticket.contactId,
        isGroup: ticket.isGroup,
      },
      contact: { id: contact.id, name: contact.name, number: contact.number },
      connection: { id: connection.id, name: connection.name },
      message: { id: message.id, body: message.body, providerMessageId: message.providerMessageId, createdAt: message.createdAt.toISOString() },
    },
  };
  await deps.outbox.add({ id: deliveryId, subject: integrationDeliverSubject(input.integrationId), payload: command, createdAt: deps.clock.now() });
}

export type DeliveryOutcome = 'delivered' | 'rejected' | 'refused' | 'dropped';

/** A failure worth another try: the broker redelivers the command after a delay, a bounded number of times. */
export class RetryableDeliveryError extends ServiceUnavailableError {}

/**
 * Posts one delivery to its integration, read again now (its URL or credentials may have changed).
 * Retried (by throwing): no answer, 408, 429 and 5xx. Final: 2xx `delivered`, other statuses
 * `rejected`, an address that is not allowed `refused`, an integration that is gone or a plan
 * without integrations `dropped`.
 */
export class DeliverIntegrationEvent {
  constructor(private readonly deps: { integrations: QueueIntegrations; conversations: ConversationIntegrations; planGuard: PlanGuard }) {}

  async execute(command: IntegrationDeliver): Promise<DeliveryOutcome> {
    const integration = await this.deps.integrations.findById(command.companyId, command.integrationId);
    if (!integration) return 'dropped';
    const plan = await this.deps.planGuard.planOf(command.companyId).catch(() => null);
    if (!plan?.features.integrations) return 'dropped';
    const payload = {
      event: command.event,
      deliveryId: command.deliveryId,
      companyId: command.companyId,
      integration: { id: integration.id, name: integration.name, type: integration.type },
      ...command.data,
    };
    let status: number;
    try {
      ({ status } = await this.deps.conversations.post({
        url: integration.url,
        token: integration.token,
        secret: integration.secret,
        deliveryId: command.deliveryId,
        event: command.event,
        payload,
      }));
    } catch (err) {
      if (err instanceof ValidationError) return 'refused';
      if (err instanceof ServiceUnavailableError) throw new RetryableDeliveryError(err.code);
      throw err;
    }
    if (status >= 200 && status < 300) return 'delivered';
    if (status === 408 || status === 429 || status >= 500) throw new RetryableDeliveryError('ERR_INTEGRATION_RETRY', { status });
    return 'rejected';
  }
}

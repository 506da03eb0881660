import type { Actor } from '../shared/actor.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Connection } from '../connections/connection.js';
import { visibleConnection } from '../connections/connection-rules.js';
import type { Connections } from '../connections/ports.js';
import type { Users } from '../identity/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { visibleTicket } from '../tickets/ticket-access.js';
import {
  assertSendable,
  parameterCounts,
  renderBizchatTemplate,
  templateSend,
  type BizchatTemplate,
  type TemplateParameters,
  type TemplateSend,
} from './bizchat-template.js';
import type { BizchatNumbers, BizchatTemplates, TemplateDirectory } from './ports.js';
import type { ProviderEvent } from '../connections/accept-provider-events.js';

/** How long the stored list answers without asking the provider again. */
export const TEMPLATE_CACHE_MS = 10 * 60 * 1000;

/** A template on the wire: the provider's id as `id`, and what a send must fill as `variables`. */
export interface BizchatTemplateView {
  readonly id: string;
  readonly name: string;
  readonly language: string;
  readonly status: string;
  readonly category: string;
  readonly parameterFormat: 'POSITIONAL' | 'NAMED';
  readonly components: BizchatTemplate['components'];
  readonly variables: { readonly header: number; readonly headerFormat: string | null; readonly body: readonly string[]; readonly buttons: readonly number[] };
}

function toView(t: BizchatTemplate): BizchatTemplateView {
  return {
    id: t.metaId,
    name: t.name,
    language: t.language,
    status: t.status,
    category: t.category,
    parameterFormat: t.parameterFormat,
    components: t.components,
    variables: t.parameters,
  };
}

interface TemplateDeps {
  connections: Connections;
  templates: BizchatTemplates;
  directory: TemplateDirectory;
  tx: Transaction;
  clock: Clock;
}

async function bizchatConnection(connections: Connections, actor: Actor, chatappId: number): Promise<Connection> {
  const connection = await visibleConnection(connections, actor, chatappId);
  if (connection.kind !== 'bizchat') throw new ValidationError('ERR_NOT_BIZCHAT_CONNECTION');
  return connection;
}

/** Reads the business account's templates from the provider and stores them as the connection's. */
async function syncTemplates(deps: Omit<TemplateDeps, 'connections'>, connection: Connection): Promise<BizchatTemplate[]> {
  const wabaId = connection.secrets.wabaId;
  const accessToken = connection.secrets.accessToken;
  if (!wabaId || !accessToken) throw new ValidationError('ERR_BIZCHAT_ACCOUNT_INCOMPLETE');
  const listed = await deps.directory.list({ wabaId, accessToken });
  const now = deps.clock.now();
  return deps.tx.run(() =>
    deps.templates.replaceAll(
      connection.companyId,
      connection.id,
      listed.map((t) => ({
        companyId: connection.companyId,
        connectionId: connection.id,
        wabaId,
        metaId: t.id,
        name: t.name,
        language: t.language,
        status: t.status,
        category: t.category,
        parameterFormat: t.parameterFormat,
        components: t.components,
        parameters: parameterCounts(t.components),
        syncedAt: now,
      })),
    ),
  );
}

export interface ListBizchatTemplatesInput {
  readonly actor: Actor;
  readonly chatappId: number;
  /** Asks the provider now instead of answering the stored list. */
  readonly refresh?: boolean;
}

/**
 * A bizchat connection's templates, for every operator of its company: the stored list while it is
 * younger than `TEMPLATE_CACHE_MS`, else (or on `refresh`) the provider's, stored in its place. An
 * expired list is still answered when the provider cannot be asked and no refresh was requested.
 */
export class ListBizchatTemplates {
  constructor(private readonly deps: TemplateDeps) {}

  async execute(input: ListBizchatTemplatesInput): Promise<{ templates: BizchatTemplateView[]; syncedAt: string | null }> {
    const connection = await bizchatConnection(this.deps.connections, input.actor, input.chatappId);
    let templates = await this.deps.templates.list(connection.companyId, connection.id);
    const syncedAt = templates.reduce<Date | null>((min, t) => (!min || t.syncedAt < min ? t.syncedAt : min), null);
    const stale = !syncedAt || this.deps.clock.now().getTime() - syncedAt.getTime() > TEMPLATE_CACHE_MS;
    if (input.refresh || stale) {
      try {
        templates = await syncTemplates(this.deps, connection);
      } catch (err) {
        if (input.refresh || !templates.length || !(err instanceof DomainError) || err.code !== 'ERR_BIZCHAT_PROVIDER_UNAVAILABLE') throw err;
      }
    }
    const at = templates.reduce<Date | null>((min, t) => (!min || t.syncedAt < min ? t.syncedAt : min), null);
    return { templates: templates.map(toView), syncedAt: at?.toISOString() ?? (input.refresh || stale ? this.deps.clock.now().toISOString() : null) };
  }
}

/** Sends a text through the one send path to a ticket's contact (the operators' send). */
export interface TicketTemplateSender {
  execute(input: {
    actor: Actor;
    ticketId: number;
    body: string;
    template: TemplateSend;
  }): Promise<{ messages: ReadonlyArray<{ id: string }>; ticket: { id: number } }>;
}

/** Sends a text through the one send path to a number on a connection (the message API's send). */
export interface NumberTemplateSender {
  execute(input: {
    connection: Connection;
    number: string;
    body: string;
    userId: number;
    template: TemplateSend;
  }): Promise<{ ticketId: number; messageId: string }>;
}

export interface SendBizchatTemplateInput {
  readonly actor: Actor;
  readonly ticketId?: number;
  readonly chatappId?: number;
  readonly number?: string;
  readonly templateName: string;
  readonly language: string;
  readonly parameters: TemplateParameters;
}

export interface SendBizchatTemplateResult {
  readonly ticketId: number;
  readonly messageId: string;
  /** The text stored in the conversation. */
  readonly body: string;
  readonly template: { readonly name: string; readonly language: string };
}

/**
 * Sends an approved template to a ticket's contact or to a number on a bizchat connection (the
 * only way to reach a contact outside the 24-hour window). The values are checked against the stored
 * definition (read from the provider once if the template is not stored yet); the conversation keeps
 * the rendered text and the send command carries the template for the connector.
 */
export class SendBizchatTemplate {
  constructor(
    private readonly deps: {
      connections: Connections;
      tickets: Tickets;
      users: Users;
      /** The connection's templates, stored or fetched. */
      book: BizchatTemplateBook;
      toTicket: TicketTemplateSender;
      toNumber: NumberTemplateSender;
    },
  ) {}

  async execute(input: SendBizchatTemplateInput): Promise<SendBizchatTemplateResult> {
    const { actor } = input;
    let connection: Connection;
    if (input.ticketId !== undefined) {
      const ticket = await visibleTicket(this.deps, actor, input.ticketId);
      const found = await this.deps.connections.findById(ticket.companyId, ticket.connectionId);
      if (!found) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
      if (found.kind !== 'bizchat') throw new ValidationError('ERR_NOT_BIZCHAT_CONNECTION');
      connection = found;
    } else if (input.chatappId !== undefined && input.number !== undefined) {
      connection = await bizchatConnection(this.deps.connections, actor, input.chatappId);
    } else {
      throw new ValidationError('ERR_BIZCHAT_RECIPIENT_REQUIRED');
    }
    const template = await this.deps.book.find(connection, input.templateName, input.language);
    assertSendable(template, input.parameters);
    const body = renderBizchatTemplate(template, input.parameters);
    const send = templateSend(template, input.parameters);
    const sent =
      input.ticketId !== undefined
        ? await this.deps.toTicket
            .execute({ actor, ticketId: input.ticketId, body, template: send })
            .then((r) => ({ ticketId: r.ticket.id, messageId: r.messages[0]!.id }))
        : await this.deps.toNumber.execute({ connection, number: input.number!, body, userId: actor.userId, template: send });
    return { ...sent, body, template: { name: template.name, language: template.language } };
  }
}

/** A connection's templates: the stored copy, else the provider's list fetched and stored again. */
export class BizchatTemplateBook {
  constructor(private readonly deps: Omit<TemplateDeps, 'connections'>) {}

  /** The template of that name and language (404 `ERR_BIZCHAT_TEMPLATE_NOT_FOUND` when the provider has none either). */
  async find(connection: Connection, name: string, language: string): Promise<BizchatTemplate> {
    const stored = await this.deps.templates.find(connection.companyId, connection.id, name, language);
    if (stored) return stored;
    const fresh = (await syncTemplates(this.deps, connection)).find((t) => t.name === name && t.language === language);
    if (!fresh) throw new NotFoundError('ERR_BIZCHAT_TEMPLATE_NOT_FOUND');
    return fresh;
  }
}

/** A template status webhook (`message_template_status_update`): the stored copies follow the provider's review. */
export class ApplyTemplateStatus {
  constructor(private readonly deps: { templates: BizchatTemplates; clock: Clock }) {}

  async execute(input: { wabaId: string; metaId: string | null; name: string; language: string; event: string }): Promise<number> {
    const event = input.event.toUpperCase();
    // A flag warns about quality and changes nothing yet; a reinstated template may be sent again.
    if (event === 'FLAGGED') return 0;
    const status = event === 'REINSTATED' ? 'APPROVED' : event;
    return this.deps.templates.setStatus(input.wabaId, { metaId: input.metaId, name: input.name, language: input.language }, status, this.deps.clock.now());
  }
}

/** Providers' events for their connections, recorded at once (the messaging spine's `acceptProviderEvents`). */
export interface ProviderEventSink {
  execute(deliveries: ReadonlyArray<{ readonly ref: { readonly id: number }; readonly events: readonly ProviderEvent[] }>): Promise<number>;
}

/**
 * A signed delivery of the business API names its numbers by the provider's phone-number id: their
 * messages and statuses go to those bizchat connections, recorded together; an unknown number's are
 * skipped (not counted).
 */
export class AcceptBizchatEvents {
  constructor(private readonly deps: { numbers: BizchatNumbers; sink: ProviderEventSink }) {}

  async execute(numbers: ReadonlyArray<{ readonly phoneNumberId: string; readonly events: readonly ProviderEvent[] }>): Promise<number> {
    const deliveries = [];
    for (const { phoneNumberId, events } of numbers) {
      const connection = await this.deps.numbers.connectionOfPhoneNumber(phoneNumberId);
      if (connection) deliveries.push({ ref: { id: connection.id }, events });
    }
    return deliveries.length ? this.deps.sink.execute(deliveries) : 0;
  }
}

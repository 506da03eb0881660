import type { BizchatNumbers, BizchatTemplates, TemplateDirectory } from '../bizchat/ports.js';
import type { ServiceWindows } from '../bizchat/service-window.js';
import {
  AcceptBizchatEvents,
  ApplyTemplateStatus,
  BizchatTemplateBook,
  ListBizchatTemplates,
  SendBizchatTemplate,
} from '../bizchat/manage-bizchat-templates.js';
import { AcceptProviderEvents } from '../connections/accept-provider-events.js';
import { RecordEvents } from '../outbox/record-events.js';
import { messageContexts } from '../conversations/message-context.js';
import { TicketPresenter } from '../tickets/ticket-details.js';
import { TicketJournal } from '../tickets/ticket-journal.js';
import { apiSend, operatorSend, sendPath, type MessagingPorts } from './messaging.js';
import type { SharedPorts } from './shared-ports.js';
import { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import { IdempotentSends } from '../conversations/idempotent-sends.js';
import { SendingRules } from '../conversations/sending-rules.js';

/** The business channel's own ports. */
export interface BizchatPorts {
  readonly bizchatTemplates: BizchatTemplates;
  readonly templateDirectory: TemplateDirectory;
  readonly bizchatNumbers: BizchatNumbers;
  /** Also the messaging spine's: every free-form send checks the window with it. */
  readonly serviceWindows: ServiceWindows;
}

/**
 * Bizchat templates: the cached list per connection, the template send (through the operators' and
 * the message API's send use cases, over the one send path) and the provider's status updates.
 */
export function createBizchat(p: BizchatPorts & MessagingPorts & SharedPorts) {
  const { connections, contacts, tickets, messages, users, blobs, cache, realtime, tx, clock, ids, queues } = p;
  const { outbound, outbox } = sendPath(p);
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags: p.tags, queues });
  const contexts = messageContexts({ tickets, contacts, queues, messages });
  const announcer = new ConversationAnnouncer({ presenter, realtime, contexts });
  const idempotent = new IdempotentSends({ cache, idempotencyKeys: p.idempotencyKeys });
  const journal = new TicketJournal({ tickets, ticketLogs: p.ticketLogs, tracking: p.ticketTracking, clock });
  const rules = new SendingRules({ suspensions: p.companySuspensions, windows: p.serviceWindows });
  const templateDeps = { connections, templates: p.bizchatTemplates, directory: p.templateDirectory, tx, clock };
  return {
    listBizchatTemplates: new ListBizchatTemplates(templateDeps),
    sendBizchatTemplate: new SendBizchatTemplate({
      connections,
      book: new BizchatTemplateBook({ templates: p.bizchatTemplates, directory: p.templateDirectory, tx, clock }),
      tickets,
      users,
      toTicket: operatorSend(p, outbound, journal, { announcer, idempotent, rules }).sendTicketMessage,
      toNumber: apiSend(p, outbound, { announcer, idempotent, rules }),
    }),
    applyTemplateStatus: new ApplyTemplateStatus({ templates: p.bizchatTemplates, clock }),
    acceptBizchatEvents: new AcceptBizchatEvents({
      numbers: p.bizchatNumbers,
      sink: new AcceptProviderEvents({ connections, record: new RecordEvents({ outbox, clock }), clock }),
    }),
  };
}
export type BizchatApi = ReturnType<typeof createBizchat>;

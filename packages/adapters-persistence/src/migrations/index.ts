import { M0001Foundation } from './m0001-foundation.js';
import { M0002CompanyApi } from './m0002-company-api.js';
import { M0003Messaging } from './m0003-messaging.js';
import { M0004TicketLogs } from './m0004-ticket-logs.js';
import { M0005Contacts } from './m0005-contacts.js';
import { M0006Tags } from './m0006-tags.js';
import { M0007Queues } from './m0007-queues.js';
import { M0008PendingSends } from './m0008-pending-sends.js';
import { M0009Jobs } from '../jobs/m0009-jobs.js';
import { M0010RefreshGrace } from '../identity/m0010-refresh-grace.js';
import { M0011UniquePageIds } from '../messaging/m0011-unique-page-ids.js';
import { M0013UserFlags } from '../identity/m0013-user-flags.js';
import { M0021MessageTranscription } from '../messaging/m0021-message-transcription.js';
import { M0020TicketTracking } from '../dashboards/m0020-ticket-tracking.js';
import { M0025PromptLinks } from './m0025-prompt-links.js';
import { M0034CloudapiProvider } from './m0034-cloudapi-provider.js';
import { M0036UniqueBizchatNumbers } from '../messaging/m0036-unique-bizchat-numbers.js';
import { M0037PairingCode } from './m0037-pairing-code.js';
import { M0038MessageKind } from '../messaging/m0038-message-kind.js';

/** Applied in this order; never edit a released migration, add the next one. */
export const BACKEND_MIGRATIONS = [
  { name: 'm0001-foundation', class: M0001Foundation },
  { name: 'm0002-company-api', class: M0002CompanyApi },
  { name: 'm0003-messaging', class: M0003Messaging },
  { name: 'm0004-ticket-logs', class: M0004TicketLogs },
  { name: 'm0005-contacts', class: M0005Contacts },
  { name: 'm0006-tags', class: M0006Tags },
  { name: 'm0007-queues', class: M0007Queues },
  { name: 'm0008-pending-sends', class: M0008PendingSends },
  { name: 'm0009-jobs', class: M0009Jobs },
  { name: 'm0010-refresh-grace', class: M0010RefreshGrace },
  { name: 'm0011-unique-page-ids', class: M0011UniquePageIds },
  { name: 'm0013-user-flags', class: M0013UserFlags },
  { name: 'm0020-ticket-tracking', class: M0020TicketTracking },
  { name: 'm0021-message-transcription', class: M0021MessageTranscription },
  { name: 'm0025-prompt-links', class: M0025PromptLinks },
  { name: 'm0034-cloudapi-provider', class: M0034CloudapiProvider },
  { name: 'm0036-unique-bizchat-numbers', class: M0036UniqueBizchatNumbers },
  { name: 'm0037-pairing-code', class: M0037PairingCode },
  { name: 'm0038-message-kind', class: M0038MessageKind },
];

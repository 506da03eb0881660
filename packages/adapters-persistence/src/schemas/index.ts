import { RefreshSessionSchema, UserSchema } from './identity.js';
import { CompanySettingSchema, GlobalSettingSchema } from './settings.js';
import { CompanySchema, PlanSchema } from './tenancy.js';
import { HelpSchema, InvoiceSchema, PartnerSchema } from './company-api.js';
import { ConnectionSchema, ContactSchema, MessageSchema, OutboxSchema, TicketSchema } from './messaging.js';
import { TicketLogSchema } from './ticket-logs.js';
import { ContactTagSchema, TagSchema, TicketTagSchema } from './tags.js';
import { ContactIdentifierSchema } from './contacts.js';
import { JobSchema } from '../jobs/schema.js';
import { ConnectionQueueSchema, QueueIntegrationSchema, QueueOptionSchema, QueueSchema, QueueUserSchema } from './queues.js';

/** Every entity schema of the backend; new schemas are added here and in a migration. */
export const BACKEND_SCHEMAS = [PlanSchema, CompanySchema, UserSchema, RefreshSessionSchema, CompanySettingSchema, GlobalSettingSchema, HelpSchema, PartnerSchema, InvoiceSchema, ConnectionSchema, ContactSchema, TicketSchema, MessageSchema, OutboxSchema, TicketLogSchema, TagSchema, TicketTagSchema, ContactTagSchema, ContactIdentifierSchema, QueueSchema, QueueOptionSchema, QueueIntegrationSchema, QueueUserSchema, ConnectionQueueSchema, JobSchema];

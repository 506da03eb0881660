import { RefreshSessionSchema, UserSchema } from './identity/schema.js';
import { CompanySettingSchema, GlobalSettingSchema } from './settings/schema.js';
import { CompanySchema, PlanSchema } from './tenancy/schema.js';
import { HelpSchema, InvoiceSchema, PartnerSchema } from './company-api/schema.js';
import { ConnectionSchema, ContactSchema, MessageSchema, OutboxSchema, TicketSchema } from './messaging/schema.js';
import { TicketLogSchema } from './messaging/ticket-log-schema.js';
import { ContactTagSchema, TagSchema, TicketTagSchema } from './tags/schema.js';
import { ContactIdentifierSchema } from './contacts/schema.js';
import { JobSchema } from './jobs/schema.js';
import { DASHBOARD_SCHEMAS } from './dashboards/schema.js';
import { ConnectionQueueSchema, QueueIntegrationSchema, QueueOptionSchema, QueueSchema, QueueUserSchema } from './queues/schema.js';

/** Every entity schema of the backend; new schemas are added here and in a migration. */
export const BACKEND_SCHEMAS = [
  PlanSchema,
  CompanySchema,
  UserSchema,
  RefreshSessionSchema,
  CompanySettingSchema,
  GlobalSettingSchema,
  HelpSchema,
  PartnerSchema,
  InvoiceSchema,
  ConnectionSchema,
  ContactSchema,
  TicketSchema,
  MessageSchema,
  OutboxSchema,
  TicketLogSchema,
  TagSchema,
  TicketTagSchema,
  ContactTagSchema,
  ContactIdentifierSchema,
  QueueSchema,
  QueueOptionSchema,
  QueueIntegrationSchema,
  QueueUserSchema,
  ConnectionQueueSchema,
  JobSchema,
  ...DASHBOARD_SCHEMAS,
];

import { renderMessage } from '@servicedesk/core/schedules/message-variables';

/** The `{{…}}` variables a company template's text takes, in the order the help lists them (docs/features/company-templates.md). */
export const TEMPLATE_VARIABLES = [
  'firstName',
  'name',
  'userName',
  'ms',
  'hour',
  'date',
  'data_hora',
  'ticket_id',
  'protocol',
  'queue',
  'connection',
  'name_company',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** The sample conversation the preview fills the variables from (the server fills them from the ticket when sent). */
export interface SampleFacts {
  readonly contactName: string;
  readonly userName: string;
  readonly queueName: string;
  readonly connectionName: string;
  readonly companyName: string;
}

/** The sample ticket number the preview shows. */
export const SAMPLE_TICKET_ID = 1024;

/**
 * The text as a conversation would read it: the server's own rendering (core's `renderMessage`)
 * with sample values, at `at` on the browser's clock; a variable it does not know stays as written.
 */
export function previewTemplate(text: string, facts: SampleFacts, at: Date, timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  return renderMessage(text, { ...facts, ticketId: SAMPLE_TICKET_ID, at, timeZone });
}

/**
 * The text with `{{variable}}` put in at the caret (`start`–`end` selected), and where the caret goes after it.
 */
export function insertVariable(text: string, variable: string, start: number, end: number): { text: string; caret: number } {
  const token = `{{${variable}}}`;
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}

import type { CampaignMedia } from './campaign.js';

/**
 * Where one recipient stands. `sent` means accepted by the send path (the message and its command
 * are committed); the channel's acknowledgements move it on to `delivered` and `read`, or to
 * `failed` with the connector's reason. `skipped` recipients were never sent (blocked, suppressed,
 * known invalid, a stop word, no confirmation), with the reason.
 */
export const RECIPIENT_STATES = ['pending', 'sent', 'delivered', 'read', 'failed', 'skipped'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

/** Why a recipient was skipped (the report shows them). */
export type SkipReason = 'blocked' | 'suppressed' | 'invalid-number' | 'stop-word' | 'no-confirmation' | 'no-message';

/** With confirmation on, a recipient first gets the question (`confirmation`), then, once they said yes, the message. */
export type RecipientStage = 'confirmation' | 'message';

export interface CampaignRecipient {
  id: number;
  companyId: number;
  campaignId: number;
  /** The connection that sends to this recipient (the campaign's, snapshotted). */
  connectionId: number;
  /** Canonical number (a Brazilian mobile with its ninth digit): unique per campaign. */
  number: string;
  name: string;
  /** The CRM contact with this number when one exists, and the list item the recipient came from. */
  contactId: number | null;
  listItemId: number | null;
  /** `{nome}`, `{email}`, `{numero}`, the list's extra columns and the company variables, as they were at start. */
  variables: Record<string, string>;
  /** The chosen variant (1..5) and its rendered text. */
  variant: number;
  body: string;
  /** The rendered confirmation question (null without confirmation). */
  confirmationBody: string | null;
  media: CampaignMedia | null;
  stage: RecipientStage;
  state: RecipientState;
  /** Why it failed (the connector's reason) or was skipped. */
  reason: string | null;
  /** Not claimed before this moment (a retry after a transient error, a confirmed message). */
  dueAt: Date;
  /** A dispatcher holds the recipient until then; a dead one's claim lapses. */
  claimedUntil: Date | null;
  attempts: number;
  /** The message of the current stage (for the channel's acknowledgements). */
  messageId: string | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  confirmationRequestedAt: Date | null;
  confirmedAt: Date | null;
  /** A question not answered by then counts as no (`skipped`, `no-confirmation`). */
  awaitingUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewRecipient = Omit<CampaignRecipient, 'id'>;

/** Whether the recipient waits for a yes to the confirmation question. */
export function isAwaitingConfirmation(r: CampaignRecipient): boolean {
  return r.stage === 'confirmation' && (r.state === 'sent' || r.state === 'delivered' || r.state === 'read');
}

/** Counts per state, and per reason for failed and skipped ones (the report and the progress frames). */
export interface CampaignProgress {
  readonly total: number;
  readonly pending: number;
  readonly sent: number;
  readonly delivered: number;
  readonly read: number;
  readonly failed: number;
  readonly skipped: number;
  /** Asked and still waiting for an answer (counted in sent/delivered/read too). */
  readonly awaitingConfirmation: number;
  readonly confirmationRequested: number;
  readonly confirmed: number;
  readonly failedByReason: Record<string, number>;
  readonly skippedByReason: Record<string, number>;
}

/** The progress of a set of recipients (what an adapter's `progress` must answer; SQL groups instead). */
export function progressOf(recipients: readonly CampaignRecipient[]): CampaignProgress {
  const counts = { pending: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 };
  const failedByReason: Record<string, number> = {};
  const skippedByReason: Record<string, number> = {};
  let awaitingConfirmation = 0;
  let confirmationRequested = 0;
  let confirmed = 0;
  for (const r of recipients) {
    counts[r.state]++;
    if (r.state === 'failed') failedByReason[r.reason ?? 'unknown'] = (failedByReason[r.reason ?? 'unknown'] ?? 0) + 1;
    if (r.state === 'skipped') skippedByReason[r.reason ?? 'unknown'] = (skippedByReason[r.reason ?? 'unknown'] ?? 0) + 1;
    if (isAwaitingConfirmation(r)) awaitingConfirmation++;
    if (r.confirmationRequestedAt) confirmationRequested++;
    if (r.confirmedAt) confirmed++;
  }
  return { total: recipients.length, ...counts, awaitingConfirmation, confirmationRequested, confirmed, failedByReason, skippedByReason };
}

/** `{key}` placeholders replaced by the variables (case-insensitive keys); unknown ones are left as written. */
export function renderTemplate(text: string, variables: Record<string, string>): string {
  const lower = new Map(Object.entries(variables).map(([k, v]) => [k.toLowerCase(), v]));
  return text.replace(/\{([^{}\s]{1,64})\}/g, (whole, key: string) => lower.get(key.toLowerCase()) ?? whole);
}

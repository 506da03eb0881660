/**
 * A campaign: one message (in up to five variants) sent to an audience through one connection,
 * paced so that it never blasts. Statuses keep the lineage's wire values; `PAUSADA` and `FALHOU`
 * are ours (the lineage has neither a pause nor a failed state).
 */
export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'PAUSADA', 'CANCELADA', 'FINALIZADA', 'FALHOU'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** What may happen to a campaign; each moves it from some statuses to one. */
export type CampaignAction = 'schedule' | 'unschedule' | 'start' | 'pause' | 'resume' | 'cancel' | 'restart' | 'complete' | 'fail';

/**
 * The state machine: draft (`INATIVA`) → scheduled (`PROGRAMADA`) → running (`EM_ANDAMENTO`)
 * ⇄ paused (`PAUSADA`) → completed (`FINALIZADA`) | cancelled (`CANCELADA`) | failed (`FALHOU`).
 * `restart` (the lineage's) runs a cancelled or failed campaign again: recipients already sent
 * stay sent, the pending ones go on.
 */
export const TRANSITIONS: Readonly<Record<CampaignAction, { readonly from: readonly CampaignStatus[]; readonly to: CampaignStatus }>> = {
  schedule: { from: ['INATIVA'], to: 'PROGRAMADA' },
  unschedule: { from: ['PROGRAMADA'], to: 'INATIVA' },
  start: { from: ['INATIVA', 'PROGRAMADA'], to: 'EM_ANDAMENTO' },
  pause: { from: ['EM_ANDAMENTO'], to: 'PAUSADA' },
  resume: { from: ['PAUSADA'], to: 'EM_ANDAMENTO' },
  cancel: { from: ['PROGRAMADA', 'EM_ANDAMENTO', 'PAUSADA'], to: 'CANCELADA' },
  restart: { from: ['CANCELADA', 'FALHOU'], to: 'EM_ANDAMENTO' },
  complete: { from: ['EM_ANDAMENTO'], to: 'FINALIZADA' },
  fail: { from: ['PROGRAMADA', 'EM_ANDAMENTO', 'PAUSADA'], to: 'FALHOU' },
};

/** The status `action` leads to from `status`, or null when the machine does not allow it. */
export function nextStatus(status: CampaignStatus, action: CampaignAction): CampaignStatus | null {
  const t = TRANSITIONS[action];
  return t.from.includes(status) ? t.to : null;
}

/** Whether `status` may still send (only running campaigns do). */
export function isSending(status: CampaignStatus): boolean {
  return status === 'EM_ANDAMENTO';
}

/** Whether the campaign's content and audience may still be edited (before it ever ran). */
export function isEditable(status: CampaignStatus): boolean {
  return status === 'INATIVA' || status === 'PROGRAMADA';
}

export function isCampaignStatus(value: string): value is CampaignStatus {
  return (CAMPAIGN_STATUSES as readonly string[]).includes(value);
}

export interface CampaignMedia {
  /** The blob key of the attachment (one for all variants). */
  readonly path: string;
  /** The file's original name, shown and sent as the file name. */
  readonly name: string;
  /** Its media type, as stored (sent with it), and its size in bytes. */
  readonly contentType: string;
  readonly size: number;
}

export interface Campaign {
  id: number;
  companyId: number;
  name: string;
  /** Variants of the message; a non-empty one is chosen at random per recipient. */
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  /** Variants of the opt-in question sent first when `confirmation` is on. */
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  confirmation: boolean;
  status: CampaignStatus;
  scheduledAt: Date | null;
  completedAt: Date | null;
  media: CampaignMedia | null;
  /** Audience: a contact list and/or every contact carrying a tag (at least one of them). */
  contactListId: number | null;
  tagListId: number | null;
  /** The sending connection. */
  chatappId: number | null;
  /** Owner and queue of the tickets a campaign opens (`openTicket`), and their status. */
  userId: number | null;
  queueId: number | null;
  statusTicket: 'open' | 'pending' | 'closed';
  openTicket: 'enabled' | 'disabled';
  /** When the recipients were materialised (once, at the first start); null before. */
  materializedAt: Date | null;
  /** Why the campaign ended `FALHOU`. */
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewCampaign = Omit<Campaign, 'id'>;

const MESSAGE_KEYS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
const CONFIRMATION_KEYS = ['confirmationMessage1', 'confirmationMessage2', 'confirmationMessage3', 'confirmationMessage4', 'confirmationMessage5'] as const;

/** The non-empty message variants with their number (1..5). */
export function messageVariants(c: Campaign): Array<{ index: number; text: string }> {
  return MESSAGE_KEYS.map((k, i) => ({ index: i + 1, text: c[k] })).filter((v) => v.text.trim() !== '');
}

/** The non-empty confirmation variants with their number (1..5). */
export function confirmationVariants(c: Campaign): Array<{ index: number; text: string }> {
  return CONFIRMATION_KEYS.map((k, i) => ({ index: i + 1, text: c[k] })).filter((v) => v.text.trim() !== '');
}

/** A draft with every optional field at its default; the caller sets what it has. */
export function campaignDefaults(companyId: number, name: string, now: Date): NewCampaign {
  return {
    companyId,
    name,
    message1: '',
    message2: '',
    message3: '',
    message4: '',
    message5: '',
    confirmationMessage1: '',
    confirmationMessage2: '',
    confirmationMessage3: '',
    confirmationMessage4: '',
    confirmationMessage5: '',
    confirmation: false,
    status: 'INATIVA',
    scheduledAt: null,
    completedAt: null,
    media: null,
    contactListId: null,
    tagListId: null,
    chatappId: null,
    userId: null,
    queueId: null,
    statusTicket: 'closed',
    openTicket: 'disabled',
    materializedAt: null,
    failureReason: null,
    createdAt: now,
    updatedAt: now,
  };
}

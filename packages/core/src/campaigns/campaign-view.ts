import type { Campaign, CampaignStatus } from './campaign.js';
import type { CampaignReferenceKind, CampaignReferences } from './ports.js';

export interface NamedRef {
  readonly id: number;
  readonly name: string;
}

/**
 * A campaign as the API and the `campaign` frames show it: every field under the lineage's name,
 * with the names of what it points at (the list page shows `contactList.name` and
 * `chatapp.name` straight from a frame, so frames carry them too).
 */
export interface CampaignView {
  readonly id: number;
  readonly companyId: number;
  readonly name: string;
  readonly message1: string;
  readonly message2: string;
  readonly message3: string;
  readonly message4: string;
  readonly message5: string;
  readonly confirmationMessage1: string;
  readonly confirmationMessage2: string;
  readonly confirmationMessage3: string;
  readonly confirmationMessage4: string;
  readonly confirmationMessage5: string;
  readonly confirmation: boolean;
  readonly status: CampaignStatus;
  readonly scheduledAt: string | null;
  readonly completedAt: string | null;
  /** The attachment's blob key and file name (the lineage's columns), null without one. */
  readonly mediaPath: string | null;
  readonly mediaName: string | null;
  readonly contactListId: number | null;
  readonly tagListId: number | null;
  readonly chatappId: number | null;
  readonly userId: number | null;
  readonly queueId: number | null;
  readonly statusTicket: Campaign['statusTicket'];
  readonly openTicket: Campaign['openTicket'];
  readonly materializedAt: string | null;
  readonly failureReason: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly contactList: NamedRef | null;
  readonly tagList: NamedRef | null;
  readonly chatapp: NamedRef | null;
  readonly user: NamedRef | null;
  readonly queue: NamedRef | null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

const REFS: ReadonlyArray<{ kind: CampaignReferenceKind; field: 'contactListId' | 'tagListId' | 'chatappId' | 'userId' | 'queueId' }> = [
  { kind: 'contactList', field: 'contactListId' },
  { kind: 'tag', field: 'tagListId' },
  { kind: 'connection', field: 'chatappId' },
  { kind: 'user', field: 'userId' },
  { kind: 'queue', field: 'queueId' },
];

/** Builds views, reading the referenced names once per kind for a whole page. */
export class CampaignViews {
  constructor(private readonly references: CampaignReferences) {}

  async view(campaign: Campaign): Promise<CampaignView> {
    return (await this.views(campaign.companyId, [campaign]))[0]!;
  }

  async views(companyId: number, campaigns: readonly Campaign[]): Promise<CampaignView[]> {
    const names = new Map<CampaignReferenceKind, Map<number, string>>();
    for (const { kind, field } of REFS) {
      const ids = [...new Set(campaigns.map((c) => c[field]).filter((id): id is number => id !== null))];
      names.set(kind, ids.length ? await this.references.names(companyId, kind, ids) : new Map());
    }
    const ref = (kind: CampaignReferenceKind, id: number | null): NamedRef | null => {
      const name = id === null ? undefined : names.get(kind)!.get(id);
      return name === undefined ? null : { id: id!, name };
    };
    return campaigns.map((c) => ({
      id: c.id,
      companyId: c.companyId,
      name: c.name,
      message1: c.message1,
      message2: c.message2,
      message3: c.message3,
      message4: c.message4,
      message5: c.message5,
      confirmationMessage1: c.confirmationMessage1,
      confirmationMessage2: c.confirmationMessage2,
      confirmationMessage3: c.confirmationMessage3,
      confirmationMessage4: c.confirmationMessage4,
      confirmationMessage5: c.confirmationMessage5,
      confirmation: c.confirmation,
      status: c.status,
      scheduledAt: iso(c.scheduledAt),
      completedAt: iso(c.completedAt),
      mediaPath: c.media?.path ?? null,
      mediaName: c.media?.name ?? null,
      contactListId: c.contactListId,
      tagListId: c.tagListId,
      chatappId: c.chatappId,
      userId: c.userId,
      queueId: c.queueId,
      statusTicket: c.statusTicket,
      openTicket: c.openTicket,
      materializedAt: iso(c.materializedAt),
      failureReason: c.failureReason,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
      contactList: ref('contactList', c.contactListId),
      tagList: ref('tag', c.tagListId),
      chatapp: ref('connection', c.chatappId),
      user: ref('user', c.userId),
      queue: ref('queue', c.queueId),
    }));
  }
}

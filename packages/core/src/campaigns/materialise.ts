import { canonicalPhone, digitsOf, isPhoneNumber } from '../contacts/phone-numbers.js';
import { confirmationVariants, messageVariants, type Campaign } from './campaign.js';
import { settingsFromRows, type CampaignSettings } from './campaign-settings.js';
import type { RandomSource } from './pacing.js';
import type { AudienceContact, CampaignAudience, CampaignSettingsStore, Suppressions } from './ports.js';
import { renderTemplate, type NewRecipient, type SkipReason } from './recipient.js';

interface Candidate {
  readonly number: string;
  readonly name: string;
  readonly email: string;
  readonly listItemId: number | null;
  readonly columns: Readonly<Record<string, string>>;
  readonly invalid: boolean;
}

function pick<T>(items: readonly T[], random: RandomSource): T {
  return items[Math.min(items.length - 1, Math.floor(random.next() * items.length))]!;
}

/**
 * The campaign's recipients, computed once when it starts: the list's items, then the tag's
 * contacts, deduplicated by canonical number (the first occurrence wins, so list columns are
 * kept); blocked contacts, suppressed numbers and numbers known invalid are kept as `skipped`
 * with the reason (the report shows them), every other one `pending` with its variables, chosen
 * variant, rendered text and media snapshotted.
 */
export async function materialiseRecipients(
  deps: { audience: CampaignAudience; suppressions: Suppressions; random: RandomSource },
  campaign: Campaign,
  settings: CampaignSettings,
  now: Date,
): Promise<NewRecipient[]> {
  const { audience, suppressions, random } = deps;
  const companyId = campaign.companyId;
  const byNumber = new Map<string, Candidate>();
  const offer = (raw: string, c: Omit<Candidate, 'number' | 'invalid'> & { invalid?: boolean }) => {
    const digits = digitsOf(raw);
    const invalid = !isPhoneNumber(digits) || !!c.invalid;
    const number = invalid && !isPhoneNumber(digits) ? `invalid:${raw}` : canonicalPhone(digits);
    if (!byNumber.has(number)) byNumber.set(number, { ...c, number, invalid });
  };
  if (campaign.contactListId !== null) {
    for (const item of await audience.listItems(companyId, campaign.contactListId)) {
      offer(item.number, { name: item.name, email: item.email, listItemId: item.id, columns: item.variables, invalid: item.validity === 'invalid' });
    }
  }
  if (campaign.tagListId !== null) {
    for (const contact of await audience.contactsWithTag(companyId, campaign.tagListId)) {
      if (contact.isGroup) continue;
      offer(contact.number, { name: contact.name, email: contact.email ?? '', listItemId: null, columns: {} });
    }
  }
  const numbers = [...byNumber.values()].filter((c) => !c.invalid).map((c) => c.number);
  const contacts = new Map<string, AudienceContact>();
  for (const c of await audience.contactsByNumbers(companyId, numbers)) contacts.set(canonicalPhone(digitsOf(c.number)), c);
  const suppressed = await suppressions.suppressed(companyId, numbers);
  const variants = messageVariants(campaign);
  const questions = campaign.confirmation ? confirmationVariants(campaign) : [];
  const companyVariables = Object.fromEntries(settings.variables.map((v) => [v.key, v.value]));

  return [...byNumber.values()].map((c) => {
    const contact = contacts.get(c.number) ?? null;
    const reason: SkipReason | null = c.invalid
      ? 'invalid-number'
      : contact?.blocked
        ? 'blocked'
        : suppressed.has(c.number)
          ? 'suppressed'
          : variants.length === 0
            ? 'no-message'
            : null;
    const variables: Record<string, string> = { ...companyVariables, ...c.columns, nome: c.name, name: c.name, email: c.email, numero: c.number };
    const variant = variants.length ? pick(variants, random) : { index: 0, text: '' };
    const question = questions.length ? pick(questions, random) : null;
    return {
      companyId,
      campaignId: campaign.id,
      connectionId: campaign.chatappId!,
      number: c.number,
      name: c.name,
      contactId: contact?.id ?? null,
      listItemId: c.listItemId,
      variables,
      variant: variant.index,
      body: renderTemplate(variant.text, variables),
      confirmationBody: question ? renderTemplate(question.text, variables) : null,
      media: campaign.media,
      stage: question ? 'confirmation' : 'message',
      state: reason ? 'skipped' : 'pending',
      reason,
      dueAt: now,
      claimedUntil: null,
      attempts: 0,
      messageId: null,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      confirmationRequestedAt: null,
      confirmedAt: null,
      awaitingUntil: null,
      createdAt: now,
      updatedAt: now,
    } satisfies NewRecipient;
  });
}

/** The recipients of a campaign that starts: its audience, suppressions and the company's variables, with the variants picked at random. */
export class RecipientMaterialiser {
  constructor(
    private readonly deps: {
      audience: CampaignAudience;
      suppressions: Suppressions;
      settings: Pick<CampaignSettingsStore, 'rows'>;
      random: RandomSource;
    },
  ) {}

  /** The campaign's recipients as of `now` (the company's settings read now). */
  async recipientsOf(campaign: Campaign, now: Date): Promise<NewRecipient[]> {
    return materialiseRecipients(this.deps, campaign, settingsFromRows(await this.deps.settings.rows(campaign.companyId)), now);
  }
}

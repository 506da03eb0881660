import { assertSuper, type Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock } from '../shared/ports.js';
import { cleanCompanyEmail, cleanDocument } from '../tenancy/company-input.js';
import { COMMISSION_TYPES, toPartnerView, type CommissionType, type Partner, type PartnerView } from './partner.js';
import type { Partners } from './ports.js';
import { cleanDecimal, cleanText, optionalText } from './values.js';

export interface PartnerFields {
  readonly name?: string;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly document?: string | null;
  readonly commission?: string | number;
  readonly typeCommission?: CommissionType;
  readonly walletId?: string | null;
}

function applyFields(partner: Partner, fields: PartnerFields): void {
  if (fields.name !== undefined) partner.name = cleanText(fields.name, 'ERR_INVALID_PARTNER_NAME', 2, 120);
  if (fields.email !== undefined) partner.email = cleanCompanyEmail(fields.email);
  if (fields.phone !== undefined) partner.phone = optionalText(fields.phone, 'ERR_INVALID_PARTNER_PHONE', 40);
  if (fields.document !== undefined) partner.document = cleanDocument(fields.document);
  if (fields.commission !== undefined) partner.commission = cleanDecimal(fields.commission, 'ERR_INVALID_PARTNER_COMMISSION');
  if (fields.typeCommission !== undefined) {
    if (!COMMISSION_TYPES.includes(fields.typeCommission)) throw new ValidationError('ERR_INVALID_PARTNER_COMMISSION_TYPE');
    partner.typeCommission = fields.typeCommission;
  }
  if (fields.walletId !== undefined) partner.walletId = optionalText(fields.walletId, 'ERR_INVALID_PARTNER_WALLET', 120);
  // Checked on the result, so that changing only the type cannot leave a 150% commission behind.
  if (partner.typeCommission === 'percent' && Number(partner.commission) > 100) throw new ValidationError('ERR_INVALID_PARTNER_COMMISSION');
}

async function findPartner(partners: Partners, id: number): Promise<Partner> {
  const partner = await partners.findById(id);
  if (!partner) throw new NotFoundError('ERR_NO_PARTNER_FOUND');
  return partner;
}

/** Partners carry commercial terms: only super users read or write them. */
export class ListPartners {
  constructor(private readonly deps: { partners: Partners }) {}

  async execute(input: { actor: Actor; searchParam?: string; pageNumber?: number }) {
    assertSuper(input.actor);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.partners.list({ search: input.searchParam, page });
    return { partners: result.rows.map(toPartnerView), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export class ShowPartner {
  constructor(private readonly deps: { partners: Partners }) {}

  async execute(input: { actor: Actor; partnerId: number }): Promise<PartnerView> {
    assertSuper(input.actor);
    return toPartnerView(await findPartner(this.deps.partners, input.partnerId));
  }
}

export class CreatePartner {
  constructor(private readonly deps: { partners: Partners; clock: Clock }) {}

  async execute(input: PartnerFields & { actor: Actor; name: string }): Promise<PartnerView> {
    assertSuper(input.actor);
    const now = this.deps.clock.now();
    const draft: Partner = {
      id: 0,
      name: '',
      email: null,
      phone: null,
      document: null,
      commission: '0.00',
      typeCommission: 'percent',
      walletId: null,
      createdAt: now,
      updatedAt: now,
    };
    applyFields(draft, input);
    const { id: _unused, ...fields } = draft;
    return toPartnerView(await this.deps.partners.add(fields));
  }
}

export class UpdatePartner {
  constructor(private readonly deps: { partners: Partners; clock: Clock }) {}

  async execute(input: PartnerFields & { actor: Actor; partnerId: number }): Promise<PartnerView> {
    assertSuper(input.actor);
    const partner = await findPartner(this.deps.partners, input.partnerId);
    applyFields(partner, input);
    partner.updatedAt = this.deps.clock.now();
    await this.deps.partners.update(partner);
    return toPartnerView(partner);
  }
}

export class DeletePartner {
  constructor(private readonly deps: { partners: Partners }) {}

  async execute(input: { actor: Actor; partnerId: number }): Promise<void> {
    assertSuper(input.actor);
    const partner = await findPartner(this.deps.partners, input.partnerId);
    await this.deps.partners.remove(partner.id);
  }
}

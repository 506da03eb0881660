import { NotFoundError, ValidationError } from '../shared/errors.js';
import { isValidCnpj, onlyDigits } from './cnpj.js';

export interface CnpjRecord {
  readonly cnpj: string;
  readonly name: string;
  readonly tradeName: string | null;
  readonly status: string | null;
  readonly email: string | null;
  readonly phone: string | null;
  readonly address: Record<string, string | null>;
}

/**
 * The public company registry. Adapters throw ServiceUnavailableError when it cannot be
 * reached and return null when the registry does not know the number.
 */
export interface CompanyRegistry {
  find(cnpj: string): Promise<CnpjRecord | null>;
}

/** Validates the check digits offline first, so a typo never costs a registry call. */
export class LookupCnpj {
  constructor(private readonly deps: { registry: CompanyRegistry }) {}

  async execute(input: { readonly cnpj: string }): Promise<CnpjRecord> {
    if (!isValidCnpj(input.cnpj)) throw new ValidationError('ERR_INVALID_CNPJ');
    const company = await this.deps.registry.find(onlyDigits(input.cnpj));
    if (!company) throw new NotFoundError('ERR_CNPJ_NOT_FOUND');
    return company;
  }
}

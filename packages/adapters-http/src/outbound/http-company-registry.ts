import { ServiceUnavailableError, type CnpjRecord, type CompanyRegistry } from '@servicedesk/core';

/**
 * Looks a CNPJ up in a BrasilAPI-compatible registry (`GET <base>/<cnpj>`). Network failures,
 * timeouts and 5xx answers become ERR_CNPJ_REGISTRY_UNAVAILABLE; 404 means "not registered".
 */
export class HttpCompanyRegistry implements CompanyRegistry {
  constructor(private readonly options: { baseUrl: string; timeoutMs?: number }) {}

  async find(cnpj: string): Promise<CnpjRecord | null> {
    let res: Response;
    try {
      res = await fetch(`${this.options.baseUrl.replace(/\/$/, '')}/${cnpj}`, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000) });
    } catch {
      throw new ServiceUnavailableError('ERR_CNPJ_REGISTRY_UNAVAILABLE');
    }
    if (res.status === 404) return null;
    if (!res.ok) throw new ServiceUnavailableError('ERR_CNPJ_REGISTRY_UNAVAILABLE');
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body) throw new ServiceUnavailableError('ERR_CNPJ_REGISTRY_UNAVAILABLE');
    const text = (k: string) => (typeof body[k] === 'string' && body[k] ? (body[k] as string) : null);
    return {
      cnpj,
      name: text('razao_social') ?? text('name') ?? '',
      tradeName: text('nome_fantasia'),
      status: text('descricao_situacao_cadastral'),
      email: text('email'),
      phone: text('ddd_telefone_1'),
      address: {
        street: text('logradouro'),
        number: text('numero'),
        district: text('bairro'),
        city: text('municipio'),
        state: text('uf'),
        zip: text('cep'),
      },
    };
  }
}

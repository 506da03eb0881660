import { ServiceUnavailableError, ValidationError, type BizchatTemplateComponent, type ProviderTemplate, type TemplateDirectory } from '@servicedesk/core';

/** A business account rarely has more than a few hundred templates; pages beyond this are not read. */
const MAX_PAGES = 20;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface GraphTemplateDirectoryOptions {
  /** The Graph API base, version included (`META_GRAPH_URL`). */
  readonly baseUrl: string;
  readonly timeoutMs?: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Reads a business account's templates: `GET /<waba-id>/message_templates?fields=…` with the access
 * token as a Bearer header, following the `after` cursors. A 4xx (`OAuthException`) refuses the
 * token; no answer, a 5xx or a rate limit is the provider being unavailable.
 */
export class GraphTemplateDirectory implements TemplateDirectory {
  constructor(private readonly o: GraphTemplateDirectoryOptions) {}

  async list(account: { wabaId: string; accessToken: string }): Promise<ProviderTemplate[]> {
    const templates: ProviderTemplate[] = [];
    let after: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ fields: 'id,name,language,status,category,components,parameter_format', limit: '100', ...(after ? { after } : {}) });
      const body = await this.get(`${encodeURIComponent(account.wabaId)}/message_templates?${query}`, account.accessToken);
      for (const t of Array.isArray(body.data) ? body.data : []) {
        if (!isRecord(t) || !str(t.name) || !str(t.language)) continue;
        templates.push({
          id: str(t.id) || `${str(t.name)}:${str(t.language)}`,
          name: str(t.name),
          language: str(t.language),
          status: str(t.status).toUpperCase() || 'PENDING',
          category: str(t.category).toUpperCase() || 'UTILITY',
          parameterFormat: str(t.parameter_format).toUpperCase() === 'NAMED' ? 'NAMED' : 'POSITIONAL',
          components: (Array.isArray(t.components) ? t.components : [])
            .filter(isRecord)
            .map((c) => c as unknown as BizchatTemplateComponent)
            .filter((c) => typeof c.type === 'string'),
        });
      }
      const paging = isRecord(body.paging) ? body.paging : {};
      const cursors = isRecord(paging.cursors) ? paging.cursors : {};
      after = paging.next && str(cursors.after) ? str(cursors.after) : null;
      if (!after) break;
    }
    return templates;
  }

  private async get(path: string, token: string): Promise<Record<string, unknown>> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.o.baseUrl.replace(/\/$/, '')}/${path}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
      });
      text = await res.text();
    } catch {
      throw new ServiceUnavailableError('ERR_BIZCHAT_PROVIDER_UNAVAILABLE');
    }
    let body: unknown = null;
    try {
      body = text.length <= MAX_ANSWER_BYTES ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (res.status === 429 || res.status >= 500 || !isRecord(body)) throw new ServiceUnavailableError('ERR_BIZCHAT_PROVIDER_UNAVAILABLE');
    if (res.status >= 400) throw new ValidationError('ERR_BIZCHAT_TOKEN_INVALID');
    return body;
  }
}

import http from 'node:http';

export interface Reply<T = any> {
  status: number;
  body: T;
}

/** A small JSON client for setting things up (not for load). */
export function api(baseUrl: string, token?: string) {
  async function call<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const init: RequestInit = { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, signal: AbortSignal.timeout(30_000) };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${baseUrl}${url}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T };
  }
  const ok = async <T = any>(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<T> => {
    const res = await call<T>(method, url, body, headers);
    if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return {
    call,
    get: <T = any>(url: string) => ok<T>('GET', url),
    post: <T = any>(url: string, body: unknown = {}, headers?: Record<string, string>) => ok<T>('POST', url, body, headers),
    put: <T = any>(url: string, body: unknown = {}) => ok<T>('PUT', url, body),
  };
}

/**
 * Keep-alive HTTP requests for the paced (open-loop) runs: a bounded pool of sockets, so requests
 * beyond it wait in the agent's queue and that wait counts in their latency.
 */
export class KeepAliveClient {
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;
  constructor(baseUrl: string, maxSockets = 64) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  request(method: string, path: string, headers: Record<string, string>, body?: string, timeoutMs = 30_000): Promise<Reply<string>> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.host,
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error('request timed out')));
      req.on('error', reject);
      req.end(body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

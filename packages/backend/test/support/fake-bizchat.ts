import { createServer, type Server } from 'node:http';

/** A template as Meta's `GET /<waba-id>/message_templates` lists it. */
export interface FakeTemplate { id: string; name: string; language: string; status: string; category: string; components: unknown[]; parameter_format?: string }

export interface FakeBizchat {
  /** The base to give as `META_GRAPH_URL`. */
  readonly url: string;
  /** Every `POST /<phone-number-id>/messages` body, in order. */
  readonly sent: Array<{ path: string; auth: string | undefined; body: any }>;
  /** Business account id → its templates (change at any time). */
  readonly templates: Map<string, FakeTemplate[]>;
  /** How many times the template list was read. */
  listed: number;
  /** Recipient → the Graph error a send to it answers (`{ code, message, details }`). */
  readonly refusals: Map<string, { code: number; message: string; details: string }>;
  close(): Promise<void>;
}

/**
 * A fake Cloud API on loopback for one phone number and its access token, answering in the documented
 * shapes: `GET /<phone-number-id>` (the number), `POST /<phone-number-id>/messages` (`{ messaging_product,
 * contacts: [{ input, wa_id }], messages: [{ id: "wamid…" }] }`, or a Graph error), `GET /<waba-id>/message_templates`.
 */
export async function startFakeBizchat(phoneNumberId: string, token: string): Promise<FakeBizchat> {
  const state = { listed: 0 };
  const sent: FakeBizchat['sent'] = [];
  const templates = new Map<string, FakeTemplate[]>();
  const refusals = new Map<string, { code: number; message: string; details: string }>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://graph');
      const json = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      if (req.headers.authorization !== `Bearer ${token}`) {
        return json(401, { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'fake' } });
      }
      if (req.method === 'GET' && url.pathname === `/v21.0/${phoneNumberId}`) return json(200, { verified_name: 'Loja', display_phone_number: '+55 11 4000-0000', id: phoneNumberId });
      const waba = /^\/v21\.0\/([^/]+)\/message_templates$/.exec(url.pathname)?.[1];
      if (req.method === 'GET' && waba && templates.has(waba)) {
        state.listed++;
        return json(200, { data: templates.get(waba), paging: { cursors: { before: 'QVFI', after: 'QVFJ' } } });
      }
      if (req.method === 'POST' && url.pathname === `/v21.0/${phoneNumberId}/messages`) {
        const body = JSON.parse(raw);
        sent.push({ path: url.pathname, auth: req.headers.authorization, body });
        const refusal = refusals.get(body.to);
        if (refusal) {
          return json(400, { error: { message: refusal.message, type: 'OAuthException', code: refusal.code, error_data: { messaging_product: 'whatsapp', details: refusal.details }, fbtrace_id: 'fake' } });
        }
        return json(200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.OUT${sent.length}` }] });
      }
      json(400, { error: { message: 'Unsupported request', type: 'GraphMethodException', code: 100, fbtrace_id: 'fake' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v21.0`,
    sent, templates, refusals,
    get listed() { return state.listed; },
    set listed(n: number) { state.listed = n; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

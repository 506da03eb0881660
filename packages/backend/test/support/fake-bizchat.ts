import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { graphNumbers, graphToken, type FakeNumber } from './fake-graph.js';

/** A template as Meta's `GET /<waba-id>/message_templates` lists it. */
export interface FakeTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: unknown[];
  parameter_format?: string;
}

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
  /** Phone-number id → its business account and the access token controlling it (add numbers at any time). */
  readonly numbers: Map<string, FakeNumber>;
  /** While true, every request answers 503 as a Graph outage (`code: 2`, transient). */
  down: boolean;
  /**
   * Media id → a file a contact sent: `GET /<media-id>` answers its URL on this fake (with
   * `mime_type`, `sha256`, `file_size`), and that URL its bytes, both with a known token only.
   */
  readonly media: Map<string, { data: Buffer; mimeType: string }>;
  /** The paths of the media requests, with the Authorization header each carried. */
  readonly mediaRequests: Array<{ path: string; auth: string | undefined }>;
  close(): Promise<void>;
}

/** The business account of the fake's first number unless one is given. */
export const FAKE_WABA_ID = '102290129340398';

/**
 * A fake Cloud API on loopback for a phone number of a business account and its access token (more
 * numbers may be added to `numbers`), answering in the documented shapes: `GET /<phone-number-id>` (the
 * number) and `GET /<waba-id>/phone_numbers` (the account's numbers) as `graphNumbers` does,
 * `POST /<phone-number-id>/messages` (`{ messaging_product, contacts: [{ input, wa_id }], messages:
 * [{ id: "wamid…" }] }`, or a Graph error), `GET /<waba-id>/message_templates`.
 */
export async function startFakeBizchat(phoneNumberId: string, token: string, wabaId = FAKE_WABA_ID): Promise<FakeBizchat> {
  const state = { listed: 0, down: false };
  const sent: FakeBizchat['sent'] = [];
  const templates = new Map<string, FakeTemplate[]>();
  const refusals = new Map<string, { code: number; message: string; details: string }>();
  const numbers = new Map<string, FakeNumber>([[phoneNumberId, { wabaId, token }]]);
  const media = new Map<string, { data: Buffer; mimeType: string }>();
  const mediaRequests: FakeBizchat['mediaRequests'] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://graph');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (state.down)
        return json(503, { error: { message: 'Service temporarily unavailable', type: 'OAuthException', is_transient: true, code: 2, fbtrace_id: 'fake' } });
      const bearer = graphToken(req);
      if (![...numbers.values()].some((n) => n.token === bearer)) {
        return json(401, {
          error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'fake' },
        });
      }
      // A contact's file, as Meta's "Retrieve media URL" and "Download media" document them.
      const mediaId = /^\/v21\.0\/([\w.-]+)$/.exec(url.pathname)?.[1];
      const file = /^\/files\/([\w.-]+)$/.exec(url.pathname)?.[1];
      if (req.method === 'GET' && ((mediaId && media.has(mediaId)) || file)) {
        mediaRequests.push({ path: `${url.pathname}${url.search}`, auth: req.headers.authorization });
        if (mediaId) {
          const found = media.get(mediaId)!;
          const sha256 = createHash('sha256').update(found.data).digest('hex');
          return json(200, {
            messaging_product: 'whatsapp',
            url: `${base}/files/${mediaId}?ext=1`,
            mime_type: found.mimeType,
            sha256,
            file_size: found.data.length,
            id: mediaId,
          });
        }
        const found = media.get(file!);
        if (!found) return json(404, { error: { message: 'Not found', code: 100 } });
        res.writeHead(200, { 'content-type': found.mimeType });
        return res.end(found.data);
      }
      if (graphNumbers(numbers, req, res)) return;
      const waba = /^\/v21\.0\/([^/]+)\/message_templates$/.exec(url.pathname)?.[1];
      if (req.method === 'GET' && waba && templates.has(waba)) {
        state.listed++;
        return json(200, { data: templates.get(waba), paging: { cursors: { before: 'QVFI', after: 'QVFJ' } } });
      }
      const sender = /^\/v21\.0\/([^/]+)\/messages$/.exec(url.pathname)?.[1];
      if (req.method === 'POST' && sender && numbers.get(sender)?.token === bearer) {
        const body = JSON.parse(raw);
        sent.push({ path: url.pathname, auth: req.headers.authorization, body });
        const refusal = refusals.get(body.to);
        if (refusal) {
          return json(400, {
            error: {
              message: refusal.message,
              type: 'OAuthException',
              code: refusal.code,
              error_data: { messaging_product: 'whatsapp', details: refusal.details },
              fbtrace_id: 'fake',
            },
          });
        }
        return json(200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.OUT${sent.length}` }] });
      }
      json(400, { error: { message: 'Unsupported request', type: 'GraphMethodException', code: 100, fbtrace_id: 'fake' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: `${base}/v21.0`,
    media,
    mediaRequests,
    sent,
    templates,
    refusals,
    numbers,
    get listed() {
      return state.listed;
    },
    set listed(n: number) {
      state.listed = n;
    },
    get down() {
      return state.down;
    },
    set down(d: boolean) {
      state.down = d;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

import { expect } from 'chai';
import WebSocket from 'ws';
import { client, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';
import { startFakeGraph, type FakeGraph } from '../support/fake-graph.js';

interface Frame {
  event: string;
  data: { action: string; session?: { id: number; status: string; qrcode: string; pairingCode: string | null } };
}

function listen(url: string): Promise<{ ws: WebSocket; frames: Frame[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: Frame[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as Frame));
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('error', reject);
  });
}

/** The WhatsApp pairing code's shape: 8 characters, no 0, O, I or U. */
const PAIRING_CODE = /^[1-9A-HJ-NP-TV-Z]{8}$/;

/**
 * Pairing a chat-application session by phone number instead of QR code: the number travels with
 * the start or restart to the embedded runtime's sandbox connector, and its code comes back as
 * the QR code does, on the connection (`pairingCode`, status `qrcode`) and in `chatappSession` frames.
 */
describe('HTTP: pairing a session by phone number', () => {
  let b: TestBackend;
  // Meta's Graph API says which page a page access token belongs to (the social connection of the refusals).
  let graph: FakeGraph;
  before(async () => {
    graph = await startFakeGraph({ 'pairing-page-token': 'PAIR-PAGE' });
    b = await startTestBackend({ META_GRAPH_URL: graph.url });
  });
  after(async () => {
    await b.close();
    await graph.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('shows the code to type on the phone, live and on the connection, until the phone enters it', async () => {
    const { api, company, token } = await newCompanyWithAdmin(b);
    const id = (await api.post('/chatapp/', { name: 'Phone pairing', provider: 'sandbox' })).body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    const socket = await listen(`${b.url.replace('http', 'ws')}/${company.id}?token=${token}`);
    const frameOf = (status: string) =>
      eventually(`a ${status} session frame`, () =>
        socket.frames.find((f) => f.event === `company-${company.id}-chatappSession` && f.data.session?.id === id && f.data.session.status === status),
      );

    const restarted = await api.put(`/chatappsession/${id}`, { phoneNumber: '5511999990000' });
    expect(restarted.status, JSON.stringify(restarted.body)).to.equal(200);
    expect(restarted.body).to.include({ status: 'OPENING', qrcode: '', pairingCode: null });
    const frame = await frameOf('qrcode');
    const code = frame.data.session!.pairingCode!;
    expect(code).to.match(PAIRING_CODE);
    expect(frame.data.session!.qrcode).to.equal('');
    expect((await api.get(`/chatapp/${id}`)).body).to.include({ status: 'qrcode', pairingCode: code });
    expect(b.sandbox!.session(id).pairing).to.deep.equal({ phoneNumber: '5511999990000', code });

    expect(b.sandbox!.session(id).enterPairingCode(code)).to.equal(true);
    await frameOf('CONNECTED');
    expect((await api.get(`/chatapp/${id}`)).body).to.include({ status: 'CONNECTED', pairingCode: null });
    socket.ws.close();
  });

  it('a start without a number (the lineage client sends none) pairs as before, and a bad number or connection is refused', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const id = (await api.post('/chatapp/', { name: 'QR pairing', provider: 'sandbox' })).body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    expect((await api.post(`/chatappsession/${id}`)).body.status).to.equal('OPENING');
    await eventually('the session to connect again', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    expect(b.sandbox!.session(id).pairing).to.equal(null);

    for (const phoneNumber of ['+5511999990000', '55 11 99999-0000', '1234567', '0511999990000', '5511999990000123', 5511999990000]) {
      const refused = await api.post(`/chatappsession/${id}`, { phoneNumber });
      expect(refused.status, String(phoneNumber)).to.equal(422);
      expect(refused.body.error).to.equal('ERR_VALIDATION');
      expect(refused.body.fields.map((f: { path: string }) => f.path)).to.deep.equal(['body.phoneNumber']);
    }
    const created = await api.post('/socialnet/', {
      name: 'Page',
      provider: 'sandbox',
      externalId: 'PAIR-PAGE',
      secrets: { pageAccessToken: 'pairing-page-token' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const page = created.body.id as number;
    const social = await api.post(`/chatappsession/${page}`, { phoneNumber: '5511999990000' });
    expect(social.status).to.equal(422);
    expect(social.body).to.deep.equal({ error: 'ERR_PAIRING_NOT_SUPPORTED' });

    const other = await newCompanyWithAdmin(b);
    expect((await other.api.put(`/chatappsession/${id}`, { phoneNumber: '5511999990000' })).status).to.equal(404);
    const op = await api.post('/users', { name: 'Operator', email: 'op@pairing.test', password: 'operator-pass' });
    expect(op.status).to.equal(201);
    const login = await client(b.url).post('/auth/login', { email: 'op@pairing.test', password: 'operator-pass' });
    expect((await client(b.url, login.body.token).post(`/chatappsession/${id}`, { phoneNumber: '5511999990000' })).status).to.equal(403);
  });
});

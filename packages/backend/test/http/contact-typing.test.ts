import { expect } from 'chai';
import WebSocket from 'ws';
import { newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';

interface Frame {
  seq?: number;
  event: string;
  data: { action: string } & Record<string, unknown>;
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

/**
 * A contact's typing, from the embedded runtime's sandbox connector to the operators' websocket:
 * an ephemeral `contactTyping` frame (no seq) for the contact's open or pending ticket, nothing for
 * a contact without one, and nothing replayed to a client that reconnects.
 */
describe("HTTP: the contact's typing reaches the operators of the conversation", () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('sends contactTyping for the open conversation only, without seq, and never replays it', async () => {
    const { api, company, token } = await newCompanyWithAdmin(b);
    const id = (await api.post('/chatapp/', { name: 'Typing', provider: 'sandbox' })).body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    const url = `${b.url.replace('http', 'ws')}/${company.id}?token=${token}`;
    const socket = await listen(url);
    await b.sandbox!.inject(id, { from: '5511988881234', body: 'Hello?', senderName: 'Rita' });
    const created = await eventually('the new ticket', () =>
      socket.frames.find((f) => f.event === `company-${company.id}-appMessage` && f.data.action === 'create'),
    );
    const ticket = created.data.ticket as { id: number; contactId: number; status: string };
    expect(ticket.status).to.equal('pending');
    const typing = () => socket.frames.filter((f) => f.event === `company-${company.id}-contactTyping`);

    // A contact with no conversation first, then the one with a ticket: only the second is told.
    const sandbox = b.sandbox!.session(id);
    sandbox.presence('5511977770000', 'composing');
    sandbox.presence('5511988881234', 'composing');
    sandbox.presence('5511988881234', 'recording');
    sandbox.presence('5511988881234', 'paused');
    await eventually('three typing frames', () => typing().length === 3);
    expect(typing()).to.deep.equal(
      ['composing', 'recording', 'paused'].map((state) => ({
        event: `company-${company.id}-contactTyping`,
        data: { action: 'update', ticketId: ticket.id, contactId: ticket.contactId, state },
      })),
    );

    // A client resuming from its last seq is not told, late, that the contact was typing.
    const lastSeq = Math.max(...socket.frames.map((f) => f.seq ?? 0));
    socket.ws.close();
    await b.sandbox!.inject(id, { from: '5511988881234', body: 'Still there?' });
    const resumed = await listen(`${url}&since=${lastSeq}`);
    await eventually('the missed message replayed', () =>
      resumed.frames.some((f) => f.event === `company-${company.id}-appMessage` && (f.data.message as { body: string }).body === 'Still there?'),
    );
    expect(resumed.frames.filter((f) => f.event.endsWith('-contactTyping'))).to.deep.equal([]);
    resumed.ws.close();
  });
});

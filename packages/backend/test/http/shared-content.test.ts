import { expect } from 'chai';
import { asSuper, client, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';

const MICRO = 'microservice-shared-secret-0123456789';

interface MessageRow {
  id: string;
  body: string;
  mediaType: string;
  mediaUrl: string | null;
  fromMe: boolean;
}

/**
 * A contact's shared location and contact cards, from the sandbox connector (and an external
 * connector's webhook) to the API: messages whose `mediaType` is `locationMessage` or
 * `contactMessage`, their body in the shapes the lineage client reads (`image|link|description`;
 * the vCard text), the ticket's last message in words, and what does not hold refused or dropped.
 */
describe('HTTP: shared locations and contact cards become locationMessage and contactMessage', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ CHATAPP_MICROSERVICE_SECRET: MICRO });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  async function desk() {
    const { api } = await asSuper(b);
    const created = await api.post('/chatapp/', { name: 'Shared', provider: 'sandbox' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    /** The contact's messages in its ticket, once there are `count` of them, and the ticket. */
    const conversation = (from: string, count: number) =>
      eventually(`${count} messages from ${from}`, async () => {
        const ticket = ((await api.get(`/tickets?showAll=true&searchParam=${from}`)).body.tickets as Array<{ id: number; lastMessage: string }>)[0];
        if (!ticket) return undefined;
        // The contact's own messages (a greeting, if any, is ours).
        const messages = ((await api.get(`/messages/${ticket.id}`)).body.messages as MessageRow[]).filter((m) => !m.fromMe);
        return messages.length === count && { ticket, messages };
      });
    return { api, id, conversation };
  }

  it('stores a sandbox location as a locationMessage whose body is image|link|description', async () => {
    const { id, conversation } = await desk();
    await b.sandbox!.inject(id, {
      from: '5511988880001',
      senderName: 'Rita',
      location: { latitude: -23.561414, longitude: -46.655882, name: 'MASP', address: 'Av. Paulista, 1578', url: 'https://masp.org.br/' },
    });
    const { ticket, messages } = await conversation('5511988880001', 1);
    const [message] = messages;
    expect(message).to.include({ mediaType: 'locationMessage', mediaUrl: null, fromMe: false });
    const parts = message!.body.split('|');
    expect(parts).to.have.length.of.at.least(3);
    expect(parts[0]).to.equal('');
    expect(parts[1]).to.equal('https://www.openstreetmap.org/?mlat=-23.561414&mlon=-46.655882#map=16/-23.561414/-46.655882');
    expect(parts[2]).to.equal('MASP\nAv. Paulista, 1578');
    expect(parts[3]).to.equal('https://masp.org.br/');
    expect(ticket.lastMessage).to.equal('📍 Location: MASP');
  });

  it('forwards a shared location as words with its map link, never in the lineage body shape', async () => {
    const { api, id, conversation } = await desk();
    await b.sandbox!.inject(id, { from: '5511988880005', location: { latitude: 48.8584, longitude: 2.2945, name: 'Tour Eiffel' } });
    const { messages } = await conversation('5511988880005', 1);
    const other = await api.post('/contacts', { name: 'Carla', number: '5511988880006' });
    expect(other.status, JSON.stringify(other.body)).to.equal(201);
    const forwarded = await api.post('/message/forward', { messageId: messages[0]!.id, contactId: other.body.id });
    expect(forwarded.status, JSON.stringify(forwarded.body)).to.equal(200);
    const text = '📍 Tour Eiffel\nhttps://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=16/48.8584/2.2945';
    const sent = await eventually('the forward sent', () => b.sandbox!.session(id).sent.find((s) => s.to.includes('5511988880006')));
    expect(sent.content.body).to.equal(text);
  });

  it('stores sandbox contact cards as a contactMessage whose body is their vCards', async () => {
    const { id, conversation } = await desk();
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Bruno Lima\nTEL;type=CELL;waid=5521977776666:+55 21 97777-6666\nEND:VCARD';
    await b.sandbox!.inject(id, {
      from: '5511988880002',
      senderName: 'Rita',
      contacts: [
        { name: 'Ana Souza', numbers: ['5511966665555'] },
        { name: 'Bruno Lima', numbers: ['5521977776666'], vcard },
      ],
    });
    const { ticket, messages } = await conversation('5511988880002', 1);
    expect(messages[0]).to.include({ mediaType: 'contactMessage', mediaUrl: null });
    const lines = messages[0]!.body.split('\n');
    // What the lineage client reads of a card: the value after FN, and a value holding a "+".
    expect(lines).to.include.members(['FN:Ana Souza', 'TEL;type=CELL;waid=5511966665555:+5511966665555']);
    expect(messages[0]!.body.endsWith(vcard)).to.equal(true);
    expect(ticket.lastMessage).to.equal('👤 Contact: Ana Souza, Bruno Lima');
  });

  it('checks what an external connector sends: coordinates out of range are refused, a valid location stored', async () => {
    const { id, conversation } = await desk();
    const post = (location: Record<string, unknown>, providerMessageId: string) =>
      client(b.url).post(
        '/api/chatapp-microservice/webhook',
        { chatappId: id, events: [{ type: 'InboundMessage', providerMessageId, from: '5511988880003', body: 'a place', location }] },
        { 'x-webhook-secret': MICRO },
      );
    const refused = await post({ latitude: 91, longitude: 0 }, 'ext-bad');
    expect(refused.status).to.equal(422);
    expect(refused.body.error).to.equal('ERR_VALIDATION');
    expect((await post({ latitude: 0, longitude: 180.5 }, 'ext-bad-2')).status).to.equal(422);
    const ok = await post({ latitude: 48.8584, longitude: 2.2945, address: 'Champ de Mars' }, 'ext-ok');
    expect(ok.body).to.deep.equal({ received: true, accepted: 1 });
    const { ticket, messages } = await conversation('5511988880003', 1);
    expect(messages[0]).to.include({
      mediaType: 'locationMessage',
      body: '|https://www.openstreetmap.org/?mlat=48.8584&mlon=2.2945#map=16/48.8584/2.2945|\nChamp de Mars',
    });
    expect(ticket.lastMessage).to.equal('📍 Location: Champ de Mars');
  });

  it('drops a runtime location that does not hold: the message is the text it came with', async () => {
    const { id, conversation } = await desk();
    await b.sandbox!.inject(id, { from: '5511988880004', body: 'where am I?', location: { latitude: Number.NaN, longitude: 0 } });
    const { messages } = await conversation('5511988880004', 1);
    expect(messages[0]).to.include({ mediaType: 'conversation', body: 'where am I?' });
  });
});

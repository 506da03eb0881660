import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { client, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { FAKE_WABA_ID, startFakeBizchat, type FakeBizchat } from '../support/fake-bizchat.js';
import { eventually } from '../support/eventually.js';

const APP_SECRET = 'bizchat-media-app-secret';
const PHONE_NUMBER_ID = '109876543210987';
const TOKEN = 'EAAG-bizchat-media-token';
const CUSTOMER = '5511977776666';

/**
 * A contact's photo on the business API, end to end: Meta's signed webhook names it by media id,
 * and the backend's job asks the (fake) Graph API for its URL and then its bytes with the
 * connection's token, stores them under the company and points the message to them.
 */
describe("Bizchat (business API): a contact's photo, fetched by media id with the connection's token", () => {
  let b: TestBackend;
  let fake: FakeBizchat;
  before(async () => {
    fake = await startFakeBizchat(PHONE_NUMBER_ID, TOKEN);
    b = await startTestBackend({ META_APP_SECRET: APP_SECRET, META_GRAPH_URL: fake.url, ALLOW_PRIVATE_URLS: 'true', INBOUND_MEDIA_RETRY_MS: '50' });
  });
  after(async () => {
    await b?.close();
    await fake?.close();
  });

  it('stores the photo with its caption, the Graph API asked twice with the bearer token', async () => {
    const photo = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(2048, 7)]);
    fake.media.set('MEDIA-77', { data: photo, mimeType: 'image/jpeg' });
    const { api, company } = await newCompanyWithAdmin(b);
    const created = await api.post('/chatapp/', {
      name: 'Oficial',
      kind: 'bizchat',
      externalId: PHONE_NUMBER_ID,
      secrets: { accessToken: TOKEN, wabaId: FAKE_WABA_ID },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: FAKE_WABA_ID,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '551140000000', phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ profile: { name: 'Rita' }, wa_id: CUSTOMER }],
                messages: [
                  {
                    from: CUSTOMER,
                    id: 'wamid.PHOTO1',
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'image',
                    image: { caption: 'the broken part', mime_type: 'image/jpeg', sha256: 'x', id: 'MEDIA-77' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`;
    const delivered = await client(b.url).post('/webhook/', raw, { 'x-hub-signature-256': signature });
    expect(delivered.status).to.equal(200);
    const message = await eventually(
      'the photo stored',
      async () => {
        const ticket = (await api.get(`/tickets?showAll=true&searchParam=${CUSTOMER}`)).body.tickets[0] as { id: number } | undefined;
        if (!ticket) return null;
        const found = ((await api.get(`/messages/${ticket.id}`)).body.messages as Array<Record<string, any>>).find((m) => m.body === 'the broken part');
        return found?.mediaUrl ? found : null;
      },
      15_000,
    );
    expect(message).to.deep.include({ mediaType: 'image' });
    expect(message.media).to.deep.include({ contentType: 'image/jpeg', size: photo.length });
    expect(new URL(message.mediaUrl).pathname.startsWith(`/public/company-${company.id}/media/`)).to.equal(true);
    const served = await fetch(`${b.url}${new URL(message.mediaUrl).pathname}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(photo)).to.equal(true);
    expect(fake.mediaRequests).to.deep.equal([
      { path: '/v21.0/MEDIA-77', auth: `Bearer ${TOKEN}` },
      { path: '/files/MEDIA-77?ext=1', auth: `Bearer ${TOKEN}` },
    ]);
  });
});

import { expect } from 'chai';
import { parseBizchatDelivery } from '../src/bizchat/bizchat-webhook.js';
import { parseMetaDelivery } from '../src/connections/webhook-routes.js';

/** A Cloud API delivery of one message from 5511988887777, as Meta's webhook reference shapes it. */
function cloudDelivery(message: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA-1',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001111', phone_number_id: 'PN-1' },
              contacts: [{ profile: { name: 'Rita' }, wa_id: '5511988887777' }],
              messages: [{ from: '5511988887777', id: 'wamid.A1', timestamp: '1741615500', ...message }],
            },
          },
        ],
      },
    ],
  };
}

const inboundOf = (payload: unknown) => parseBizchatDelivery(payload).numbers[0]!.events[0] as Record<string, unknown>;

/** Shared locations and contact cards in the webhooks: the Cloud API's and Messenger's. */
describe('webhooks: shared locations and contact cards', () => {
  describe('Cloud API (bizchat)', () => {
    it('maps a location message with its name, address and page', () => {
      const event = inboundOf(
        cloudDelivery({
          type: 'location',
          location: { latitude: -23.5614, longitude: -46.6559, name: 'MASP', address: 'Av. Paulista, 1578', url: 'https://masp.org.br' },
        }),
      );
      expect(event).to.deep.equal({
        type: 'InboundMessage',
        providerMessageId: 'wamid.A1',
        from: '5511988887777',
        senderName: 'Rita',
        body: '📍 Location: MASP',
        isGroup: false,
        at: '2025-03-10T14:05:00.000Z',
        location: { latitude: -23.5614, longitude: -46.6559, name: 'MASP', address: 'Av. Paulista, 1578', url: 'https://masp.org.br/' },
      });
    });

    it('maps a contacts message: each card by its formatted name (else first and last), its phones by WhatsApp id else digits', () => {
      const event = inboundOf(
        cloudDelivery({
          type: 'contacts',
          contacts: [
            {
              name: { formatted_name: 'Ana Souza', first_name: 'Ana', last_name: 'Souza' },
              phones: [
                { phone: '+55 11 97777-6666', wa_id: '5511977776666', type: 'CELL' },
                { phone: '+55 11 3333-4444', type: 'WORK' },
              ],
              emails: [{ email: 'ana@example.com', type: 'WORK' }],
            },
            { name: { first_name: 'Bruno', last_name: 'Lima' }, phones: [] },
            { org: { company: 'No name nor phone' } },
          ],
        }),
      );
      expect(event.body).to.equal('👤 Contact: Ana Souza, Bruno Lima');
      expect(event.contacts).to.deep.equal([
        { name: 'Ana Souza', numbers: ['5511977776666', '551133334444'] },
        { name: 'Bruno Lima', numbers: [] },
      ]);
    });

    it('keeps the bracketed type as the body when the location or the cards do not hold', () => {
      const bad = inboundOf(cloudDelivery({ type: 'location', location: { latitude: 123, longitude: 0 } }));
      expect(bad.body).to.equal('[location]');
      expect(bad).to.not.have.property('location');
      const none = inboundOf(cloudDelivery({ type: 'contacts', contacts: 'not a list' }));
      expect(none.body).to.equal('[contacts]');
      expect(none).to.not.have.property('contacts');
    });
  });

  describe('Messenger', () => {
    it('maps a location attachment that carries coordinates, named by its title; one without stays a bracketed type', () => {
      const page = (attachments: unknown[]) => ({
        object: 'page',
        entry: [{ id: 'PAGE-1', messaging: [{ sender: { id: 'PSID-1' }, timestamp: 1741615500000, message: { mid: 'm.1', attachments } }] }],
      });
      const [withCoordinates] = parseMetaDelivery(
        page([{ type: 'location', title: 'Pinned location', payload: { coordinates: { lat: 48.8584, long: 2.2945 } } }]),
      );
      expect(withCoordinates!.events[0]).to.deep.include({
        body: '📍 Location: Pinned location',
        location: { latitude: 48.8584, longitude: 2.2945, name: 'Pinned location' },
      });
      const [without] = parseMetaDelivery(page([{ type: 'location', payload: {} }]));
      expect(without!.events[0]).to.deep.include({ body: '[location]' });
      expect(without!.events[0]).to.not.have.property('location');
    });
  });
});

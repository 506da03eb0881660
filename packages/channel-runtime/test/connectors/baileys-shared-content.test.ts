import { expect } from 'chai';
import type { WAMessage } from 'baileys';
import { inboundOf, sharedOf } from '../../src/connectors/baileys-messages.js';

const AT = new Date('2026-03-10T14:05:00.000Z');

function received(message: WAMessage['message'], id = 'L1'): WAMessage {
  return {
    key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id },
    message,
    messageTimestamp: AT.getTime() / 1000,
    pushName: 'Rita',
  } as WAMessage;
}

const VCARD = ['BEGIN:VCARD', 'VERSION:3.0', 'N:;Ana Souza;;;', 'FN:Ana Souza', 'item1.TEL;waid=5511977776666:+55 11 97777-6666', 'END:VCARD'].join('\n');

/** A location or contact cards sent through WhatsApp (Baileys), as the runtime reports them. */
describe("Baileys: a contact's shared location and contact cards", () => {
  it('maps a locationMessage with its name, address and page, the body saying it in words', () => {
    const m = inboundOf(
      received({
        locationMessage: {
          degreesLatitude: -23.5614,
          degreesLongitude: -46.6559,
          name: 'MASP',
          address: 'Av. Paulista, 1578',
          url: 'https://masp.org.br',
          jpegThumbnail: new Uint8Array([1, 2, 3]),
        },
      }),
    );
    expect(m).to.deep.equal({
      providerMessageId: 'L1',
      from: '5511988887777',
      senderName: 'Rita',
      body: '📍 Location: MASP',
      isGroup: false,
      at: AT,
      location: { latitude: -23.5614, longitude: -46.6559, name: 'MASP', address: 'Av. Paulista, 1578', url: 'https://masp.org.br/' },
    });
  });

  it('maps a liveLocationMessage by its coordinates, named by its caption', () => {
    expect(sharedOf({ liveLocationMessage: { degreesLatitude: 10, degreesLongitude: 20, caption: 'On my way', sequenceNumber: 3 } })).to.deep.equal({
      body: '📍 Location: On my way',
      location: { latitude: 10, longitude: 20, name: 'On my way' },
    });
    expect(sharedOf({ liveLocationMessage: { degreesLatitude: 10, degreesLongitude: 20 } })).to.deep.equal({
      body: '📍 Location: 10, 20',
      location: { latitude: 10, longitude: 20 },
    });
  });

  it('maps a contactMessage by its display name and the numbers of its vCard (the WhatsApp id first), keeping the vCard', () => {
    const m = inboundOf(received({ contactMessage: { displayName: 'Ana', vcard: VCARD } }, 'C1'))!;
    expect(m.body).to.equal('👤 Contact: Ana');
    expect(m.contacts).to.deep.equal([{ name: 'Ana', numbers: ['5511977776666'], vcard: VCARD }]);
    expect(m).to.not.have.property('location');
  });

  it('maps a contactsArrayMessage as one message with every card; a card without display name takes its vCard name', () => {
    const second = VCARD.replace(/Ana Souza/g, 'Bruno Lima').replace('5511977776666', '5521966665555');
    const shared = sharedOf({ contactsArrayMessage: { displayName: '2 contacts', contacts: [{ displayName: 'Ana', vcard: VCARD }, { vcard: second }] } });
    expect(shared).to.deep.equal({
      body: '👤 Contact: Ana, Bruno Lima',
      contacts: [
        { name: 'Ana', numbers: ['5511977776666'], vcard: VCARD },
        { name: 'Bruno Lima', numbers: ['5521966665555'], vcard: second },
      ],
    });
  });

  it('finds them inside ephemeral and view-once wrappers', () => {
    const m = inboundOf(received({ ephemeralMessage: { message: { locationMessage: { degreesLatitude: 1, degreesLongitude: 2 } } } }));
    expect(m?.location).to.deep.equal({ latitude: 1, longitude: 2 });
  });

  it('drops a location whose coordinates do not hold, and a contact card with neither name nor number (nothing else to show)', () => {
    expect(inboundOf(received({ locationMessage: { degreesLatitude: 91, degreesLongitude: 0, name: 'Nowhere' } }))).to.equal(undefined);
    expect(inboundOf(received({ locationMessage: { name: 'No coordinates' } }))).to.equal(undefined);
    expect(inboundOf(received({ contactMessage: { vcard: 'BEGIN:VCARD\nNOTE:x\nEND:VCARD' } }))).to.equal(undefined);
  });

  it('keeps a text a text: no location nor cards on it', () => {
    const m = inboundOf(received({ conversation: 'hello' }))!;
    expect(m.body).to.equal('hello');
    expect(m).to.not.have.property('location');
    expect(m).to.not.have.property('contacts');
  });
});

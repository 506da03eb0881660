import { expect } from 'chai';
import {
  cleanContacts,
  cleanLocation,
  cleanSharedContent,
  contactsBody,
  forwardedText,
  inboundContent,
  locationBody,
  mapLink,
  parseLocationBody,
  parseVcards,
  SHARED_LIMITS,
  vcardOf,
} from '../../src/connections/shared-content.js';
import { mediaTypeOf } from '../../src/messages/message-view.js';

/** A location or contact cards a contact shared: checked, stored in the lineage's body shapes, read back. */
describe('shared content: locations and contact cards', () => {
  describe('cleanLocation', () => {
    it('keeps finite coordinates in range with their texts, numbers given as strings too', () => {
      expect(
        cleanLocation({ latitude: -23.5614, longitude: -46.6559, name: ' MASP ', address: 'Av. Paulista, 1578', url: 'https://masp.org.br' }),
      ).to.deep.equal({
        latitude: -23.5614,
        longitude: -46.6559,
        name: 'MASP',
        address: 'Av. Paulista, 1578',
        url: 'https://masp.org.br/',
      });
      expect(cleanLocation({ latitude: '90', longitude: '-180' })).to.deep.equal({ latitude: 90, longitude: -180 });
    });

    it('refuses coordinates out of range, not finite or missing, and what is not an object', () => {
      for (const raw of [
        { latitude: 90.0001, longitude: 0 },
        { latitude: 0, longitude: -180.5 },
        { latitude: Number.NaN, longitude: 0 },
        { latitude: Number.POSITIVE_INFINITY, longitude: 0 },
        { latitude: '1e400', longitude: 0 },
        { latitude: '', longitude: 0 },
        { latitude: null, longitude: 0 },
        { longitude: 10 },
        [1, 2],
        'x',
        null,
      ])
        expect(cleanLocation(raw), JSON.stringify(raw)).to.equal(undefined);
    });

    it('cuts long texts, puts them on one line, and drops a page that is not http or https', () => {
      const l = cleanLocation({ latitude: 1, longitude: 2, name: `a\nb${'x'.repeat(400)}`, address: '\u0000  ', url: 'javascript:alert(1)' })!;
      expect(l.name!.length).to.equal(SHARED_LIMITS.text);
      expect(l.name!.startsWith('a b')).to.equal(true);
      expect(l).to.not.have.property('address');
      expect(l).to.not.have.property('url');
    });
  });

  describe('cleanContacts', () => {
    it('keeps each card with a name (else its first number) and its numbers as digits, without repeats', () => {
      expect(
        cleanContacts([
          { name: 'Ana', numbers: ['+55 11 98888-7777', '5511988887777', 'abc'] },
          { numbers: ['+1 (555) 010-0000'] },
          { name: '', numbers: [] },
          'nothing',
        ]),
      ).to.deep.equal([
        { name: 'Ana', numbers: ['5511988887777'] },
        { name: '15550100000', numbers: ['15550100000'] },
      ]);
    });

    it('caps the cards and numbers, drops a vCard too long or that is none, and answers undefined when nothing holds', () => {
      const many = Array.from({ length: 30 }, (_, i) => ({
        name: `C${i}`,
        numbers: Array.from({ length: 15 }, (_, j) => `55119${String(i * 100 + j).padStart(8, '0')}`),
      }));
      const cards = cleanContacts(many)!;
      expect(cards).to.have.length(SHARED_LIMITS.contacts);
      expect(cards[0]!.numbers).to.have.length(SHARED_LIMITS.numbers);
      expect(cleanContacts([{ name: 'A', numbers: [], vcard: `BEGIN:VCARD\n${'x'.repeat(SHARED_LIMITS.vcard)}` }])![0]).to.not.have.property('vcard');
      expect(cleanContacts([{ name: 'A', numbers: [], vcard: 'just text' }])![0]).to.not.have.property('vcard');
      expect(cleanContacts([])).to.equal(undefined);
      expect(cleanContacts([{ name: '  ' }])).to.equal(undefined);
      expect(cleanContacts({ name: 'A' })).to.equal(undefined);
    });
  });

  it('cleanSharedContent drops what fails and keeps the rest of the event', () => {
    const event = { body: 'x', location: { latitude: 100, longitude: 0 }, contacts: [{ name: 'Ana', numbers: ['5511988887777'] }] };
    expect(cleanSharedContent(event)).to.deep.equal({ body: 'x', contacts: [{ name: 'Ana', numbers: ['5511988887777'] }] });
  });

  describe('the lineage body of a location', () => {
    it('is image|link|description, the description the name then the address; read back with its coordinates', () => {
      const location = { latitude: -23.561414, longitude: -46.6558819, name: 'MASP | Museu', address: 'Av. Paulista, 1578', url: 'https://masp.org.br/' };
      const body = locationBody(location);
      const parts = body.split('|');
      expect(parts[0]).to.equal('');
      expect(parts[1]).to.equal('https://www.openstreetmap.org/?mlat=-23.561414&mlon=-46.655882#map=16/-23.561414/-46.655882');
      expect(parts[2]).to.equal('MASP / Museu\nAv. Paulista, 1578');
      expect(parts[3]).to.equal('https://masp.org.br/');
      expect(parseLocationBody(body)).to.deep.equal({
        latitude: -23.561414,
        longitude: -46.655882,
        name: 'MASP / Museu',
        address: 'Av. Paulista, 1578',
        url: 'https://masp.org.br/',
        link: parts[1],
      });
    });

    it('reads an address without a name, coordinates alone, and a map link of another shape; a body without coordinates is null', () => {
      expect(parseLocationBody(locationBody({ latitude: 1.5, longitude: 2.5, address: 'Rua A' }))).to.include({
        latitude: 1.5,
        longitude: 2.5,
        address: 'Rua A',
      });
      expect(parseLocationBody(locationBody({ latitude: 1.5, longitude: 2.5 }))).to.deep.equal({ latitude: 1.5, longitude: 2.5, link: mapLink(1.5, 2.5) });
      expect(parseLocationBody('data:image/png;base64,AAAA|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|Casa')).to.include({
        latitude: -23.5,
        longitude: -46.6,
        name: 'Casa',
      });
      expect(parseLocationBody('hello')).to.equal(null);
      expect(parseLocationBody('|not a link|x')).to.equal(null);
      expect(parseLocationBody('|https://www.openstreetmap.org/?mlat=95&mlon=0|x')).to.equal(null);
    });
  });

  describe('the lineage body of contact cards', () => {
    it('is the vCard as sent, or one built from the name and numbers, which the lineage parser reads (FN, a value with +)', () => {
      const built = vcardOf({ name: 'Silva, Ana; filha', numbers: ['5511988887777'] });
      expect(built.split('\n')).to.include.members(['FN:Silva\\, Ana\\; filha', 'TEL;type=CELL;waid=5511988887777:+5511988887777']);
      const sent = 'BEGIN:VCARD\nVERSION:3.0\nFN:Bruno\nTEL;waid=5521977776666:+55 21 97777-6666\nEND:VCARD';
      expect(
        contactsBody([
          { name: 'Ana', numbers: ['5511988887777'] },
          { name: 'Bruno', numbers: ['5521977776666'], vcard: sent },
        ]),
      ).to.equal(`${vcardOf({ name: 'Ana', numbers: ['5511988887777'] })}\n${sent}`);
    });

    it('reads back each card: FN (else N), numbers by waid else digits, folded lines and grouped properties', () => {
      const text = [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Silva\\, Ana',
        'item1.TEL;type=CELL;waid=5511988887777:+55 11 98888-7777',
        'TEL;type=WORK:+55 11 3333-',
        ' 4444',
        'END:VCARD',
        'BEGIN:VCARD',
        'N:Souza;Carla;;;',
        'END:VCARD',
        'BEGIN:VCARD',
        'NOTE:nothing',
        'END:VCARD',
      ].join('\r\n');
      const cards = parseVcards(text);
      expect(cards.map(({ name, numbers }) => ({ name, numbers }))).to.deep.equal([
        { name: 'Silva, Ana', numbers: ['5511988887777', '551133334444'] },
        { name: 'Carla Souza', numbers: [] },
      ]);
      expect(parseVcards('no card here')).to.deep.equal([]);
    });
  });

  describe('inboundContent', () => {
    it('stores a location as a locationMessage body, named in words as the last message', () => {
      const c = inboundContent({ body: '📍 Location: MASP', location: { latitude: -23.56, longitude: -46.65, name: 'MASP' } });
      expect(c.kind).to.equal('location');
      expect(c.lastMessage).to.equal('📍 Location: MASP');
      expect(parseLocationBody(c.body)).to.include({ name: 'MASP', latitude: -23.56 });
      expect(inboundContent({ body: '', location: { latitude: 1, longitude: 2 } }).lastMessage).to.equal('📍 Location: 1, 2');
    });

    it('stores contact cards as their vCards, named in words; anything else as the text it came as', () => {
      const c = inboundContent({
        body: 'x',
        contacts: [
          { name: 'Ana', numbers: ['5511988887777'] },
          { name: 'Bruno', numbers: [] },
        ],
      });
      expect(c).to.include({ kind: 'contact', lastMessage: '👤 Contact: Ana, Bruno' });
      expect(parseVcards(c.body).map((x) => x.name)).to.deep.equal(['Ana', 'Bruno']);
      expect(inboundContent({ body: 'hi', location: { latitude: 300, longitude: 0 } })).to.deep.equal({ body: 'hi', kind: null, lastMessage: 'hi' });
    });

    it('forwards them as words: the place with its map link, each card with its numbers; any other message as its body', () => {
      const place = inboundContent({ body: '', location: { latitude: -23.5614, longitude: -46.6559, name: 'MASP', address: 'Av. Paulista, 1578' } });
      expect(forwardedText(place)).to.equal(`📍 MASP\nAv. Paulista, 1578\n${mapLink(-23.5614, -46.6559)}`);
      expect(forwardedText(inboundContent({ body: '', location: { latitude: 1, longitude: 2 } }))).to.equal(`📍 1, 2\n${mapLink(1, 2)}`);
      const cards = inboundContent({
        body: '',
        contacts: [
          { name: 'Ana', numbers: ['5511988887777', '551133334444'] },
          { name: 'Bruno', numbers: [] },
        ],
      });
      expect(forwardedText(cards)).to.equal('👤 Ana\n+5511988887777\n+551133334444\n\n👤 Bruno');
      expect(forwardedText({ body: '|not|a place', kind: null })).to.equal('|not|a place');
    });

    it("gives the stored message the lineage's mediaType", () => {
      expect(mediaTypeOf({ media: null, kind: 'location' })).to.equal('locationMessage');
      expect(mediaTypeOf({ media: null, kind: 'contact' })).to.equal('contactMessage');
      expect(mediaTypeOf({ media: null, kind: null })).to.equal('conversation');
      expect(mediaTypeOf({ media: null })).to.equal('conversation');
    });
  });
});

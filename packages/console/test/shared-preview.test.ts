import { contactsBody, locationBody } from '@servicedesk/core/connections/shared-content';
import { expect } from 'chai';
import { sharedPreview } from '../src/screens/shared-preview.js';

/** What a quote of a shared location or contact cards, and the desktop notification of one, say. */
describe('console: the preview of a shared location or contact cards', () => {
  it('names the place (else its address, else its coordinates) and the cards, never the stored shape', () => {
    expect(sharedPreview({ mediaType: 'locationMessage', body: locationBody({ latitude: 1, longitude: 2, name: 'MASP', address: 'Av. Paulista' }) })).to.equal(
      '📍 MASP',
    );
    expect(sharedPreview({ mediaType: 'locationMessage', body: locationBody({ latitude: 1, longitude: 2, address: 'Av. Paulista' }) })).to.equal(
      '📍 Av. Paulista',
    );
    expect(sharedPreview({ mediaType: 'locationMessage', body: locationBody({ latitude: 1.5, longitude: -2 }) })).to.equal('📍 1.5, -2');
    const cards = contactsBody([
      { name: 'Ana', numbers: ['5511988887777'] },
      { name: 'Bruno', numbers: [] },
    ]);
    expect(sharedPreview({ mediaType: 'contactMessage', body: cards })).to.equal('👤 Ana, Bruno');
  });

  it('keeps the body of any other message, and of one whose body cannot be read', () => {
    expect(sharedPreview({ mediaType: 'conversation', body: 'hello' })).to.equal('hello');
    expect(sharedPreview({ mediaType: 'locationMessage', body: 'no place here' })).to.equal('no place here');
    expect(sharedPreview({ mediaType: 'contactMessage', body: 'no card here' })).to.equal('no card here');
  });
});

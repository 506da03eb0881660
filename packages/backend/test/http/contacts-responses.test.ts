import { expect } from 'chai';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

/**
 * Every contact route answers a body its declared response schema accepts: the test backend
 * validates each answer and turns a mismatch into a 500, so a 2xx here is the proof.
 */
describe('HTTP: contact responses fit their schemas', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const ok = (res: Reply, status = 200) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    return res.body;
  };

  it('answers every contact and import route with a body of its schema', async () => {
    const d = await sandboxDesk(b);
    const created = ok(
      await d.admin.post('/contacts', {
        name: 'Carla',
        number: '5511987650003',
        email: 'carla@x.test',
        extraInfo: [{ name: 'CPF', value: '1' }],
        identifiers: [{ kind: 'psid', value: '998877', pageId: 'page-1' }],
      }),
      201,
    );
    const id = created.id as number;
    expect(created.identifiers.map((i: { kind: string }) => i.kind)).to.have.members(['phone', 'psid']);
    ok(await d.admin.get('/contacts'));
    ok(await d.admin.get('/contacts/?searchParam=&pageNumber=1&contactTag=%5B%5D'));
    ok(await d.admin.get('/contacts/list?limit=10'));
    const profile = ok(await d.admin.get(`/contacts/profile/5511987650003?connectionId=${d.connectionId}`));
    expect(profile.contact).to.include({ id });
    expect(profile.contactId).to.equal(id);
    expect(ok(await d.admin.get('/contacts/profile/5511987650009')).contact).to.equal(null);
    ok(await d.admin.get(`/contacts/${id}`));
    ok(await d.admin.put(`/contacts/${id}`, { email: null, identifiers: [{ kind: 'lid', value: '201234567890123' }] }));
    expect(ok(await d.admin.put(`/contacts/toggleAcceptAudio/${id}`)).acceptAudioMessage).to.equal(false);
    expect(ok(await d.admin.put(`/contacts/block/${id}`, { active: false }))).to.include({ blocked: true, active: false });
    expect(ok(await d.admin.put(`/contacts/toggleDisableBot/${id}`, { disableBot: true })).disableBot).to.equal(true);
    expect(ok(await d.admin.get(`/contactTags/${id}`))).to.deep.equal({ contactId: id, tags: [] });
    expect(ok(await d.admin.put(`/contact-wallet/${id}`, { userId: d.ana.id })).walletUserId).to.equal(d.ana.id);
    expect(ok(await d.admin.put(`/contact-wallet/${id}`, { userId: null })).walletUserId).to.equal(null);
    expect(ok(await d.admin.put(`/contacts/${id}/link-user`, { userId: d.bia.id })).linkedUserId).to.equal(d.bia.id);
    expect(ok(await d.admin.put(`/contacts/${id}/unlink-user`)).linkedUserId).to.equal(null);

    const book = ok(await d.admin.post('/contacts/import', { connectionId: d.connectionId }), 202);
    expect(book).to.include({ source: 'addressBook', status: 'running', finishedAt: null });
    const done = await eventually('the address book import', async () => {
      const res = await d.admin.post('/contactsImport', { importId: book.importId });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.status === 'done' && res.body;
    });
    expect(done.finishedAt).to.be.a('string');
    const listed = ok(await d.admin.post('/contactsImport', { contacts: [{ name: 'Zé', number: '5521999990000' }, { number: 'bad' }] }));
    const report = await eventually('the list import', async () => {
      const res = await d.admin.post('/contactsImport', { importId: listed.importId });
      return res.body.status === 'done' && res.body;
    });
    expect(report).to.deep.include({ created: 1, failed: 1, errors: [{ row: 2, reason: 'ERR_INVALID_NUMBER' }] });
    const form = new FormData();
    form.append('file', new Blob(['Nome,Telefone\r\nEva,5531988880000\r\n'], { type: 'text/csv' }), 'x.csv');
    expect(ok(await d.admin.post('/contacts/upload', form), 202)).to.include({ source: 'file', fileName: 'x.csv' });
    const again = new FormData();
    again.append('file', new Blob(['Nome,Telefone\r\nFabio,5531988880001\r\n'], { type: 'text/csv' }), 'y.csv');
    expect(ok(await d.admin.post('/contactsImport', again))).to.include({ source: 'file', fileName: 'y.csv' });

    expect(ok(await d.admin.delete(`/contacts/${id}`))).to.deep.equal({ message: 'Contact deleted' });
  });
});

import { expect } from 'chai';
import { userFixture } from '../contracts/repositories-contract.js';
import { code, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';

describe('Contact sellers', () => {
  let w: TicketWorld;
  beforeEach(async () => {
    w = await ticketWorld();
  });
  const s = () => w.app.contactSellers;
  const contactFrames = () => w.ports.realtime.events.filter((e) => e.entity === 'contact').map((e) => e.data);

  it('lists every user of the company by name, with the profile as the wire says it', async () => {
    await w.ports.users.add(userFixture(w.acme.id, 'root@acme.test', { profile: 'super', name: 'Álvaro Root' }));
    const sellers = await s().listSellers.execute({ actor: w.ana });
    expect(sellers.map((x) => [x.name, x.profile])).to.deep.equal([
      ['Ada Admin', 'admin'],
      ['Álvaro Root', 'admin'],
      ['Ana', 'user'],
      ['Bia', 'user'],
      ['Carla', 'user'],
    ]);
    expect(sellers[0]).to.deep.equal({ id: w.admin.userId, name: 'Ada Admin', email: 'admin@acme.test', profile: 'admin' });
    expect((await s().listSellers.execute({ actor: w.otherAdmin })).map((x) => x.id)).to.deep.equal([w.otherAdmin.userId]);
  });

  it('assigns, records who and when, tells the operators, and answers the same as the responsible read', async () => {
    const contact = await w.contact();
    expect(await s().showResponsibleSeller.execute({ actor: w.ana, contactId: contact.id })).to.deep.equal({
      contactId: contact.id,
      seller: null,
      since: null,
      assignedBy: null,
    });
    const assigned = await s().assignSeller.execute({ actor: w.admin, contactId: contact.id, userId: w.ana.userId });
    const since = w.ports.clock.now().toISOString();
    expect(assigned).to.deep.equal({
      contactId: contact.id,
      seller: { id: w.ana.userId, name: 'Ana' },
      since,
      assignedBy: { id: w.admin.userId, name: 'Ada Admin' },
    });
    expect(await s().showResponsibleSeller.execute({ actor: w.bia, contactId: contact.id })).to.deep.equal(assigned);
    expect((await w.ports.contacts.findById(w.acme.id, contact.id))!.walletUserId).to.equal(w.ana.userId);
    const [frame] = contactFrames() as Array<{ action: string; contact: { id: number; walletUserId: number | null } }>;
    expect(contactFrames()).to.have.length(1);
    expect([frame!.action, frame!.contact.id, frame!.contact.walletUserId]).to.deep.equal(['update', contact.id, w.ana.userId]);

    // The same seller again changes nothing; a release is recorded too.
    w.ports.clock.advance(60_000);
    expect(await s().assignSeller.execute({ actor: w.admin, contactId: contact.id, userId: w.ana.userId })).to.deep.equal(assigned);
    expect(contactFrames()).to.have.length(1);
    const released = await s().assignSeller.execute({ actor: w.ana, contactId: contact.id, userId: null });
    expect(released).to.deep.equal({
      contactId: contact.id,
      seller: null,
      since: w.ports.clock.now().toISOString(),
      assignedBy: { id: w.ana.userId, name: 'Ana' },
    });
    expect(contactFrames()).to.have.length(2);
  });

  it('lets a user take an unowned contact and hand over their own; nothing else', async () => {
    const contact = await w.contact();
    expect(await code(s().assignSeller.execute({ actor: w.ana, contactId: contact.id, userId: w.bia.userId }))).to.equal('ERR_NO_PERMISSION');
    await s().assignSeller.execute({ actor: w.ana, contactId: contact.id, userId: w.ana.userId });
    expect(await code(s().assignSeller.execute({ actor: w.bia, contactId: contact.id, userId: w.bia.userId }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(s().assignSeller.execute({ actor: w.bia, contactId: contact.id, userId: null }))).to.equal('ERR_NO_PERMISSION');
    expect((await s().assignSeller.execute({ actor: w.ana, contactId: contact.id, userId: w.bia.userId })).seller).to.deep.equal({
      id: w.bia.userId,
      name: 'Bia',
    });
    expect((await s().assignSeller.execute({ actor: w.admin, contactId: contact.id, userId: w.carla.userId })).seller).to.deep.equal({
      id: w.carla.userId,
      name: 'Carla',
    });
  });

  it("answers 404 for another company's contact or user", async () => {
    const mine = await w.contact();
    const theirs = await w.contact(w.other.id);
    expect(await code(s().showResponsibleSeller.execute({ actor: w.admin, contactId: theirs.id }))).to.equal('ERR_NO_CONTACT_FOUND');
    expect(await code(s().assignSeller.execute({ actor: w.admin, contactId: theirs.id, userId: w.admin.userId }))).to.equal('ERR_NO_CONTACT_FOUND');
    expect(await code(s().assignSeller.execute({ actor: w.admin, contactId: mine.id, userId: w.otherAdmin.userId }))).to.equal('ERR_NO_USER_FOUND');
    expect((await w.ports.contacts.findById(w.acme.id, mine.id))!.walletUserId).to.equal(null);
  });

  it('PUT /contact-wallet writes the same owner and the same record', async () => {
    const contact = await w.contact();
    await w.app.contacts.setContactWallet.execute({ actor: w.admin, contactId: contact.id, userId: w.bia.userId });
    expect(await s().showResponsibleSeller.execute({ actor: w.ana, contactId: contact.id })).to.deep.equal({
      contactId: contact.id,
      seller: { id: w.bia.userId, name: 'Bia' },
      since: w.ports.clock.now().toISOString(),
      assignedBy: { id: w.admin.userId, name: 'Ada Admin' },
    });
    // A change the record does not know of (set before records were kept) has no `since`.
    await w.ports.contacts.update({ ...(await w.ports.contacts.findById(w.acme.id, contact.id))!, walletUserId: w.carla.userId });
    expect(await s().showResponsibleSeller.execute({ actor: w.ana, contactId: contact.id })).to.deep.include({
      since: null,
      assignedBy: null,
      seller: { id: w.carla.userId, name: 'Carla' },
    });
  });

  it('refuses a change whose contact moved on since it was read (409), and one whose contact is gone (404)', async () => {
    const contact = await w.contact();
    const wallets = w.ports.walletAssignments;
    const original = wallets.assign.bind(wallets);
    // Another change lands between the checks and the write.
    wallets.assign = async (change) => {
      wallets.assign = original;
      await original({ ...change, userId: w.bia.userId });
      return original(change);
    };
    expect(await code(s().assignSeller.execute({ actor: w.ana, contactId: contact.id, userId: w.ana.userId }))).to.equal('ERR_CONTACT_SELLER_CHANGED');
    expect((await w.ports.contacts.findById(w.acme.id, contact.id))!.walletUserId).to.equal(w.bia.userId);
    wallets.assign = async (change) => {
      wallets.assign = original;
      await w.ports.contacts.remove(w.acme.id, contact.id);
      return original(change);
    };
    expect(await code(s().assignSeller.execute({ actor: w.admin, contactId: contact.id, userId: w.ana.userId }))).to.equal('ERR_NO_CONTACT_FOUND');
  });
});

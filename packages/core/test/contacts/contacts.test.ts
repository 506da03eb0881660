import { expect } from 'chai';
import { createApplication, type ChannelQueries } from '../../src/index.js';
import { ListContacts } from '../../src/contacts/read-contacts.js';
import { code, ticketWorld } from '../messaging/ticket-world.js';

const contactEvents = (w: Awaited<ReturnType<typeof ticketWorld>>) =>
  w.ports.realtime.events.filter((e) => e.entity === 'contact').map((e) => ({ companyId: e.companyId, action: e.data.action }));

describe('Contacts (in-memory use cases)', () => {
  describe('create, read, change, delete', () => {
    it('creates a contact from a formatted number, shows it with identifiers and tags, and tells the company', async () => {
      const w = await ticketWorld();
      const created = await w.app.contacts.createContact.execute({
        actor: w.ana,
        name: '  Joana   Araújo ',
        number: '+55 (11) 98888-7777',
        email: ' Joana@Example.TEST ',
        extraInfo: [{ name: ' CPF ', value: '123' }],
        identifiers: [{ kind: 'lid', value: '123456789012345' }],
      });
      expect(created).to.deep.include({
        name: 'Joana Araújo',
        number: '5511988887777',
        email: 'joana@example.test',
        blocked: false,
        active: true,
        acceptAudioMessage: true,
        urlPicture: null,
        disableBot: false,
        walletUserId: null,
        linkedUserId: null,
        extraInfo: [{ name: 'CPF', value: '123' }],
        tags: [],
      });
      expect(created.identifiers).to.deep.equal([
        { kind: 'phone', value: '5511988887777', pageId: null },
        { kind: 'lid', value: '123456789012345', pageId: null },
      ]);
      expect(created.createdAt).to.be.a('string');
      const tag = await w.ports.tags.add({
        companyId: w.acme.id,
        name: 'VIP',
        color: '#ff0000',
        kanban: false,
        laneOrder: 0,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      await w.ports.tags.addContactTag(w.acme.id, created.id, tag.id);
      expect((await w.app.contacts.showContact.execute({ actor: w.bia, contactId: created.id })).tags).to.deep.equal([
        { id: tag.id, name: 'VIP', color: '#ff0000', kanban: false },
      ]);
      expect(await w.app.contacts.listContactTags.execute({ actor: w.bia, contactId: created.id })).to.deep.equal([
        { id: tag.id, name: 'VIP', color: '#ff0000', kanban: false },
      ]);
      expect(contactEvents(w)).to.deep.equal([{ companyId: w.acme.id, action: 'create' }]);
      expect(await code(w.app.contacts.createContact.execute({ actor: w.ana, name: 'Dup', number: '551188887777' }))).to.equal('ERR_DUPLICATED_CONTACT');
      expect(await code(w.app.contacts.showContact.execute({ actor: w.otherAdmin, contactId: created.id }))).to.equal('ERR_NO_CONTACT_FOUND');
      expect(await code(w.app.contacts.listContactTags.execute({ actor: w.otherAdmin, contactId: created.id }))).to.equal('ERR_NO_CONTACT_FOUND');
      const nameless = await w.app.contacts.createContact.execute({ actor: w.ana, number: '5511977776666' });
      expect(nameless.name).to.equal('5511977776666');
    });

    it('refuses bad fields with their codes', async () => {
      const w = await ticketWorld();
      const create = (fields: Record<string, unknown>) =>
        code(w.app.contacts.createContact.execute({ actor: w.ana, name: 'X', number: '5511988887777', ...fields }));
      expect(await create({ number: '' })).to.equal('ERR_MISSING_NUMBER');
      expect(await create({ number: '12-34' })).to.equal('ERR_INVALID_NUMBER');
      expect(await create({ number: '1234567890123456' })).to.equal('ERR_INVALID_NUMBER');
      expect(await create({ email: 'not-an-email' })).to.equal('ERR_INVALID_EMAIL');
      expect(await create({ name: 'x'.repeat(201) })).to.equal('ERR_NAME_TOO_LONG');
      expect(await create({ extraInfo: [{ name: ' ', value: 'v' }] })).to.equal('ERR_INVALID_EXTRA_INFO');
      expect(
        (await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Blank row', number: '5511900001111', extraInfo: [{ name: ' ', value: '' }] }))
          .extraInfo,
        'a blank row the form added is dropped',
      ).to.deep.equal([]);
      expect(await create({ identifiers: [{ kind: 'phone', value: '5511' }] })).to.equal('ERR_INVALID_IDENTIFIER');
      expect(await create({ identifiers: [{ kind: 'psid', value: '123' }] })).to.equal('ERR_INVALID_IDENTIFIER');
      const c = await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Ok', number: '5511988887777' });
      expect(await code(w.app.contacts.updateContact.execute({ actor: w.ana, contactId: c.id, name: '   ' }))).to.equal('ERR_INVALID_NAME');
      expect(contactEvents(w)).to.have.length(2);
    });

    it('updates what is given, moves the phone identifier with the number, replaces LIDs and page ids, and refuses a taken number', async () => {
      const w = await ticketWorld();
      const ana = await w.app.contacts.createContact.execute({
        actor: w.ana,
        name: 'Ana',
        number: '5511988887777',
        identifiers: [{ kind: 'lid', value: 'L1' }],
      });
      const bia = await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Bia', number: '5511977776666' });
      const updated = await w.app.contacts.updateContact.execute({
        actor: w.bia,
        contactId: ana.id,
        number: '5521966665555',
        email: null,
        acceptAudio: false,
        identifiers: [{ kind: 'psid', value: 'P1', pageId: 'page-1' }],
      });
      expect(updated).to.deep.include({ name: 'Ana', number: '5521966665555', acceptAudioMessage: false });
      expect(updated.identifiers.map((i) => `${i.kind}:${i.value}`)).to.deep.equal(['phone:5521966665555', 'psid:P1']);
      expect(await w.ports.contacts.findByNumber(w.acme.id, '5511988887777')).to.equal(null);
      expect(await code(w.app.contacts.updateContact.execute({ actor: w.ana, contactId: ana.id, number: '551177776666' }))).to.equal('ERR_DUPLICATED_CONTACT');
      expect(await code(w.app.contacts.updateContact.execute({ actor: w.otherAdmin, contactId: ana.id, name: 'x' }))).to.equal('ERR_NO_CONTACT_FOUND');
      expect((await w.app.contacts.updateContact.execute({ actor: w.ana, contactId: bia.id, number: '551177776666' })).number).to.equal('551177776666');
      const group = await w.ports.contacts.getOrCreate({
        companyId: w.acme.id,
        name: 'G',
        number: '120363025246125486',
        email: null,
        isGroup: true,
        profilePicUrl: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      expect(await code(w.app.contacts.updateContact.execute({ actor: w.ana, contactId: group.id, number: '5511911112222' }))).to.equal(
        'ERR_GROUP_NUMBER_FIXED',
      );
      expect(contactEvents(w).map((e) => e.action)).to.deep.equal(['create', 'create', 'update', 'update']);
    });

    it('lets admins only delete, and tells the company', async () => {
      const w = await ticketWorld();
      const c = await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Ana', number: '5511988887777' });
      expect(await code(w.app.contacts.deleteContact.execute({ actor: w.ana, contactId: c.id }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.contacts.deleteContact.execute({ actor: w.otherAdmin, contactId: c.id }))).to.equal('ERR_NO_CONTACT_FOUND');
      await w.app.contacts.deleteContact.execute({ actor: w.admin, contactId: c.id });
      expect(await w.ports.contacts.findById(w.acme.id, c.id)).to.equal(null);
      const last = w.ports.realtime.events.at(-1)!;
      expect(last).to.deep.include({ companyId: w.acme.id, entity: 'contact' });
      expect(last.data).to.deep.equal({ action: 'delete', contactId: c.id });
    });

    it('pages with search by accent-free name or number digits, and lists choices for pickers', async () => {
      const w = await ticketWorld();
      for (let i = 1; i <= 25; i++)
        await w.app.contacts.createContact.execute({
          actor: w.ana,
          name: `Cliente ${String(i).padStart(2, '0')}`,
          number: `55119100000${String(i).padStart(2, '0')}`,
        });
      await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Álvaro', number: '5521912345678' });
      const first = await w.app.contacts.listContacts.execute({ actor: w.bia });
      expect(first).to.include({ count: 26, hasMore: true });
      expect(first.contacts).to.have.length(20);
      expect(first.contacts[0]!.name).to.equal('Álvaro');
      const second = await w.app.contacts.listContacts.execute({ actor: w.bia, pageNumber: 2 });
      expect(second).to.include({ count: 26, hasMore: false });
      expect((await w.app.contacts.listContacts.execute({ actor: w.bia, searchParam: 'ALVARO' })).contacts.map((c) => c.name)).to.deep.equal(['Álvaro']);
      expect((await w.app.contacts.listContacts.execute({ actor: w.bia, searchParam: '(21) 91234' })).count).to.equal(1);
      expect((await w.app.contacts.listContacts.execute({ actor: w.otherAdmin })).count).to.equal(0);
      const choices = await w.app.contacts.listContactChoices.execute({ actor: w.bia, searchParam: 'cliente 0', limit: 3 });
      expect(choices).to.have.length(3);
      expect(choices[0]).to.have.keys(['id', 'name', 'number']);
    });

    it('gives each row of the page its tags when given the tags port, and refuses a date that is not a calendar day', async () => {
      const w = await ticketWorld();
      const ana = await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Ana', number: '5511988887777' });
      const tag = await w.app.tags.createTag.execute({ actor: w.admin, name: 'VIP', color: '#ff0000' });
      await w.app.tags.syncTags.execute({ actor: w.admin, contactId: ana.id, tagIds: [tag.id] });
      const page = await new ListContacts({ contacts: w.ports.contacts, tags: w.ports.tags }).execute({ actor: w.bia });
      expect(page.contacts[0]!.tags!.map((t) => t.name)).to.deep.equal(['VIP']);
      expect(await code(w.app.contacts.listContacts.execute({ actor: w.bia, dateStart: '2025-02-30' }))).to.equal('ERR_INVALID_DATE');
      expect(await code(w.app.contacts.listContacts.execute({ actor: w.bia, dateEnd: '01/02/2025' }))).to.equal('ERR_INVALID_DATE');
    });
  });

  describe('settings, owner and linked user', () => {
    it('toggles or sets audio, bot and blocking, each an update event', async () => {
      const w = await ticketWorld();
      const c = await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Ana', number: '5511988887777' });
      expect((await w.app.contacts.toggleAcceptAudio.execute({ actor: w.bia, contactId: c.id })).acceptAudioMessage).to.equal(false);
      expect((await w.app.contacts.toggleAcceptAudio.execute({ actor: w.bia, contactId: c.id })).acceptAudioMessage).to.equal(true);
      expect((await w.app.contacts.toggleAcceptAudio.execute({ actor: w.bia, contactId: c.id, acceptAudio: true })).acceptAudioMessage).to.equal(true);
      expect((await w.app.contacts.toggleDisableBot.execute({ actor: w.bia, contactId: c.id })).disableBot).to.equal(true);
      const blocked = await w.app.contacts.setContactBlocked.execute({ actor: w.bia, contactId: c.id, blocked: true });
      expect(blocked).to.include({ blocked: true, active: false });
      expect((await w.app.contacts.setContactBlocked.execute({ actor: w.bia, contactId: c.id })).blocked).to.equal(false);
      expect(await code(w.app.contacts.setContactBlocked.execute({ actor: w.otherAdmin, contactId: c.id }))).to.equal('ERR_NO_CONTACT_FOUND');
      expect(contactEvents(w).map((e) => e.action)).to.deep.equal(['create', 'update', 'update', 'update', 'update', 'update', 'update']);
    });

    it('gives the contact to an operator of the company and links it to one user at most (admins)', async () => {
      const w = await ticketWorld();
      const c = await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Ana', number: '5511988887777' });
      const d = await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Dora', number: '5511977776666' });
      expect(await code(w.app.contacts.setContactWallet.execute({ actor: w.ana, contactId: c.id, userId: w.ana.userId }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.contacts.setContactWallet.execute({ actor: w.admin, contactId: c.id, userId: w.otherAdmin.userId }))).to.equal(
        'ERR_NO_USER_FOUND',
      );
      expect((await w.app.contacts.setContactWallet.execute({ actor: w.admin, contactId: c.id, userId: w.bia.userId })).walletUserId).to.equal(w.bia.userId);
      expect((await w.app.contacts.setContactWallet.execute({ actor: w.admin, contactId: c.id, userId: null })).walletUserId).to.equal(null);
      expect(await code(w.app.contacts.linkContactUser.execute({ actor: w.bia, contactId: c.id, userId: w.bia.userId }))).to.equal('ERR_NO_PERMISSION');
      expect((await w.app.contacts.linkContactUser.execute({ actor: w.admin, contactId: c.id, userId: w.bia.userId })).linkedUserId).to.equal(w.bia.userId);
      expect(await code(w.app.contacts.linkContactUser.execute({ actor: w.admin, contactId: d.id, userId: w.bia.userId }))).to.equal('ERR_USER_ALREADY_LINKED');
      expect(await code(w.app.contacts.linkContactUser.execute({ actor: w.admin, contactId: d.id, userId: w.otherAdmin.userId }))).to.equal(
        'ERR_NO_USER_FOUND',
      );
      expect((await w.app.contacts.unlinkContactUser.execute({ actor: w.admin, contactId: c.id })).linkedUserId).to.equal(null);
      expect((await w.app.contacts.linkContactUser.execute({ actor: w.admin, contactId: d.id, userId: w.bia.userId })).linkedUserId).to.equal(w.bia.userId);
      expect(await code(w.app.contacts.unlinkContactUser.execute({ actor: w.otherAdmin, contactId: d.id }))).to.equal('ERR_NO_CONTACT_FOUND');
    });
  });

  describe('asking the connection', () => {
    const queries: ChannelQueries = {
      async checkNumber() {
        return { exists: true, id: null };
      },
      async contacts() {
        return [
          { number: '5511987650001', name: 'Ana Book' },
          { number: '551187650003', name: 'Carla Book' },
          { number: 'x', name: 'Bad' },
        ];
      },
      async profile(_c, number) {
        return { name: `Profile ${number}`, profilePicUrl: `https://pic.test/${number}.png` };
      },
    };

    it("reads a number's profile and refreshes the picture of the contact it reaches", async () => {
      const w = await ticketWorld();
      const app = createApplication({ ...w.ports, channelQueries: queries });
      const c = await app.contacts.createContact.execute({ actor: w.ana, name: 'Ana', number: '5511988887777' });
      const profile = await app.contacts.getContactProfile.execute({ actor: w.ana, number: '551188887777' });
      expect(profile).to.deep.include({
        number: '551188887777',
        name: 'Profile 551188887777',
        urlPicture: 'https://pic.test/551188887777.png',
        contactId: c.id,
      });
      expect(profile.contact).to.include({ id: c.id, urlPicture: 'https://pic.test/551188887777.png' });
      expect(await app.contacts.getContactProfile.execute({ actor: w.ana, number: '5531999998888' })).to.deep.include({ contact: null, contactId: null });
      expect(await code(app.contacts.getContactProfile.execute({ actor: w.ana, number: 'abc' }))).to.equal('ERR_INVALID_NUMBER');
      expect(await code(app.contacts.getContactProfile.execute({ actor: w.ana, number: '5511988887777', connectionId: w.otherConnection.id }))).to.equal(
        'ERR_NO_CONNECTION_FOUND',
      );
      expect(await code(w.app.contacts.getContactProfile.execute({ actor: w.ana, number: '5511988887777' }))).to.equal('ERR_SESSION_NOT_CONNECTED');
    });

    it('imports the address book in the background, merging by number', async () => {
      const w = await ticketWorld();
      const app = createApplication({ ...w.ports, channelQueries: queries });
      await app.contacts.createContact.execute({ actor: w.ana, name: 'Carla', number: '5511987650003' });
      const started = await app.contacts.importAddressBook.execute({ actor: w.ana });
      expect(started).to.include({ source: 'addressBook', status: 'running', total: 3, fileName: 'Main' });
      await w.ports.jobs.idle();
      const report = await app.contacts.showContactImport.execute({ actor: w.ana, importId: started.importId });
      expect(report).to.deep.include({ status: 'done', processed: 3, created: 1, merged: 1, failed: 1, errors: [{ row: 3, reason: 'ERR_INVALID_NUMBER' }] });
      expect((await w.ports.contacts.findByNumber(w.acme.id, '5511987650001'))?.name).to.equal('Ana Book');
      expect((await w.ports.contacts.findByNumber(w.acme.id, '551187650003'))?.name).to.equal('Carla');
      expect(await code(w.app.contacts.importAddressBook.execute({ actor: w.ana }))).to.equal('ERR_SESSION_NOT_CONNECTED');
    });
  });
});

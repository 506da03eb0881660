import { expect } from 'chai';
import { code, contactListWorld, type ContactListWorld } from './contact-list-world.js';

describe('Contact lists: lists and their items', () => {
  let w: ContactListWorld;
  beforeEach(async () => {
    w = await contactListWorld();
  });

  const newList = async (name = 'Clientes') => w.app.contactLists.createContactList.execute({ actor: w.admin, name });
  const newItem = async (contactListId: number, number: string, extra: Record<string, unknown> = {}) =>
    w.app.contactLists.createContactListItem.execute({ actor: w.admin, contactListId, number, ...extra });

  it('creates, renames, pages, shows and deletes lists, each with its counts; the events carry the view', async () => {
    const a = await newList('  Clientes   de São Paulo ');
    expect(a).to.include({ name: 'Clientes de São Paulo', companyId: w.acme.id, contactsCount: 0, validCount: 0, lastImport: null });
    const b = await newList('Antigos');
    await newItem(a.id, '5511988887777');
    const renamed = await w.app.contactLists.updateContactList.execute({ actor: w.admin, contactListId: b.id, name: 'Arquivo' });
    expect(renamed.name).to.equal('Arquivo');
    const unchanged = await w.app.contactLists.updateContactList.execute({ actor: w.admin, contactListId: b.id });
    expect(unchanged.name).to.equal('Arquivo');
    const page = await w.app.contactLists.listContactLists.execute({ actor: w.admin });
    expect(page.records.map((l) => [l.name, l.contactsCount, l.unknownCount])).to.deep.equal([
      ['Arquivo', 0, 0],
      ['Clientes de São Paulo', 1, 1],
    ]);
    expect(page).to.include({ count: 2, hasMore: false });
    expect((await w.app.contactLists.listContactLists.execute({ actor: w.admin, searchParam: 'SAO PAULO' })).records.map((l) => l.id)).to.deep.equal([a.id]);
    expect((await w.app.contactLists.listAllContactLists.execute({ actor: w.admin })).map((l) => l.name)).to.deep.equal(['Arquivo', 'Clientes de São Paulo']);
    expect((await w.app.contactLists.showContactList.execute({ actor: w.admin, contactListId: a.id })).contactsCount).to.equal(1);
    await w.app.contactLists.deleteContactList.execute({ actor: w.admin, contactListId: a.id });
    expect(await code(w.app.contactLists.showContactList.execute({ actor: w.admin, contactListId: a.id }))).to.equal('ERR_NO_CONTACT_LIST_FOUND');
    expect(await w.ports.contactListItems.page({ companyId: w.acme.id, page: { offset: 0, limit: 20 } })).to.deep.include({ count: 0 });
    const lists = w
      .events()
      .filter((e) => e.entity === 'ContactList')
      .map((e) => e.data.action);
    expect(lists).to.deep.equal(['create', 'create', 'update', 'update', 'delete']);
    const deleted = w.events('ContactList').at(-1)!;
    expect(deleted.data).to.deep.equal({ action: 'delete', id: a.id });
  });

  it('pages by 20 with hasMore', async () => {
    for (let i = 0; i < 21; i++) await newList(`Lista ${String(i).padStart(2, '0')}`);
    const first = await w.app.contactLists.listContactLists.execute({ actor: w.admin, pageNumber: 1 });
    const second = await w.app.contactLists.listContactLists.execute({ actor: w.admin, pageNumber: 2 });
    expect([first.records.length, first.hasMore, second.records.length, second.hasMore, second.count]).to.deep.equal([20, true, 1, false, 21]);
    expect(second.records[0]!.name).to.equal('Lista 20');
  });

  it("is for admins of companies whose plan has campaigns; another company's lists and items are 404", async () => {
    const list = await newList();
    const item = await newItem(list.id, '5511988887777');
    const lc = w.app.contactLists;
    for (const attempt of [
      lc.listContactLists.execute({ actor: w.operator }),
      lc.createContactList.execute({ actor: w.operator, name: 'x' }),
      lc.showContactListItem.execute({ actor: w.operator, itemId: item.id }),
      lc.deleteContactList.execute({ actor: w.operator, contactListId: list.id }),
    ])
      expect(await code(attempt)).to.equal('ERR_NO_PERMISSION');
    for (const attempt of [
      lc.showContactList.execute({ actor: w.otherAdmin, contactListId: list.id }),
      lc.updateContactList.execute({ actor: w.otherAdmin, contactListId: list.id, name: 'Mine' }),
      lc.deleteContactList.execute({ actor: w.otherAdmin, contactListId: list.id }),
      lc.listContactListItems.execute({ actor: w.otherAdmin, contactListId: list.id }),
      lc.listAllContactListItems.execute({ actor: w.otherAdmin, contactListId: list.id }),
      lc.createContactListItem.execute({ actor: w.otherAdmin, contactListId: list.id, number: '5511977776666' }),
      lc.startContactListImport.execute({
        actor: w.otherAdmin,
        contactListId: list.id,
        fileName: 'x.csv',
        rows: [{ row: 2, number: '5511977776666', variables: {} }],
      }),
    ])
      expect(await code(attempt)).to.equal('ERR_NO_CONTACT_LIST_FOUND');
    for (const attempt of [
      lc.showContactListItem.execute({ actor: w.otherAdmin, itemId: item.id }),
      lc.updateContactListItem.execute({ actor: w.otherAdmin, itemId: item.id, name: 'Mine' }),
      lc.deleteContactListItem.execute({ actor: w.otherAdmin, itemId: item.id }),
    ])
      expect(await code(attempt)).to.equal('ERR_NO_CONTACT_LIST_ITEM_FOUND');
    expect((await lc.listContactLists.execute({ actor: w.otherAdmin })).records).to.deep.equal([]);
    expect((await lc.listContactListItems.execute({ actor: w.otherAdmin })).contacts).to.deep.equal([]);
    expect((await lc.showContactListItem.execute({ actor: w.admin, itemId: item.id })).name).to.equal('5511988887777');

    await w.ports.plans.update({ ...(await w.ports.plans.findById(w.plan.id))!, features: { ...w.plan.features, campaigns: false } });
    expect(await code(lc.listAllContactLists.execute({ actor: w.admin }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect(await code(lc.showContactListItem.execute({ actor: w.admin, itemId: item.id }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
  });

  it('refuses to delete a list a campaign that has not started still reads', async () => {
    const list = await newList();
    const campaign = await w.app.campaigns.createCampaign.execute({ actor: w.admin, campaign: { name: 'Black Friday', contactListId: list.id } });
    const refused = await w.app.contactLists.deleteContactList.execute({ actor: w.admin, contactListId: list.id }).then(
      () => null,
      (e: { code: string; details?: unknown }) => e,
    );
    expect(refused).to.include({ code: 'ERR_CONTACT_LIST_IN_USE' });
    expect(JSON.stringify(refused!.details)).to.contain('Black Friday');
    expect((await w.app.contactLists.showContactList.execute({ actor: w.admin, contactListId: list.id })).id).to.equal(list.id);
    await w.app.campaigns.deleteCampaign.execute({ actor: w.admin, campaignId: campaign.id });
    await w.app.contactLists.deleteContactList.execute({ actor: w.admin, contactListId: list.id });
  });

  it('checks names, numbers, e-mails and variables', async () => {
    const list = await newList();
    const lc = w.app.contactLists;
    expect(await code(lc.createContactList.execute({ actor: w.admin, name: '   ' }))).to.equal('ERR_INVALID_CONTACT_LIST_NAME');
    expect(await code(lc.createContactList.execute({ actor: w.admin, name: 'x'.repeat(256) }))).to.equal('ERR_INVALID_CONTACT_LIST_NAME');
    expect(await code(newItem(list.id, ''))).to.equal('ERR_MISSING_NUMBER');
    expect(await code(newItem(list.id, '1234567'))).to.equal('ERR_INVALID_NUMBER');
    expect(await code(newItem(list.id, '5511988887777', { email: 'not-an-email' }))).to.equal('ERR_INVALID_EMAIL');
    expect(await code(newItem(list.id, '5511988887777', { name: 'n'.repeat(201) }))).to.equal('ERR_NAME_TOO_LONG');
    expect(await code(newItem(list.id, '5511988887777', { variables: { ' ': 'x' } }))).to.equal('ERR_INVALID_CONTACT_LIST_VARIABLES');
    expect(await code(newItem(list.id, '5511988887777', { variables: { cidade: 'x'.repeat(1001) } }))).to.equal('ERR_INVALID_CONTACT_LIST_VARIABLES');
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, '1']));
    expect(await code(newItem(list.id, '5511988887777', { variables: many }))).to.equal('ERR_INVALID_CONTACT_LIST_VARIABLES');
    const item = await newItem(list.id, '+55 (11) 98888-7777', {
      name: ' Ana ',
      email: 'ANA@Mail.test',
      variables: { ' Cidade ': 'Santos', __proto__: 'x' } as Record<string, string>,
    });
    expect(item).to.include({
      name: 'Ana',
      number: '5511988887777',
      canonicalNumber: '5511988887777',
      email: 'ana@mail.test',
      validity: 'unknown',
      isChatappValid: false,
    });
    expect(item.variables).to.deep.equal({ cidade: 'Santos' });
  });

  it('keeps one item per number in a list (the ninth digit or not), refusing a second on create and update', async () => {
    const list = await newList();
    const other = await newList('Outra');
    const ana = await newItem(list.id, '5511988887777', { name: 'Ana' });
    expect(await code(newItem(list.id, '551188887777'))).to.equal('ERR_CONTACT_LIST_ITEM_DUPLICATE');
    expect((await newItem(other.id, '551188887777')).canonicalNumber).to.equal('5511988887777');
    const bia = await newItem(list.id, '5511977776666', { name: 'Bia' });
    expect(await code(w.app.contactLists.updateContactListItem.execute({ actor: w.admin, itemId: bia.id, number: '551188887777' }))).to.equal(
      'ERR_CONTACT_LIST_ITEM_DUPLICATE',
    );
    expect((await w.app.contactLists.showContactListItem.execute({ actor: w.admin, itemId: bia.id })).number).to.equal('5511977776666');
    expect((await w.app.contactLists.showContactListItem.execute({ actor: w.admin, itemId: ana.id })).name).to.equal('Ana');
  });

  it('edits items as the client sends them back; a new number waits for its check again', async () => {
    const list = await newList();
    const item = await newItem(list.id, '5511988887777', { name: 'Ana', variables: { plano: 'ouro' } });
    await w.ports.contactListItems.saveChecks(
      w.acme.id,
      [{ id: item.id, checked: item.number, validity: 'valid', number: item.number, validationError: null }],
      w.ports.clock.now(),
    );
    const sameNumber = await w.app.contactLists.updateContactListItem.execute({
      actor: w.admin,
      itemId: item.id,
      name: 'Ana Paula',
      number: '5511988887777',
      email: '',
    });
    expect(sameNumber).to.include({ name: 'Ana Paula', validity: 'valid', isChatappValid: true, email: '' });
    expect(sameNumber.variables).to.deep.equal({ plano: 'ouro' });
    const moved = await w.app.contactLists.updateContactListItem.execute({ actor: w.admin, itemId: item.id, number: '5511977776666', variables: {} });
    expect(moved).to.include({ number: '5511977776666', canonicalNumber: '5511977776666', validity: 'unknown', validatedAt: null, isChatappValid: false });
    expect(moved.variables).to.deep.equal({});
    const [itemEvent, listEvent] = w.events().slice(-2);
    expect(itemEvent).to.deep.include({ entity: 'ContactListItem', data: { action: 'update', record: moved } });
    expect(listEvent!.entity).to.equal('ContactList');
  });

  it('pages items by name, of a list or of all, found by name or number; lists every item of a list', async () => {
    const a = await newList('A');
    const b = await newList('B');
    await newItem(a.id, '5511988887777', { name: 'Zé' });
    await newItem(a.id, '5511977776666', { name: 'Álvaro' });
    await newItem(b.id, '5521966665555', { name: 'Bruna' });
    const names = (r: { contacts: Array<{ name: string }> }) => r.contacts.map((c) => c.name);
    const lc = w.app.contactLists;
    expect(names(await lc.listContactListItems.execute({ actor: w.admin, contactListId: a.id }))).to.deep.equal(['Álvaro', 'Zé']);
    expect(names(await lc.listContactListItems.execute({ actor: w.admin }))).to.deep.equal(['Álvaro', 'Bruna', 'Zé']);
    expect(names(await lc.listContactListItems.execute({ actor: w.admin, searchParam: 'alv' }))).to.deep.equal(['Álvaro']);
    expect(names(await lc.listContactListItems.execute({ actor: w.admin, searchParam: '(21) 96666' }))).to.deep.equal(['Bruna']);
    expect((await lc.listAllContactListItems.execute({ actor: w.admin, contactListId: b.id })).map((i) => i.name)).to.deep.equal(['Bruna']);
    const item = (await lc.listAllContactListItems.execute({ actor: w.admin, contactListId: b.id }))[0]!;
    await lc.deleteContactListItem.execute({ actor: w.admin, itemId: item.id });
    expect(
      w
        .events()
        .slice(-2)
        .map((e) => [e.entity, e.data.action]),
    ).to.deep.equal([
      ['ContactListItem', 'delete'],
      ['ContactList', 'update'],
    ]);
    expect(w.events('ContactListItem').at(-1)!.data).to.deep.equal({ action: 'delete', id: item.id, contactListId: b.id });
    expect(await lc.listAllContactListItems.execute({ actor: w.admin, contactListId: b.id })).to.deep.equal([]);
  });
});

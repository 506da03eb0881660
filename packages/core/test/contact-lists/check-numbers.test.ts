import { expect } from 'chai';
import { ConflictError } from '../../src/index.js';
import type { CheckPace } from '../../src/contact-lists/check-list-numbers.js';
import { connectionFixture } from '../contracts/messaging-contract.js';
import { contactListWorld, type ContactListWorld } from './contact-list-world.js';

const PACE: CheckPace = { perCompany: 3, companies: 10, retryErrorsAfterMs: 60_000 };

describe('Contact lists: the number check', () => {
  let w: ContactListWorld;
  let listId: number;
  beforeEach(async () => {
    w = await contactListWorld();
    listId = (await w.app.contactLists.createContactList.execute({ actor: w.admin, name: 'Clientes' })).id;
  });
  const add = (number: string, actor = w.admin, contactListId = listId) =>
    w.app.contactLists.createContactListItem.execute({ actor, contactListId, number, name: `N ${number.slice(-4)}` });
  const item = async (id: number) => (await w.ports.contactListItems.findById(w.acme.id, id))!;
  const check = () => w.app.contactLists.checkListNumbers.execute(PACE);

  it("marks found numbers valid (in the provider's form) and unknown ones invalid, a few per company and run, on the default connection", async () => {
    const ana = await add('5511988887777');
    const bia = await add('5511977776666');
    const caio = await add('5521955554444');
    const davi = await add('5531944443333');
    w.checks.known.set('5511988887777', '551188887777@s.whatsapp.net');
    w.checks.known.set('5511977776666', '5511977776666@s.whatsapp.net');
    await w.ports.connections.add(connectionFixture(w.acme.id, 'Second', { status: 'CONNECTED' }));
    const before = w.events().length;
    expect(await check()).to.equal(3);
    expect(w.checks.asked).to.deep.equal([ana, bia, caio].map((i) => ({ connectionId: w.connection.id, number: i.number })));
    expect(await item(ana.id)).to.include({ validity: 'valid', number: '551188887777', canonicalNumber: '5511988887777', validationError: null });
    expect((await item(ana.id)).validatedAt).to.be.instanceOf(Date);
    expect(await item(bia.id)).to.include({ validity: 'valid', number: '5511977776666' });
    expect(await item(caio.id)).to.include({ validity: 'invalid', number: '5521955554444' });
    expect((await item(davi.id)).validity).to.equal('unknown');
    const published = w.events().slice(before);
    expect(published.map((e) => `${e.entity}:${e.data.action}`)).to.deep.equal(['ContactListItem:reload', 'ContactList:update']);
    const reload = published[0]!.data as { contactListId: number; records: Array<{ id: number; isChatappValid: boolean }> };
    expect(reload.contactListId).to.equal(listId);
    expect(reload.records.map((r) => [r.id, r.isChatappValid])).to.deep.equal([
      [ana.id, true],
      [bia.id, true],
      [caio.id, false],
    ]);
    expect(published[1]!.data).to.deep.include({ action: 'update' });
    expect((published[1]!.data as { record: { validCount: number; invalidCount: number; unknownCount: number } }).record).to.include({
      validCount: 2,
      invalidCount: 1,
      unknownCount: 1,
    });
    expect(await check()).to.equal(1);
    expect(await check()).to.equal(0);
  });

  it('a check that cannot run marks the item and the rest of its batch `error`, never `invalid`, and retries them later', async () => {
    const a = await add('5511988887777');
    const b = await add('5511977776666');
    w.checks.down = new ConflictError('ERR_SESSION_NOT_CONNECTED');
    expect(await check()).to.equal(2);
    expect(w.checks.asked).to.have.length(1);
    for (const id of [a.id, b.id]) expect(await item(id)).to.include({ validity: 'error', validationError: 'ERR_SESSION_NOT_CONNECTED' });
    expect(await check()).to.equal(0);
    w.checks.down = null;
    w.checks.known.set('5511988887777', '5511988887777@s.whatsapp.net');
    w.ports.clock.advance(PACE.retryErrorsAfterMs);
    expect(await check()).to.equal(2);
    expect(await item(a.id)).to.include({ validity: 'valid', validationError: null });
    expect(await item(b.id)).to.include({ validity: 'invalid', validationError: null });
  });

  it('a provider failure without a code is ERR_NUMBER_CHECK_FAILED; no connected connection is ERR_SESSION_NOT_CONNECTED without asking', async () => {
    const a = await add('5511988887777');
    w.checks.down = new Error('socket hang up');
    await check();
    expect(await item(a.id)).to.include({ validity: 'error', validationError: 'ERR_NUMBER_CHECK_FAILED' });
    await w.ports.connections.update({ ...w.connection, status: 'DISCONNECTED' });
    const b = await add('5511977776666');
    w.checks.asked.length = 0;
    await check();
    expect(w.checks.asked).to.deep.equal([]);
    expect(await item(b.id)).to.include({ validity: 'error', validationError: 'ERR_SESSION_NOT_CONNECTED' });
  });

  it('serves each company on its own connection, and leaves an item whose number changed meanwhile alone', async () => {
    const otherConnection = await w.ports.connections.add(connectionFixture(w.other.id, 'Theirs', { status: 'CONNECTED' }));
    const theirList = (await w.app.contactLists.createContactList.execute({ actor: w.otherAdmin, name: 'Deles' })).id;
    const mine = await add('5511988887777');
    const theirs = await add('5521955554444', w.otherAdmin, theirList);
    w.checks.known.set('5511988887777', '5511988887777@s.whatsapp.net');
    const slow = w.checks.checkNumber.bind(w.checks);
    w.checks.checkNumber = async (connection, number) => {
      const answer = await slow(connection, number);
      if (number === mine.number) await w.app.contactLists.updateContactListItem.execute({ actor: w.admin, itemId: mine.id, number: '5511977776666' });
      return answer;
    };
    await check();
    expect(w.checks.asked).to.deep.equal([
      { connectionId: w.connection.id, number: mine.number },
      { connectionId: otherConnection.id, number: theirs.number },
    ]);
    expect(await item(mine.id)).to.include({ number: '5511977776666', validity: 'unknown' });
    expect((await w.ports.contactListItems.findById(w.other.id, theirs.id))!.validity).to.equal('invalid');
    expect(
      w
        .events()
        .filter((e) => e.entity === 'ContactListItem' && e.data.action === 'reload')
        .map((e) => e.companyId),
    ).to.deep.equal([w.other.id]);
  });
});

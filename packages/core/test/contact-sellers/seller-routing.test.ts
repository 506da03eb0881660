import { expect } from 'chai';
import { promptFixture } from '../contracts/prompts-contract.js';
import { botWorld, type BotWorld } from '../queues/bot-world.js';

const MENU = 'Welcome!';
const FROM = '5511999990000';

/** The contact that writes in (`FROM`), with `userId` as its responsible seller. */
async function sellerOf(w: BotWorld, userId: number | null) {
  const now = w.ports.clock.now();
  const contact = await w.ports.contacts.getOrCreate({
    companyId: w.acme.id,
    name: 'Carla',
    number: FROM,
    email: null,
    isGroup: false,
    profilePicUrl: null,
    createdAt: now,
    updatedAt: now,
  });
  await w.app.contactSellers.assignSeller.execute({ actor: w.admin, contactId: contact.id, userId });
  return contact;
}

describe("Routing engine: a contact's responsible seller (in-memory)", () => {
  it('with DirectTicketsToWallets, a new conversation opens assigned to the seller: greeting only, no menu; replies stay with the seller', async () => {
    const w = await botWorld();
    await w.setting('DirectTicketsToWallets', 'true');
    await sellerOf(w, w.bia.userId);
    await w.say('oi');
    expect(w.sent()).to.deep.equal([MENU]);
    expect(await w.ticket()).to.include({ status: 'open', userId: w.bia.userId, queueId: null, botActive: false });
    await w.say('1');
    expect(w.sent()).to.have.length(1);
    expect(await w.ticket()).to.include({ status: 'open', userId: w.bia.userId, queueId: null });
  });

  it("takes the connection's queue when it offers exactly one, without its greeting or menu", async () => {
    const w = await botWorld({ queues: 1 });
    await w.option(w.sales, '1', { title: 'Um' });
    await w.setting('DirectTicketsToWallets', 'true');
    await sellerOf(w, w.ana.userId);
    await w.say('oi');
    expect(w.sent()).to.deep.equal([MENU]);
    expect(await w.ticket()).to.include({ status: 'open', userId: w.ana.userId, queueId: w.sales.id, botActive: false });
  });

  it("comes before the connection's assistant; out of the company's hours the contact gets the out-of-hours message, still assigned", async () => {
    const w = await botWorld();
    const prompt = await w.ports.prompts.add(promptFixture(w.acme.id, 'Bot', w.sales.id));
    await w.ports.connections.update({ ...w.connection, promptId: prompt.id });
    // Without a seller, the assistant would answer the new conversation.
    await w.say('oi', { from: '5511977776666' });
    expect(w.ports.outbox.entries.filter((e) => e.subject.startsWith('cmd.prompt.'))).to.have.length(1);
    await w.setting('DirectTicketsToWallets', 'true');
    await w.setting('scheduleType', 'company');
    w.ports.clock.advance(2 * 24 * 3600_000); // Saturday
    await sellerOf(w, w.ana.userId);
    await w.say('oi');
    expect(w.sent()).to.deep.equal(['We are closed.']);
    expect(await w.ticket()).to.include({ status: 'open', userId: w.ana.userId, botActive: false });
    expect(w.ports.outbox.entries.filter((e) => e.subject.startsWith('cmd.prompt.'))).to.have.length(1);
  });

  it('does nothing without the setting, without a seller, for a seller since deleted, or for a reply to a ticket already routed', async () => {
    const off = await botWorld();
    await sellerOf(off, off.bia.userId);
    await off.say('oi');
    expect(await off.ticket()).to.include({ status: 'pending', userId: null, botActive: true });

    const none = await botWorld();
    await none.setting('DirectTicketsToWallets', 'true');
    await sellerOf(none, null);
    await none.say('oi');
    expect(await none.ticket()).to.include({ status: 'pending', userId: null, botActive: true });

    const gone = await botWorld();
    await gone.setting('DirectTicketsToWallets', 'true');
    await sellerOf(gone, gone.bia.userId);
    await gone.ports.users.remove(gone.acme.id, gone.bia.userId);
    await gone.say('oi');
    expect(await gone.ticket()).to.include({ status: 'pending', userId: null, botActive: true });

    // The seller is given after the conversation opened: the bot goes on, the next conversation goes to the seller.
    const later = await botWorld();
    await later.setting('DirectTicketsToWallets', 'true');
    await later.say('oi');
    await sellerOf(later, later.ana.userId);
    await later.say('9');
    expect(await later.ticket()).to.include({ status: 'pending', userId: null });
  });
});

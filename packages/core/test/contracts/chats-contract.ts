import { expect } from 'chai';
import type { Companies, Plans, Users } from '../../src/index.js';
import type { ChatMedia, NewChat } from '../../src/chats/chat.js';
import type { ChatMessages, Chats } from '../../src/chats/ports.js';
import { companyFixture, planFixture, userFixture } from './repositories-contract.js';

export interface ChatsFixture {
  readonly chats: Chats;
  readonly chatMessages: ChatMessages;
  readonly users: Users;
  readonly companies: Companies;
  readonly plans: Plans;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const page = (offset = 0, limit = 20) => ({ offset, limit });
const MEDIA: ChatMedia = { key: 'public/company-1/chats/1/u-1-plan.pdf', name: 'plan.pdf', contentType: 'application/pdf', size: 1234 };

/** One suite for every adapter of the Chats and ChatMessages ports. */
export function describeChatsContract(name: string, make: () => Promise<ChatsFixture>) {
  describe(`Chats contract: ${name}`, () => {
    let r: ChatsFixture;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies, three users of the first and one of the second. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      const plan = await r.plans.add(planFixture('P'));
      const c1 = (await r.companies.add(companyFixture(plan.id, 'One'))).id;
      const c2 = (await r.companies.add(companyFixture(plan.id, 'Two'))).id;
      const user = async (companyId: number, email: string, name: string) => (await r.users.add(userFixture(companyId, email, { name }))).id;
      return {
        c1,
        c2,
        ana: await user(c1, 'ana@one.test', 'Ana'),
        bia: await user(c1, 'bia@one.test', 'Bia'),
        caio: await user(c1, 'caio@one.test', 'Caio'),
        zoe: await user(c2, 'zoe@two.test', 'Zoe'),
      };
    }
    const draft = (
      companyId: number,
      ownerId: number,
      title: string,
      minutes = 0,
      uuid = `00000000-0000-4000-8000-${String(minutes).padStart(12, '0')}`,
    ): NewChat => ({
      companyId,
      uuid,
      title,
      ownerId,
      lastMessage: '',
      lastMessageId: null,
      createdAt: at(minutes),
      updatedAt: at(minutes),
    });
    const say = (companyId: number, chatId: number, senderId: number | null, message: string, minutes = 1, media: ChatMedia | null = null) =>
      r.chatMessages.add({ companyId, chatId, senderId, message, media, createdAt: at(minutes), updatedAt: at(minutes) });
    const unreads = async (companyId: number, chatId: number) =>
      Object.fromEntries(((await r.chats.members(companyId, [chatId])).get(chatId) ?? []).map((m) => [m.name, m.unreads]));

    it('stores a chat with its members, finds it by id and uuid within its company only, renames and removes it', async () => {
      const { c1, c2, ana, bia } = await given();
      const chat = await r.chats.add(draft(c1, ana, 'Plantão', 0, '6f1c0a52-3d2e-4b8a-9f10-2a4b5c6d7e8f'), [ana, bia]);
      expect({ ...(await r.chats.findById(c1, chat.id)) }).to.deep.equal({
        ...draft(c1, ana, 'Plantão', 0, '6f1c0a52-3d2e-4b8a-9f10-2a4b5c6d7e8f'),
        id: chat.id,
      });
      expect((await r.chats.findByUuid(c1, chat.uuid))?.id).to.equal(chat.id);
      expect(await r.chats.findById(c2, chat.id)).to.equal(null);
      expect(await r.chats.findByUuid(c2, chat.uuid)).to.equal(null);
      expect(await r.chats.isMember(c1, chat.id, bia)).to.equal(true);
      expect(await r.chats.isMember(c2, chat.id, bia)).to.equal(false);
      expect((await r.chats.members(c2, [chat.id])).size).to.equal(0);

      await r.chats.update({ ...chat, title: 'Plantão noturno', lastMessage: 'ignored', updatedAt: at(5) });
      expect(await r.chats.findById(c1, chat.id)).to.include({ title: 'Plantão noturno', lastMessage: '' });
      expect((await r.chats.findById(c1, chat.id))!.updatedAt).to.deep.equal(at(5));
      await r.chats.update({ ...chat, companyId: c2, title: 'Hijack' });
      expect((await r.chats.findById(c1, chat.id))!.title).to.equal('Plantão noturno');

      await say(c1, chat.id, ana, 'oi', 1, MEDIA);
      expect(await r.chats.holdForMessage(c1, chat.id)).to.equal(true);
      expect(await r.chats.holdForMessage(c2, chat.id)).to.equal(false);
      expect(await r.chats.remove(c2, chat.id)).to.equal(false);
      expect(await r.chats.remove(c1, chat.id)).to.equal(true);
      expect(await r.chats.findById(c1, chat.id)).to.equal(null);
      expect(await r.chats.isMember(c1, chat.id, ana)).to.equal(false);
      expect(await r.chatMessages.page(c1, chat.id, page())).to.deep.equal({ rows: [], count: 0 });
      expect(await r.chats.remove(c1, chat.id)).to.equal(false);
      expect(await r.chats.holdForMessage(c1, chat.id), 'a deleted chat').to.equal(false);
    });

    it("counts per member the others' messages after their read mark; their own never count; a read mark is the member's alone", async () => {
      const { c1, ana, bia, caio } = await given();
      const chat = await r.chats.add(draft(c1, ana, 'Turno'), [ana, bia, caio]);
      expect(await unreads(c1, chat.id)).to.deep.equal({ Ana: 0, Bia: 0, Caio: 0 });
      await say(c1, chat.id, ana, 'um');
      await say(c1, chat.id, ana, 'dois');
      await say(c1, chat.id, bia, 'três');
      expect(await unreads(c1, chat.id)).to.deep.equal({ Ana: 1, Bia: 2, Caio: 3 });
      await r.chats.markRead(c1, chat.id, bia);
      expect(await unreads(c1, chat.id)).to.deep.equal({ Ana: 1, Bia: 0, Caio: 3 });
      await say(c1, chat.id, caio, 'quatro');
      expect(await unreads(c1, chat.id)).to.deep.equal({ Ana: 2, Bia: 1, Caio: 3 });
      await r.chats.markRead(c1, chat.id, caio);
      await r.chats.markRead(c1, chat.id, caio);
      expect(await unreads(c1, chat.id)).to.deep.equal({ Ana: 2, Bia: 1, Caio: 0 });
      // Members are listed by user id, with their user's name and e-mail.
      const members = (await r.chats.members(c1, [chat.id])).get(chat.id)!;
      expect(members.map((m) => ({ ...m }))).to.deep.equal([
        { chatId: chat.id, userId: ana, name: 'Ana', email: 'ana@one.test', unreads: 2 },
        { chatId: chat.id, userId: bia, name: 'Bia', email: 'bia@one.test', unreads: 1 },
        { chatId: chat.id, userId: caio, name: 'Caio', email: 'caio@one.test', unreads: 0 },
      ]);
    });

    it('replaces the members: those who stay keep their mark, those who join have nothing unread, those who leave are gone', async () => {
      const { c1, c2, ana, bia, caio } = await given();
      const chat = await r.chats.add(draft(c1, ana, 'Turno'), [ana, bia]);
      await say(c1, chat.id, ana, 'um');
      await say(c1, chat.id, ana, 'dois');
      await r.chats.setMembers(c1, chat.id, [ana, caio]);
      expect(await unreads(c1, chat.id)).to.deep.equal({ Ana: 0, Caio: 0 });
      expect(await r.chats.isMember(c1, chat.id, bia)).to.equal(false);
      await say(c1, chat.id, ana, 'três');
      await r.chats.setMembers(c1, chat.id, [ana, caio, bia]);
      expect(await unreads(c1, chat.id)).to.deep.equal({ Ana: 0, Bia: 0, Caio: 1 });
      await r.chats.setMembers(c2, chat.id, [ana]);
      expect(Object.keys(await unreads(c1, chat.id))).to.deep.equal(['Ana', 'Bia', 'Caio']);
    });

    it("pages a member's chats, latest activity first, found by title ignoring case and accents", async () => {
      const { c1, c2, ana, bia, zoe } = await given();
      const old = await r.chats.add(draft(c1, ana, 'Vendas', 1), [ana, bia]);
      const recent = await r.chats.add(draft(c1, bia, 'Suporte técnico', 2), [bia, ana]);
      const notMine = await r.chats.add(draft(c1, bia, 'Só Bia', 3), [bia]);
      await r.chats.add(draft(c2, zoe, 'Vendas', 4), [zoe]);
      const ids = async (memberId: number, companyId = c1, search?: string, p = page()) =>
        await r.chats.page({ companyId, memberId, page: p, ...(search ? { search } : {}) });
      expect((await ids(ana)).rows.map((c) => c.id)).to.deep.equal([recent.id, old.id]);
      expect((await ids(ana)).count).to.equal(2);
      expect((await ids(bia)).rows.map((c) => c.id)).to.deep.equal([notMine.id, recent.id, old.id]);
      expect((await ids(ana, c1, 'TECNICO')).rows.map((c) => c.id)).to.deep.equal([recent.id]);
      expect(await ids(ana, c1, 'nada')).to.deep.equal({ rows: [], count: 0 });
      expect(await ids(ana, c2)).to.deep.equal({ rows: [], count: 0 });
      const second = await ids(ana, c1, undefined, page(1, 1));
      expect({ ids: second.rows.map((c) => c.id), count: second.count }).to.deep.equal({ ids: [old.id], count: 2 });
      // A message moves its chat up.
      const m = await say(c1, old.id, bia, 'agora', 10);
      await r.chats.recordMessage(c1, old.id, m.id, 'Bia: agora', at(10));
      expect((await ids(ana)).rows.map((c) => c.id)).to.deep.equal([old.id, recent.id]);
    });

    it("keeps the latest message's summary: an earlier message recorded late does not replace it", async () => {
      const { c1, c2, ana, bia } = await given();
      const chat = await r.chats.add(draft(c1, ana, 'Turno'), [ana, bia]);
      const first = await say(c1, chat.id, ana, 'primeira', 1);
      const second = await say(c1, chat.id, bia, 'segunda', 2);
      await r.chats.recordMessage(c1, chat.id, second.id, 'Bia: segunda', at(2));
      await r.chats.recordMessage(c1, chat.id, first.id, 'Ana: primeira', at(1));
      await r.chats.recordMessage(c2, chat.id, second.id + 1, 'Zoe: intrusa', at(3));
      const stored = await r.chats.findById(c1, chat.id);
      expect(stored).to.include({ lastMessage: 'Bia: segunda', lastMessageId: second.id });
      expect(stored!.updatedAt).to.deep.equal(at(2));
    });

    it("pages a chat's messages newest first with their sender's name, keeps files, and loses the sender with its user", async () => {
      const { c1, c2, ana, bia } = await given();
      const chat = await r.chats.add(draft(c1, ana, 'Turno'), [ana, bia]);
      const other = await r.chats.add(draft(c1, ana, 'Outro', 1), [ana]);
      const sent = [];
      for (let i = 1; i <= 3; i++) sent.push(await say(c1, chat.id, i === 2 ? bia : ana, `m${i}`, i, i === 3 ? MEDIA : null));
      await say(c1, other.id, ana, 'elsewhere');
      expect({ ...sent[2] }).to.deep.equal({
        id: sent[2]!.id,
        companyId: c1,
        chatId: chat.id,
        senderId: ana,
        senderName: 'Ana',
        message: 'm3',
        media: MEDIA,
        createdAt: at(3),
        updatedAt: at(3),
      });
      const all = await r.chatMessages.page(c1, chat.id, page());
      expect(all.count).to.equal(3);
      expect(all.rows.map((m) => m.message)).to.deep.equal(['m3', 'm2', 'm1']);
      expect(all.rows.map((m) => m.senderName)).to.deep.equal(['Ana', 'Bia', 'Ana']);
      const older = await r.chatMessages.page(c1, chat.id, page(2, 2));
      expect({ messages: older.rows.map((m) => m.message), count: older.count }).to.deep.equal({ messages: ['m1'], count: 3 });
      expect(await r.chatMessages.page(c2, chat.id, page())).to.deep.equal({ rows: [], count: 0 });
      expect(await r.chatMessages.mediaKeys(c1, chat.id)).to.deep.equal([MEDIA.key]);
      expect(await r.chatMessages.mediaKeys(c2, chat.id)).to.deep.equal([]);

      await r.users.remove(c1, bia);
      const after = await r.chatMessages.page(c1, chat.id, page());
      expect(after.rows.map((m) => [m.senderName, m.message])).to.deep.equal([
        ['Ana', 'm3'],
        [null, 'm2'],
        ['Ana', 'm1'],
      ]);
      expect(Object.keys(await unreads(c1, chat.id))).to.deep.equal(['Ana']);
    });
  });
}

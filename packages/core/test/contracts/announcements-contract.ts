import { expect } from 'chai';
import type { Companies, Plans, Users } from '../../src/index.js';
import type { Announcement, NewAnnouncement } from '../../src/announcements/announcement.js';
import type { AnnouncementAudience, Announcements } from '../../src/announcements/ports.js';
import { companyFixture, planFixture, userFixture } from './repositories-contract.js';

export interface AnnouncementsFixture {
  readonly announcements: Announcements;
  readonly announcementAudience: AnnouncementAudience;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly users: Users;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const page = (offset = 0, limit = 20) => ({ offset, limit });

export function announcementFixture(companyId: number, title: string, overrides: Partial<NewAnnouncement> = {}): NewAnnouncement {
  return {
    companyId,
    priority: 3,
    title,
    text: `${title}: texto`,
    mediaKey: null,
    mediaName: null,
    mediaType: null,
    status: true,
    targetCompanyIds: null,
    startsAt: null,
    endsAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = (a: Announcement | null) => (a ? { ...a } : a);
const titles = (rows: readonly Announcement[]) => rows.map((a) => a.title);

/** One suite for every adapter of the Announcements and AnnouncementAudience ports. */
export function describeAnnouncementsContract(name: string, make: () => Promise<AnnouncementsFixture>) {
  describe(`Announcements contract: ${name}`, () => {
    let r: AnnouncementsFixture;
    let c1: number;
    let c2: number;
    let c3: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Three companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      const plan = await r.plans.add(planFixture('P'));
      c1 = (await r.companies.add(companyFixture(plan.id, 'Platform'))).id;
      c2 = (await r.companies.add(companyFixture(plan.id, 'Two'))).id;
      c3 = (await r.companies.add(companyFixture(plan.id, 'Three'))).id;
    }

    it('stores an announcement with its targets, finds it, saves every field but its company and creation, and removes it', async () => {
      await given();
      const a = await r.announcements.add(announcementFixture(c1, 'Manutenção', { targetCompanyIds: [c3, c2], startsAt: at(5), endsAt: at(60) }));
      expect(plain(await r.announcements.findById(a.id))).to.deep.equal({
        ...announcementFixture(c1, 'Manutenção'),
        id: a.id,
        targetCompanyIds: [c2, c3],
        startsAt: at(5),
        endsAt: at(60),
      });
      const everyField: Announcement = {
        ...a,
        companyId: c2,
        priority: 1,
        title: 'Manutenção amanhã',
        text: 'Das 2h às 4h',
        mediaKey: 'public/announcements/x.png',
        mediaName: 'aviso.png',
        mediaType: 'image/png',
        status: false,
        targetCompanyIds: [c3],
        startsAt: null,
        endsAt: at(90),
        createdAt: at(1),
        updatedAt: at(2),
      };
      await r.announcements.update(everyField);
      expect(plain(await r.announcements.findById(a.id))).to.deep.equal({ ...everyField, companyId: c1, createdAt: T0 });
      await r.announcements.update({ ...everyField, targetCompanyIds: null });
      expect((await r.announcements.findById(a.id))!.targetCompanyIds).to.equal(null);
      await r.announcements.update({ ...everyField, targetCompanyIds: [c2, c1] });
      expect((await r.announcements.findById(a.id))!.targetCompanyIds).to.deep.equal([c1, c2]);
      expect(await r.announcements.remove(a.id)).to.equal(true);
      expect(await r.announcements.findById(a.id)).to.equal(null);
      expect(await r.announcements.remove(a.id)).to.equal(false);
      expect(await r.announcements.findById(987654)).to.equal(null);
    });

    it("leaves out targets that are not companies, and follows a company's removal (its targets, its announcements)", async () => {
      await given();
      const a = await r.announcements.add(announcementFixture(c1, 'Alvo', { targetCompanyIds: [c2, 999_999] }));
      expect(a.targetCompanyIds).to.deep.equal([c2]);
      expect((await r.announcements.findById(a.id))!.targetCompanyIds).to.deep.equal([c2]);
      await r.announcements.update({ ...a, targetCompanyIds: [c3, 999_998] });
      expect((await r.announcements.findById(a.id))!.targetCompanyIds).to.deep.equal([c3]);
      const authored = await r.announcements.add(announcementFixture(c3, 'Da três'));
      await r.companies.remove(c3);
      expect((await r.announcements.findById(a.id))!.targetCompanyIds).to.deep.equal([]);
      expect(await r.announcements.findById(authored.id)).to.equal(null);
    });

    it('pages and lists by priority, then newest, then id; searched in the folded title, by status and by target', async () => {
      await given();
      const low = await r.announcements.add(announcementFixture(c1, 'Férias coletivas', { createdAt: at(3) }));
      const high = await r.announcements.add(announcementFixture(c1, 'Queda do servidor', { priority: 1, createdAt: at(1), targetCompanyIds: [c2] }));
      const mid = await r.announcements.add(announcementFixture(c1, 'Nova versão', { priority: 2, createdAt: at(2), status: false, targetCompanyIds: [c3] }));
      const lowOlder = await r.announcements.add(announcementFixture(c1, 'FERIAS de julho', { createdAt: at(1) }));
      const lowTwin = await r.announcements.add(announcementFixture(c1, 'Gêmeo', { createdAt: at(1) }));
      expect(titles(await r.announcements.all({}))).to.deep.equal([high, mid, low, lowTwin, lowOlder].map((a) => a.title));
      const first = await r.announcements.page({ page: page(0, 2) });
      expect({ titles: titles(first.rows), count: first.count }).to.deep.equal({ titles: [high.title, mid.title], count: 5 });
      expect(titles((await r.announcements.page({ page: page(4, 2) })).rows)).to.deep.equal([lowOlder.title]);
      expect(titles(await r.announcements.all({ search: 'ferias' }))).to.deep.equal([low.title, lowOlder.title]);
      expect((await r.announcements.page({ search: 'Férias', page: page() })).count).to.equal(2);
      expect(titles(await r.announcements.all({ search: '100%_' }))).to.deep.equal([]);
      expect(titles(await r.announcements.all({ status: false }))).to.deep.equal([mid.title]);
      expect(titles(await r.announcements.all({ status: true, targetCompanyId: c2 }))).to.deep.equal([high.title, low.title, lowTwin.title, lowOlder.title]);
      expect(titles(await r.announcements.all({ targetCompanyId: c3 }))).to.deep.equal([mid.title, low.title, lowTwin.title, lowOlder.title]);
    });

    it("finds what a company's users read at a moment: active, aimed at it, from startsAt (included) to endsAt (excluded)", async () => {
      await given();
      const everyone = await r.announcements.add(announcementFixture(c1, 'Todos'));
      await r.announcements.add(announcementFixture(c1, 'Inativo', { status: false }));
      const theirs = await r.announcements.add(announcementFixture(c1, 'Só a dois', { targetCompanyIds: [c2], priority: 2 }));
      await r.announcements.add(announcementFixture(c1, 'Só a três', { targetCompanyIds: [c3] }));
      const windowed = await r.announcements.add(announcementFixture(c1, 'Janela', { startsAt: at(10), endsAt: at(20), priority: 1 }));
      const visible = (companyId: number, moment: Date) => r.announcements.all({ visibleTo: { companyId, at: moment } }).then(titles);
      expect(await visible(c2, at(0))).to.deep.equal([theirs.title, everyone.title]);
      expect(await visible(c2, at(10))).to.deep.equal([windowed.title, theirs.title, everyone.title]);
      expect(await visible(c2, at(19))).to.deep.equal([windowed.title, theirs.title, everyone.title]);
      expect(await visible(c2, at(20))).to.deep.equal([theirs.title, everyone.title]);
      expect(await visible(c1, at(15))).to.deep.equal([windowed.title, everyone.title]);
      const paged = await r.announcements.page({ visibleTo: { companyId: c2, at: at(15) }, search: 'janela', page: page() });
      expect({ titles: titles(paged.rows), count: paged.count }).to.deep.equal({ titles: [windowed.title], count: 1 });
    });

    it('names the companies frames go to: active ones page by page, existing ones among ids, those with a super user', async () => {
      await given();
      const plan = (await r.companies.findById(c1))!.planId;
      const inactive = (await r.companies.add(companyFixture(plan, 'Parada', { status: false }))).id;
      const c5 = (await r.companies.add(companyFixture(plan, 'Cinco'))).id;
      expect(await r.announcementAudience.activeCompanyIds(0, 10)).to.deep.equal([c1, c2, c3, c5]);
      expect(await r.announcementAudience.activeCompanyIds(0, 2)).to.deep.equal([c1, c2]);
      expect(await r.announcementAudience.activeCompanyIds(c2, 2)).to.deep.equal([c3, c5]);
      expect(await r.announcementAudience.activeCompanyIds(c5, 2)).to.deep.equal([]);
      expect(await r.announcementAudience.existingCompanyIds([c3, 999_999, inactive, c3, c1])).to.deep.equal([c1, c3, inactive]);
      expect(await r.announcementAudience.existingCompanyIds([])).to.deep.equal([]);
      expect(await r.announcementAudience.superUserCompanyIds()).to.deep.equal([]);
      await r.users.add(userFixture(c2, 'admin@two.test', { profile: 'admin' }));
      await r.users.add(userFixture(c3, 'root@three.test', { profile: 'super' }));
      await r.users.add(userFixture(c1, 'root@platform.test', { profile: 'super' }));
      await r.users.add(userFixture(c1, 'root2@platform.test', { profile: 'super' }));
      expect(await r.announcementAudience.superUserCompanyIds()).to.deep.equal([c1, c3]);
    });
  });
}

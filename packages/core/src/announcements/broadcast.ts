import type { RealtimeEvents } from '../realtime/ports.js';
import { inWindow, targets, toAnnouncementView, type Announcement } from './announcement.js';
import type { AnnouncementEvent, AnnouncementReaders } from './announcement-events.js';
import type { AnnouncementAudience } from './ports.js';

type Frame = AnnouncementEvent['data'];

/** Company ids read per query when an announcement reaches every company. */
const COMPANY_PAGE = 500;
/** Frames published at once. */
const PARALLEL = 32;

export interface BroadcastDeps {
  readonly audience: AnnouncementAudience;
  readonly realtime: RealtimeEvents<AnnouncementEvent>;
  /** The URL of an attachment's blob key. */
  readonly mediaUrl: (key: string) => string;
}

/** Shown to users now: active and within its window (to the companies it targets). */
const shownNow = (a: Announcement | null, at: Date): Announcement | null => (a && a.status && inWindow(a, at) ? a : null);

/**
 * Publishes `company-announcement` frames to the namespaces a change concerns, and to no other:
 * each company whose users read the announcement gets it (`create`/`update`), each whose users
 * read it until now gets `delete`, and the companies of super users get every change (their list
 * shows every announcement). An announcement for every company is published to each active
 * company, read in pages of ids and sent a few dozen at a time; companies created later read it
 * when they load. Nothing is published to a company the announcement never concerned.
 */
export class AnnouncementBroadcast {
  constructor(private readonly deps: BroadcastDeps) {}

  /** A write: `before` null for a creation, `after` null for a deletion, both judged at `at`. */
  async changed(before: Announcement | null, after: Announcement | null, at: Date): Promise<void> {
    const id = (after ?? before)!.id;
    const action = before ? 'update' : 'create';
    const shown = shownNow(after, at);
    const wasShown = shownNow(before, at);
    const superFrame: Frame = after ? { action, record: toAnnouncementView(after, this.deps.mediaUrl) } : { action: 'delete', id };
    const userFrame = (companyId: number): Frame | null => {
      if (shown && targets(shown, companyId)) return { action, record: toAnnouncementView(shown, this.deps.mediaUrl, companyId) };
      if (wasShown && targets(wasShown, companyId)) return { action: 'delete', id };
      return null;
    };
    await this.fanOut([shown, wasShown], userFrame, superFrame);
  }

  /**
   * Its window opened or closed at `at` (no write): the users of its companies get it, or its
   * `delete` once it is no longer shown. Super users saw no change.
   */
  async windowMoved(a: Announcement, at: Date): Promise<void> {
    if (!a.status) return;
    const shown = shownNow(a, at);
    const frame = (companyId: number): Frame =>
      shown ? { action: 'update', record: toAnnouncementView(shown, this.deps.mediaUrl, companyId) } : { action: 'delete', id: a.id };
    await this.fanOut([a], frame, null);
  }

  /**
   * Sends each concerned company its users' frame, and its super users `superFrame` (when given):
   * one frame for all when the two are the same.
   */
  private async fanOut(concerned: ReadonlyArray<Announcement | null>, userFrame: (companyId: number) => Frame | null, superFrame: Frame | null) {
    const supers = new Set(await this.deps.audience.superUserCompanyIds());
    const publish = (companyId: number, data: Frame, readers: AnnouncementReaders) =>
      this.deps.realtime.publish(companyId, { entity: 'announcement', data, readers });
    const sendTo = async (companyId: number) => {
      const frame = userFrame(companyId);
      if (!supers.has(companyId)) {
        if (frame) await publish(companyId, frame, 'company');
      } else if (superFrame === null) {
        if (frame) await publish(companyId, frame, 'exceptSupers');
      } else if (frame && JSON.stringify(frame) === JSON.stringify(superFrame)) {
        await publish(companyId, frame, 'company');
      } else {
        if (frame) await publish(companyId, frame, 'exceptSupers');
        await publish(companyId, superFrame, 'supers');
      }
    };
    const done = new Set<number>();
    const visit = async (ids: readonly number[]) => {
      for (let i = 0; i < ids.length; i += PARALLEL) await Promise.all(ids.slice(i, i + PARALLEL).map(sendTo));
      for (const companyId of ids) done.add(companyId);
    };
    const present = concerned.filter((a): a is Announcement => a !== null);
    if (present.some((a) => a.targetCompanyIds === null)) {
      for (let afterId = 0; ; ) {
        const ids = await this.deps.audience.activeCompanyIds(afterId, COMPANY_PAGE);
        await visit(ids);
        if (ids.length < COMPANY_PAGE) break;
        afterId = ids[ids.length - 1]!;
      }
    } else {
      await visit([...new Set(present.flatMap((a) => a.targetCompanyIds ?? []))]);
    }
    if (superFrame) await visit([...supers].filter((companyId) => !done.has(companyId)));
  }
}

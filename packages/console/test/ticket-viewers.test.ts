import { expect } from 'chai';
import { shouldAnswer, TicketViewers, VIEWER_ANNOUNCE_MS, VIEWER_EXPIRE_MS, viewerFrameData, type ViewerChange } from '../src/realtime/ticket-viewers.js';

describe('console: the viewers of a ticket', () => {
  const join = (ticketId: number, userId: number, userName: string) => ({ action: 'join' as const, ticketId, userId, userName });
  const leave = (ticketId: number, userId: number, userName: string) => ({ action: 'leave' as const, ticketId, userId, userName });

  it('lists the others by name, not the caller; a leave removes one; re-announcing keeps a viewer past the expiry', () => {
    let now = 1_000_000;
    const viewers = new TicketViewers(() => now);
    viewers.apply(join(7, 2, 'Bia'));
    viewers.apply(join(7, 1, 'Ana'));
    viewers.apply(join(7, 3, 'Caio'));
    viewers.apply(join(8, 4, 'Duda'));
    expect(viewers.of(7, 1).map((v) => v.userName)).to.deep.equal(['Bia', 'Caio']);
    expect(viewers.of(7, null).map((v) => v.userName)).to.deep.equal(['Ana', 'Bia', 'Caio']);
    viewers.apply(leave(7, 3, 'Caio'));
    expect(viewers.of(7, 1).map((v) => v.userName)).to.deep.equal(['Bia']);
    // Bia re-announces every 30 s; Duda's instance died and sends nothing.
    for (let i = 0; i < 3; i++) {
      now += VIEWER_ANNOUNCE_MS;
      viewers.apply(join(7, 2, 'Bia'));
    }
    expect(viewers.of(7, 1).map((v) => v.userName)).to.deep.equal(['Bia']);
    expect(viewers.of(8, 1), 'a viewer not heard from for 75 s is not shown').to.deep.equal([]);
    const revision = viewers.revision;
    viewers.expire();
    expect(viewers.revision).to.be.greaterThan(revision);
    now += VIEWER_EXPIRE_MS;
    viewers.expire();
    expect(viewers.of(7, null)).to.deep.equal([]);
  });

  it('tells a newcomer apart, so each side answers at most once', () => {
    const viewers = new TicketViewers(() => 0);
    const changes: Array<ViewerChange | null> = [];
    viewers.subscribe((c) => changes.push(c));
    viewers.apply(join(7, 2, 'Bia'));
    viewers.apply(join(7, 2, 'Bia'));
    viewers.apply(leave(7, 1, 'Ana'));
    viewers.clear();
    expect(changes.map((c) => c && [c.action, c.userId, c.newcomer])).to.deep.equal([['join', 2, true], ['join', 2, false], ['leave', 1, false], null]);
    // Ana (1) shows ticket 7: she answers Bia's first join only, and her own user leaving from another tab.
    expect(changes.slice(0, 3).map((c) => shouldAnswer(c, 7, 1))).to.deep.equal([true, false, true]);
    expect(shouldAnswer(changes[0]!, 8, 1), 'another ticket').to.equal(false);
    expect(shouldAnswer(changes[0]!, 7, 2), 'her own join').to.equal(false);
    expect(shouldAnswer(null, 7, 1)).to.equal(false);
  });

  it("reads a frame's data, refusing what is not a viewer", () => {
    expect(viewerFrameData({ action: 'join', ticketId: 7, userId: 2, userName: 'Bia' })).to.deep.equal(join(7, 2, 'Bia'));
    expect(viewerFrameData({ action: 'leave', ticketId: 7, userId: 2 })).to.deep.equal(leave(7, 2, ''));
    expect(viewerFrameData({ action: 'update', ticketId: 7, userId: 2 })).to.equal(null);
    expect(viewerFrameData({ action: 'join', ticketId: '7', userId: 2 })).to.equal(null);
  });
});

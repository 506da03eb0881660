import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import type { Schema } from '../src/api/client.js';
import { applyFrame } from '../src/realtime/apply-frame.js';
import { CONTACT_TYPING_TIMEOUT_MS, ContactTyping, contactTypingOf, type Schedule } from '../src/realtime/contact-typing.js';

/** A clock the test moves: the scheduled work runs when its time has come. */
function manualClock() {
  let now = 0;
  const pending: Array<{ at: number; work: () => void; cancelled: boolean }> = [];
  const schedule: Schedule = (work, ms) => {
    const entry = { at: now + ms, work, cancelled: false };
    pending.push(entry);
    return () => {
      entry.cancelled = true;
    };
  };
  const advance = (ms: number) => {
    now += ms;
    for (const e of pending.splice(0)) {
      if (e.cancelled) continue;
      if (e.at <= now) e.work();
      else pending.push(e);
    }
  };
  return { schedule, advance, live: () => pending.filter((e) => !e.cancelled).length };
}

describe("console: the contact's typing", () => {
  it('shows typing or recording per ticket, and clears it on paused', () => {
    const clock = manualClock();
    const typing = new ContactTyping(clock.schedule);
    const changes: Array<string | null> = [];
    typing.subscribe(() => changes.push(typing.state(7)));
    typing.apply({ ticketId: 7, state: 'composing' });
    typing.apply({ ticketId: 7, state: 'composing' });
    typing.apply({ ticketId: 8, state: 'recording' });
    typing.apply({ ticketId: 7, state: 'recording' });
    expect([typing.state(7), typing.state(8)]).to.deep.equal(['recording', 'recording']);
    typing.apply({ ticketId: 7, state: 'paused' });
    expect([typing.state(7), typing.state(8)]).to.deep.equal([null, 'recording']);
    // A repeated `composing` is not announced (the second entry is ticket 8 changing).
    expect(changes).to.deep.equal(['composing', 'composing', 'recording', null]);
    expect(clock.live(), "the cleared ticket's timer is cancelled").to.equal(1);
  });

  it('forgets a report after the timeout without news, each new report starting the wait again', () => {
    const clock = manualClock();
    const typing = new ContactTyping(clock.schedule);
    typing.apply({ ticketId: 7, state: 'composing' });
    clock.advance(CONTACT_TYPING_TIMEOUT_MS - 1);
    typing.apply({ ticketId: 7, state: 'composing' });
    clock.advance(CONTACT_TYPING_TIMEOUT_MS - 1);
    expect(typing.state(7)).to.equal('composing');
    clock.advance(1);
    expect(typing.state(7)).to.equal(null);
  });

  it("applies the namespace's contactTyping frames, and the contact's next message ends their typing (not an operator's)", () => {
    const client = new QueryClient();
    const typing = contactTypingOf(client);
    applyFrame(client, { event: 'company-1-contactTyping', data: { action: 'update', ticketId: 7, contactId: 3, state: 'composing' } });
    applyFrame(client, { event: 'company-1-contactTyping', data: { action: 'update', ticketId: 7, contactId: 3, state: 'whistling' } });
    expect(typing.state(7)).to.equal('composing');
    const message = (fromMe: boolean) => ({ id: `m-${fromMe}`, ticketId: 7, body: 'x', fromMe }) as Schema<'Message'>;
    applyFrame(client, { seq: 5, event: 'company-1-appMessage', data: { action: 'create', message: message(true) } });
    expect(typing.state(7)).to.equal('composing');
    applyFrame(client, { seq: 6, event: 'company-1-appMessage', data: { action: 'create', message: message(false) } });
    expect(typing.state(7)).to.equal(null);
    typing.apply({ ticketId: 7, state: 'paused' });
    expect(typing.state(7)).to.equal(null);
  });
});

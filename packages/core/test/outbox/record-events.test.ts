import { expect } from 'chai';
import { outboxIdOf, RecordEvents } from '../../src/index.js';
import { FixedClock, InMemoryOutbox } from '../../src/testing.js';

describe('Events taken from providers, recorded in the outbox', () => {
  it('an event id becomes one well-formed UUID, always the same for the same event', () => {
    const id = outboxIdOf('inbound:7:wamid.ABC');
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(outboxIdOf('inbound:7:wamid.ABC')).to.equal(id);
    expect(outboxIdOf('inbound:8:wamid.ABC')).to.not.equal(id);
  });

  it('records a delivery as entries for their subjects, and the same delivery again adds nothing', async () => {
    const outbox = new InMemoryOutbox();
    const record = new RecordEvents({ outbox, clock: new FixedClock() });
    const delivery = [
      { id: 'inbound:7:m1', subject: 'evt.inbound.3', payload: { providerMessageId: 'm1' } },
      { id: 'status:7:m0:read', subject: 'evt.message.status', payload: { providerMessageId: 'm0' } },
    ];
    await record.execute(delivery);
    await record.execute(delivery);
    await record.execute([]);
    expect(outbox.entries.map((e) => [e.id, e.subject, e.payload])).to.deep.equal([
      [outboxIdOf('inbound:7:m1'), 'evt.inbound.3', { providerMessageId: 'm1' }],
      [outboxIdOf('status:7:m0:read'), 'evt.message.status', { providerMessageId: 'm0' }],
    ]);
  });
});

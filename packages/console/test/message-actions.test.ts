import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import type { Schema } from '../src/api/client.js';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';
import { messageAbilities } from '../src/screens/message-abilities.js';

type Message = Schema<'Message'>;

const ADMIN = { id: 1, profile: 'admin' };
const ANA = { id: 2, profile: 'user' };
const BIA = { id: 3, profile: 'user' };
const sent = (extra: Partial<Message> = {}) =>
  ({
    id: 'm1',
    ticketId: 7,
    body: 'Your order ships Monday',
    fromMe: true,
    userId: ANA.id,
    isPrivate: false,
    isDeleted: false,
    status: 'sent',
    providerMessageId: 'prov-1',
    mediaUrl: null,
    mediaType: 'chat',
    media: null,
    ...extra,
  }) as unknown as Message;

describe('console: what a message menu offers, as the routes allow', () => {
  it('offers its sender and admins edit, delete and forward of a sent text on a session connection; others only forward', () => {
    expect(messageAbilities(sent(), ANA, 'chatapp')).to.deep.equal({ edit: true, remove: true, forward: true });
    expect(messageAbilities(sent(), ADMIN, 'chatapp')).to.deep.equal({ edit: true, remove: true, forward: true });
    expect(messageAbilities(sent(), BIA, 'chatapp')).to.deep.equal({ edit: false, remove: false, forward: true });
    expect(messageAbilities(sent({ fromMe: false, userId: null }), ADMIN, 'chatapp')).to.deep.equal({ edit: false, remove: false, forward: true });
  });

  it('offers no edit or delete where the provider cannot change a sent message, nor while it is on its way', () => {
    expect(messageAbilities(sent(), ANA, 'bizchat')).to.deep.include({ edit: false, remove: false });
    expect(messageAbilities(sent({ providerMessageId: null, status: 'pending' }), ANA, 'chatapp')).to.deep.include({ edit: false, remove: false });
    // A failed send never reached the contact: only flagged when deleted, never edited.
    expect(messageAbilities(sent({ status: 'failed' }), ANA, 'bizchat')).to.deep.include({ edit: false, remove: true });
  });

  it('edits and deletes a note anywhere but never forwards it; a deleted message offers nothing', () => {
    expect(messageAbilities(sent({ isPrivate: true, providerMessageId: null }), ANA, 'bizchat')).to.deep.equal({ edit: true, remove: true, forward: false });
    expect(messageAbilities(sent({ isDeleted: true }), ADMIN, 'chatapp')).to.deep.equal({ edit: false, remove: false, forward: false });
  });

  it('edits only a text: a file or a shared location may be deleted and forwarded, not edited', () => {
    expect(messageAbilities(sent({ mediaUrl: 'https://files.example/a.png', mediaType: 'image', body: '' }), ANA, 'chatapp')).to.deep.equal({
      edit: false,
      remove: true,
      forward: true,
    });
    expect(messageAbilities(sent({ mediaType: 'locationMessage' }), ANA, 'chatapp')).to.deep.include({ edit: false, remove: true });
  });
});

describe('console: the close-all frame', () => {
  it('shows each closed ticket that is loaded as closed, and marks the lists stale', () => {
    const client = new QueryClient();
    client.setQueryData(keys.ticket(4), { id: 4, status: 'open' });
    client.setQueryData(keys.ticket(5), { id: 5, status: 'pending' });
    client.setQueryData(keys.ticketList({ status: 'open' }), { pages: [], pageParams: [] });
    applyFrame(client, { seq: 1, event: 'company-1-ticket', data: { action: 'closeMany', ticketIds: [4, 6], status: 'closed' } });
    expect(client.getQueryData(keys.ticket(4))).to.deep.equal({ id: 4, status: 'closed' });
    expect(client.getQueryData(keys.ticket(5))).to.deep.equal({ id: 5, status: 'pending' });
    expect(client.getQueryData(keys.ticket(6))).to.equal(undefined);
    expect(client.getQueryState(keys.ticketList({ status: 'open' }))!.isInvalidated).to.equal(true);
  });
});

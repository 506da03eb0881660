import { createApplication, type Actor, type Connection, type Contact, type Message, type Ticket, type User } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';
import { connectionFixture, contactDraft, ticketDraft } from '../contracts/messaging-contract.js';
import { queueFixture } from '../contracts/queues-contract.js';

/**
 * Two companies on in-memory ports: Acme with an admin, two operators (one with `allTicket`) and
 * a sandbox connection with a farewell; Other with its own admin, connection and contact.
 */
export async function ticketWorld() {
  const ports = createInMemoryPorts();
  const app = createApplication(ports);
  const plan = await ports.plans.add(planFixture('P'));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
  const other = await ports.companies.add(companyFixture(plan.id, 'Other'));
  const user = async (companyId: number, email: string, overrides: Partial<User> = {}): Promise<Actor> => {
    const u = await ports.users.add(userFixture(companyId, email, overrides));
    return { userId: u.id, companyId, profile: u.profile };
  };
  const admin = await user(acme.id, 'admin@acme.test', { profile: 'admin', name: 'Ada Admin' });
  const ana = await user(acme.id, 'ana@acme.test', { name: 'Ana' });
  const bia = await user(acme.id, 'bia@acme.test', { name: 'Bia' });
  const carla = await user(acme.id, 'carla@acme.test', { name: 'Carla', allTicket: 'enable' });
  const otherAdmin = await user(other.id, 'admin@other.test', { profile: 'admin' });
  const connection = await ports.connections.add(connectionFixture(acme.id, 'Main', { status: 'CONNECTED', farewellMessage: 'Bye!', isDefault: true }));
  const otherConnection = await ports.connections.add(connectionFixture(other.id, 'Theirs', { status: 'CONNECTED' }));
  // Two queues of Acme (ids 1 and 2), without users or menus.
  const sales = await ports.queues.add(queueFixture(acme.id, 'Sales', { orderQueue: 1 }));
  const support = await ports.queues.add(queueFixture(acme.id, 'Support', { orderQueue: 2 }));
  let n = 0;
  const contact = (companyId = acme.id, overrides: Partial<Contact> = {}) =>
    ports.contacts.getOrCreate(contactDraft(companyId, `55119${String(++n).padStart(8, '0')}`, overrides));
  const ticket = async (overrides: Partial<Ticket> = {}, on: Connection = connection): Promise<Ticket> => {
    const c = await contact(on.companyId);
    const { ticket: t } = await ports.tickets.getOrCreateActive(
      ticketDraft({ companyId: on.companyId, contactId: c.id, connectionId: on.id, uuid: ports.ids.uuid() }),
    );
    const saved = { ...t, ...overrides };
    await ports.tickets.update(saved);
    return saved;
  };
  const message = async (t: Ticket, overrides: Partial<Message> = {}): Promise<Message> => {
    const now = ports.clock.now();
    const m: Message = {
      id: ports.ids.uuid(),
      companyId: t.companyId,
      ticketId: t.id,
      contactId: t.contactId,
      connectionId: t.connectionId,
      providerMessageId: null,
      fromMe: false,
      body: 'hello',
      media: null,
      status: 'delivered',
      failureReason: null,
      quotedMessageId: null,
      isPrivate: false,
      userId: null,
      createdAt: now,
      updatedAt: now,
      isDeleted: false,
      isEdited: false,
      editedAt: null,
      transcription: null,
      ...overrides,
    };
    await ports.messages.add(m);
    return m;
  };
  return { ports, app, acme, other, admin, ana, bia, carla, otherAdmin, connection, otherConnection, contact, ticket, message, sales, support };
}

export type TicketWorld = Awaited<ReturnType<typeof ticketWorld>>;

/** The error code a promise rejects with, or `resolved`. */
export const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

export const eventsOf = (w: TicketWorld) => w.ports.realtime.events.map((e) => `${e.entity}:${e.data.action}`);

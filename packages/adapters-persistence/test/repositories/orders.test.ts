import { RequestContext } from '@mikro-orm/core';
import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describeOrdersContract, orderDraft, productDraft } from '@servicedesk/core/contracts/orders-contract';
import { connectionFixture, contactDraft, ticketDraft } from '@servicedesk/core/contracts/messaging-contract';
import { twoCompanies, userFixture } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmPlans,
  MikroOrmTickets,
  MikroOrmTransaction,
  MikroOrmUsers,
  type Database,
} from '../../src/index.js';
import { M0026Catalog } from '../../src/catalog/m0026-catalog.js';
import { catalogRepositories } from '../../src/catalog/repository.js';
import { CATALOG_SCHEMAS } from '../../src/catalog/schema.js';
import { M0027Orders } from '../../src/orders/m0027-orders.js';
import { ordersRepositories } from '../../src/orders/repository.js';
import { ORDER_SCHEMAS } from '../../src/orders/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables, the catalog's (order lines refer to products) and the orders'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...CATALOG_SCHEMAS, ...ORDER_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0026-catalog', class: M0026Catalog }, { name: 'm0027-orders', class: M0027Orders }],
};
const TABLES = ['order_numbers', 'orders', 'order_items', 'order_logs', 'order_settings'];

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...ordersRepositories(orm),
    products: catalogRepositories(orm).products,
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    contacts: new MikroOrmContacts(orm),
    connections: new MikroOrmConnections(orm),
    tickets: new MikroOrmTickets(orm),
    users: new MikroOrmUsers(orm),
    tx: new MikroOrmTransaction(orm),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeOrdersContract(name, make);

    describe(`Order repositories on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);
      const code = (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          (e: { code?: string }) => e.code,
        );

      it('refuses unknown statuses, negative amounts, empty quantities and a number twice in a company', async () => {
        const [c1] = await twoCompanies(f);
        const o = await f.orders.add(orderDraft(c1, 1));
        // 23514: check_violation; 23505: unique_violation.
        expect(await code(sql(`update orders set status = 'lost' where id = ?`, [o.id]))).to.equal('23514');
        expect(await code(sql('update orders set total = -1 where id = ?', [o.id]))).to.equal('23514');
        expect(await code(f.orders.add(orderDraft(c1, 1)))).to.equal('23505');
        await f.orders.replaceItems(c1, o.id, [
          { companyId: c1, orderId: o.id, productId: null, name: 'x', sku: null, unitPrice: 1, quantity: 1, total: 1, reserved: 0, position: 0 },
        ]);
        expect(await code(sql('update order_items set quantity = 0 where order_id = ?', [o.id]))).to.equal('23514');
      });

      it('keeps an order when its contact, ticket, creator or products go (their ids become null), and drops everything with the company', async () => {
        const [c1] = await twoCompanies(f);
        const contact = await f.contacts.add(contactDraft(c1, '5511999990001'));
        const connection = await f.connections.add(connectionFixture(c1, 'Loja'));
        const ticket = (
          await f.tickets.getOrCreateActive(
            ticketDraft({ companyId: c1, contactId: contact.id, connectionId: connection.id, uuid: '00000000-0000-4000-8000-0000000000a1' }),
          )
        ).ticket;
        const user = await f.users.add(userFixture(c1, 'ana@one.test'));
        const product = await f.products.add(productDraft(c1, 'Vaso'));
        const o = await f.orders.add(orderDraft(c1, 1, { contactId: contact.id, ticketId: ticket.id, userId: user.id }));
        await f.orders.replaceItems(c1, o.id, [
          { companyId: c1, orderId: o.id, productId: product.id, name: 'Vaso', sku: null, unitPrice: 1000, quantity: 2, total: 2000, reserved: 2, position: 0 },
        ]);
        await f.orderSettings.add({
          companyId: c1,
          connectionId: connection.id,
          currency: 'BRL',
          paymentInstructions: '',
          statusMessages: { confirmed: '', paid: '', shipped: '', delivered: '', cancelled: '' },
          createdAt: new Date(),
          updatedAt: new Date(),
        });
        await f.tickets.remove(c1, ticket.id);
        await sql('delete from contacts where id = ?', [contact.id]);
        await sql('delete from users where id = ?', [user.id]);
        await f.products.remove(c1, [product.id]);
        await f.connections.remove(c1, connection.id);
        expect(await f.orders.findById(c1, o.id)).to.deep.include({ contactId: null, ticketId: null, userId: null, total: 2000 });
        expect((await f.orders.items(c1, [o.id])).map((i) => [i.productId, i.name, i.reserved])).to.deep.equal([[null, 'Vaso', 2]]);
        expect(await f.orderSettings.list(c1)).to.deep.equal([]);
        await sql('delete from companies where id = ?', [c1]);
        for (const table of TABLES) expect(await sql(`select * from ${table}`), table).to.deep.equal([]);
      });

      it('hands out each number once to transactions racing for it', async function () {
        if (name !== 'PostgreSQL') return this.skip(); // PGlite has one connection: nothing runs at once
        const [c1] = await twoCompanies(f);
        const next = () => RequestContext.create(f.db.orm.em, () => f.tx.run(() => f.orders.nextNumber(c1)));
        const numbers = await Promise.all(Array.from({ length: 20 }, next));
        expect([...numbers].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('orders', OPTIONS, TABLES);

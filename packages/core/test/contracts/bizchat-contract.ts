import { expect } from 'chai';
import type { Companies, Connections, Contacts, Messages, Plans, Tickets } from '../../src/index.js';
import { parameterCounts, type BizchatTemplateComponent, type NewBizchatTemplate } from '../../src/bizchat/bizchat-template.js';
import type { BizchatNumbers, BizchatTemplates } from '../../src/bizchat/ports.js';
import type { ServiceWindows } from '../../src/bizchat/service-window.js';
import { connectionFixture, contactDraft, messageFixture, ticketDraft } from './messaging-contract.js';
import { twoCompanies } from './repositories-contract.js';

export interface BizchatFixture {
  readonly bizchatTemplates: BizchatTemplates;
  readonly bizchatNumbers: BizchatNumbers;
  readonly serviceWindows: ServiceWindows;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly connections: Connections;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
  readonly messages: Messages;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const WABA = '102290129340398';

/** A text header, a body with two variables, a footer and a URL button with a variable. */
const ORDER_COMPONENTS: BizchatTemplateComponent[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
  { type: 'BODY', text: 'Olá {{1}}, seu pedido saiu para entrega em {{2}}.' },
  { type: 'FOOTER', text: 'Loja Exemplo' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Rastrear', url: 'https://loja.example/track/{{1}}' },
      { type: 'QUICK_REPLY', text: 'Ok' },
    ],
  },
];

export function bizchatTemplateFixture(
  companyId: number,
  connectionId: number,
  name: string,
  language: string,
  overrides: Partial<NewBizchatTemplate> = {},
): NewBizchatTemplate {
  const components = overrides.components ?? ORDER_COMPONENTS;
  return {
    companyId,
    connectionId,
    wabaId: WABA,
    metaId: `meta-${name}-${language}`,
    name,
    language,
    status: 'APPROVED',
    category: 'UTILITY',
    parameterFormat: 'POSITIONAL',
    components,
    parameters: parameterCounts(components),
    syncedAt: T0,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);
const withoutId = <T extends { id: number }>({ id: _id, ...rest }: T) => rest;

/** One suite for every adapter of the bizchat ports: stored templates, numbers and service windows. */
export function describeBizchatTemplatesContract(name: string, make: () => Promise<BizchatFixture>) {
  describe(`Bizchat templates repository contract: ${name}`, () => {
    let r: BizchatFixture;
    let c1: number;
    let c2: number;
    let conn1: number;
    let conn2: number;
    let theirs: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies, two bizchat connections of the first and one of the second. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
      const bizchat = { kind: 'bizchat', provider: 'cloudapi', secrets: { wabaId: WABA, accessToken: 'token' } } as const;
      conn1 = (await r.connections.add(connectionFixture(c1, 'Oficial', { ...bizchat, externalId: '106540352242922' }))).id;
      conn2 = (await r.connections.add(connectionFixture(c1, 'Segundo', { ...bizchat, externalId: '106540352242923' }))).id;
      theirs = (
        await r.connections.add(connectionFixture(c2, 'Deles', { ...bizchat, externalId: '206540352242922', secrets: { wabaId: '999', accessToken: 'other' } }))
      ).id;
    }

    it('stores every field as given (components and counts included) and reads it only on its company and connection', async () => {
      await given();
      const draft = bizchatTemplateFixture(c1, conn1, 'order_update', 'pt_BR', { parameterFormat: 'NAMED', category: 'MARKETING', syncedAt: at(5) });
      const [stored] = await r.bizchatTemplates.replaceAll(c1, conn1, [draft]);
      expect(withoutId(plain(stored!)!)).to.deep.equal(draft);
      expect(stored!.parameters).to.deep.equal({ header: 1, headerFormat: 'TEXT', body: ['1', '2'], buttons: [0] });
      expect((await r.bizchatTemplates.list(c1, conn1)).map(plain)).to.deep.equal([plain(stored!)]);
      expect(plain(await r.bizchatTemplates.find(c1, conn1, 'order_update', 'pt_BR'))).to.deep.equal(plain(stored!));
      // Another company names the connection's id in vain; the company's other connection holds nothing.
      expect(await r.bizchatTemplates.list(c2, conn1)).to.deep.equal([]);
      expect(await r.bizchatTemplates.find(c2, conn1, 'order_update', 'pt_BR')).to.equal(null);
      expect(await r.bizchatTemplates.list(c1, conn2)).to.deep.equal([]);
      expect(await r.bizchatTemplates.find(c1, conn2, 'order_update', 'pt_BR')).to.equal(null);
    });

    it('finds by the exact name and language', async () => {
      await given();
      await r.bizchatTemplates.replaceAll(c1, conn1, [
        bizchatTemplateFixture(c1, conn1, 'order_update', 'pt_BR'),
        bizchatTemplateFixture(c1, conn1, 'order_update', 'en_US', { components: [{ type: 'BODY', text: 'Hi {{1}}' }] }),
      ]);
      expect((await r.bizchatTemplates.find(c1, conn1, 'order_update', 'en_US'))?.parameters.body).to.deep.equal(['1']);
      expect((await r.bizchatTemplates.find(c1, conn1, 'order_update', 'pt_BR'))?.parameters.body).to.deep.equal(['1', '2']);
      expect(await r.bizchatTemplates.find(c1, conn1, 'order_update', 'pt')).to.equal(null);
      expect(await r.bizchatTemplates.find(c1, conn1, 'ORDER_UPDATE', 'pt_BR')).to.equal(null);
      expect(await r.bizchatTemplates.find(c1, conn1, 'order', 'pt_BR')).to.equal(null);
    });

    it('lists by name then language in code-point order, whatever the collation', async () => {
      await given();
      const names: Array<[string, string]> = [
        ['order_update', 'pt_BR'],
        ['Promo', 'pt_BR'],
        ['order2', 'pt_BR'],
        ['order_update', 'en'],
        ['order_update', 'en_US'],
        ['alerta', 'es'],
      ];
      const listed = await r.bizchatTemplates.replaceAll(
        c1,
        conn1,
        names.map(([n, l]) => bizchatTemplateFixture(c1, conn1, n, l)),
      );
      const expected = [
        ['Promo', 'pt_BR'],
        ['alerta', 'es'],
        ['order2', 'pt_BR'],
        ['order_update', 'en'],
        ['order_update', 'en_US'],
        ['order_update', 'pt_BR'],
      ];
      expect(listed.map((t) => [t.name, t.language])).to.deep.equal(expected);
      expect((await r.bizchatTemplates.list(c1, conn1)).map((t) => [t.name, t.language])).to.deep.equal(expected);
    });

    it("replacing swaps only that connection's list, and another company cannot empty it", async () => {
      await given();
      await r.bizchatTemplates.replaceAll(c1, conn1, [
        bizchatTemplateFixture(c1, conn1, 'old', 'pt_BR'),
        bizchatTemplateFixture(c1, conn1, 'kept', 'pt_BR', { status: 'PENDING' }),
      ]);
      await r.bizchatTemplates.replaceAll(c1, conn2, [bizchatTemplateFixture(c1, conn2, 'second', 'pt_BR')]);
      await r.bizchatTemplates.replaceAll(c2, theirs, [bizchatTemplateFixture(c2, theirs, 'theirs', 'pt_BR', { wabaId: '999' })]);
      expect(await r.bizchatTemplates.replaceAll(c2, conn1, [])).to.deep.equal([]);
      expect((await r.bizchatTemplates.list(c1, conn1)).map((t) => t.name)).to.deep.equal(['kept', 'old']);

      const replaced = await r.bizchatTemplates.replaceAll(c1, conn1, [
        bizchatTemplateFixture(c1, conn1, 'kept', 'pt_BR', { status: 'APPROVED', syncedAt: at(10) }),
        bizchatTemplateFixture(c1, conn1, 'new', 'pt_BR', { syncedAt: at(10) }),
      ]);
      expect(replaced.map((t) => [t.name, t.status, t.syncedAt.toISOString()])).to.deep.equal([
        ['kept', 'APPROVED', at(10).toISOString()],
        ['new', 'APPROVED', at(10).toISOString()],
      ]);
      expect(await r.bizchatTemplates.find(c1, conn1, 'old', 'pt_BR')).to.equal(null);
      expect((await r.bizchatTemplates.list(c1, conn2)).map((t) => t.name)).to.deep.equal(['second']);
      expect((await r.bizchatTemplates.list(c2, theirs)).map((t) => t.name)).to.deep.equal(['theirs']);

      expect(await r.bizchatTemplates.replaceAll(c1, conn1, [])).to.deep.equal([]);
      expect(await r.bizchatTemplates.list(c1, conn1)).to.deep.equal([]);
      expect((await r.bizchatTemplates.list(c1, conn2)).map((t) => t.name)).to.deep.equal(['second']);
    });

    it("a status update follows the provider's id on every connection of the account, or the name and language without one", async () => {
      await given();
      const same = { metaId: 'M-1' };
      await r.bizchatTemplates.replaceAll(c1, conn1, [
        bizchatTemplateFixture(c1, conn1, 'promo', 'pt_BR', same),
        bizchatTemplateFixture(c1, conn1, 'promo', 'en_US'),
      ]);
      await r.bizchatTemplates.replaceAll(c1, conn2, [bizchatTemplateFixture(c1, conn2, 'promo', 'pt_BR', same)]);
      // The same template name (and even id) in another business account is another template.
      await r.bizchatTemplates.replaceAll(c2, theirs, [bizchatTemplateFixture(c2, theirs, 'promo', 'pt_BR', { ...same, wabaId: '999' })]);
      const statusOf = async (companyId: number, connectionId: number, language = 'pt_BR') => {
        const t = await r.bizchatTemplates.find(companyId, connectionId, 'promo', language);
        return [t?.status, t?.syncedAt.toISOString()];
      };

      // By the provider's id, whatever name the delivery carries.
      expect(await r.bizchatTemplates.setStatus(WABA, { metaId: 'M-1', name: 'renamed', language: 'xx' }, 'PAUSED', at(1))).to.equal(2);
      expect(await statusOf(c1, conn1)).to.deep.equal(['PAUSED', at(1).toISOString()]);
      expect(await statusOf(c1, conn2)).to.deep.equal(['PAUSED', at(1).toISOString()]);
      expect(await statusOf(c1, conn1, 'en_US')).to.deep.equal(['APPROVED', T0.toISOString()]);
      expect(await statusOf(c2, theirs)).to.deep.equal(['APPROVED', T0.toISOString()]);

      // Without an id, by name and language within the account.
      expect(await r.bizchatTemplates.setStatus(WABA, { metaId: null, name: 'promo', language: 'en_US' }, 'REJECTED', at(2))).to.equal(1);
      expect(await statusOf(c1, conn1, 'en_US')).to.deep.equal(['REJECTED', at(2).toISOString()]);
      expect(await statusOf(c1, conn1)).to.deep.equal(['PAUSED', at(1).toISOString()]);
      expect(await statusOf(c2, theirs)).to.deep.equal(['APPROVED', T0.toISOString()]);

      expect(await r.bizchatTemplates.setStatus('999', { metaId: null, name: 'promo', language: 'pt_BR' }, 'DISABLED', at(3))).to.equal(1);
      expect(await statusOf(c2, theirs)).to.deep.equal(['DISABLED', at(3).toISOString()]);
      expect(await statusOf(c1, conn1)).to.deep.equal(['PAUSED', at(1).toISOString()]);

      expect(await r.bizchatTemplates.setStatus(WABA, { metaId: 'unknown', name: 'promo', language: 'pt_BR' }, 'APPROVED', at(4))).to.equal(0);
      expect(await r.bizchatTemplates.setStatus('unknown-waba', { metaId: null, name: 'promo', language: 'pt_BR' }, 'APPROVED', at(4))).to.equal(0);
      expect(await statusOf(c1, conn1)).to.deep.equal(['PAUSED', at(1).toISOString()]);
    });

    it("finds the bizchat connection of a phone-number id, never another kind's", async () => {
      await given();
      const found = await r.bizchatNumbers.connectionOfPhoneNumber('106540352242922');
      expect([found?.id, found?.companyId, found?.kind, found?.externalId]).to.deep.equal([conn1, c1, 'bizchat', '106540352242922']);
      expect((await r.bizchatNumbers.connectionOfPhoneNumber('206540352242922'))?.id).to.equal(theirs);
      await r.connections.add(connectionFixture(c1, 'Page', { kind: 'socialnet', provider: 'messenger', externalId: '555000' }));
      expect(await r.bizchatNumbers.connectionOfPhoneNumber('555000')).to.equal(null);
      expect(await r.bizchatNumbers.connectionOfPhoneNumber('000')).to.equal(null);
      expect((await r.connections.findByExternalId('206540352242922', 'bizchat'))?.id).to.equal(theirs);
      expect(await r.connections.findByExternalId('206540352242922'), 'a page lookup finds no number').to.equal(null);
      expect(await r.connections.findByExternalId('555000', 'bizchat')).to.equal(null);
    });

    it('holds a phone-number id on one bizchat connection of the platform: a second one, of any company, is a conflict', async () => {
      await given();
      const failure = (p: Promise<unknown>) =>
        p.then(
          () => null,
          (e: { code?: string }) => e.code ?? String(e),
        );
      const again = { kind: 'bizchat', provider: 'cloudapi', externalId: '106540352242923', secrets: { wabaId: '999', accessToken: 'x' } } as const;
      expect(await failure(r.connections.add(connectionFixture(c2, 'Later', again)))).to.equal('ERR_BIZCHAT_NUMBER_IN_USE');
      expect(await failure(r.connections.add(connectionFixture(c1, 'Again', again)))).to.equal('ERR_BIZCHAT_NUMBER_IN_USE');
      const moved = (await r.connections.findById(c2, theirs))!;
      expect(await failure(r.connections.update({ ...moved, externalId: '106540352242922' }))).to.equal('ERR_BIZCHAT_NUMBER_IN_USE');
      // A page may have the same id as a number: each kind is unique on its own.
      expect(
        await failure(r.connections.add(connectionFixture(c2, 'Page', { kind: 'socialnet', provider: 'messenger', externalId: '106540352242923' }))),
      ).to.equal(null);
      expect((await r.bizchatNumbers.connectionOfPhoneNumber('106540352242923'))?.id).to.equal(conn2);
    });

    it("a contact's window opens at its newest inbound message on that connection, in its company", async () => {
      await given();
      const contact = await r.contacts.add(contactDraft(c1, '5511988887777'));
      const neighbour = await r.contacts.add(contactDraft(c1, '5511988886666'));
      const ticketOn = async (contactId: number, connectionId: number, n: number) =>
        (await r.tickets.getOrCreateActive(ticketDraft({ companyId: c1, contactId, connectionId, uuid: `0b6f3d0e-7a52-4a8c-9a51-00000000000${n}` }))).ticket;
      const ticket = await ticketOn(contact.id, conn1, 1);
      const elsewhere = await ticketOn(contact.id, conn2, 2);
      const theirTicket = await ticketOn(neighbour.id, conn1, 3);
      const id = (n: number) => `6a1f9c7e-2b1d-4f0a-8c3e-00000000000${n}`;
      expect(await r.serviceWindows.lastInboundAt(c1, conn1, contact.id)).to.equal(null);
      await r.messages.add(messageFixture(ticket, id(1), { createdAt: at(1), updatedAt: at(1) }));
      await r.messages.add(messageFixture(ticket, id(2), { createdAt: at(3), updatedAt: at(3) }));
      // Neither our own messages, another connection's nor another contact's move it.
      await r.messages.add(messageFixture(ticket, id(3), { fromMe: true, createdAt: at(9), updatedAt: at(9) }));
      await r.messages.add(messageFixture(elsewhere, id(4), { createdAt: at(8), updatedAt: at(8) }));
      await r.messages.add(messageFixture(theirTicket, id(5), { createdAt: at(7), updatedAt: at(7) }));
      expect((await r.serviceWindows.lastInboundAt(c1, conn1, contact.id))?.toISOString()).to.equal(at(3).toISOString());
      expect((await r.serviceWindows.lastInboundAt(c1, conn2, contact.id))?.toISOString()).to.equal(at(8).toISOString());
      expect(await r.serviceWindows.lastInboundAt(c2, conn1, contact.id)).to.equal(null);
    });
  });
}

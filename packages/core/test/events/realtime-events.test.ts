import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { REALTIME_EVENT_NAMES, type RealtimeEvent, type RealtimeEventName } from '../../src/index.js';
import { ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';
import { IMPORT_JOB, type ImportJobPayload } from '../../src/contact-lists/import-contact-list.js';
import { contactListJobs } from '../../src/contact-lists/jobs.js';
import { PRODUCT_IMPORT_JOB, type ProductImportPayload } from '../../src/catalog/import-products.js';
import { userFixture } from '../contracts/repositories-contract.js';
import { productDraft } from '../contracts/orders-contract.js';

type DataOf<N extends RealtimeEventName> = Extract<Extract<RealtimeEvent, { entity: N['entity'] }>['data'], { action: N['action'] }>;
/** The payload keys of every (entity, action): the compiler checks each key against the union, and that no pair is missing. */
type PayloadKeys = { readonly [N in RealtimeEventName as `${N['entity']}:${N['action']}`]: readonly Exclude<keyof DataOf<N>, 'action'>[] };

const IMPORT_STATUS = [
  'importId',
  'source',
  'fileName',
  'status',
  'total',
  'processed',
  'created',
  'merged',
  'failed',
  'errors',
  'errorsTruncated',
  'error',
  'startedAt',
  'finishedAt',
] as const;
const LIST_IMPORT_STATUS = [
  'importId',
  'contactListId',
  'fileName',
  'status',
  'total',
  'processed',
  'created',
  'duplicates',
  'invalid',
  'errors',
  'error',
  'startedAt',
  'finishedAt',
] as const;
const PAYLOAD: PayloadKeys = {
  'user:create': ['user'],
  'user:update': ['user'],
  'user:delete': ['userId'],
  'company:update': ['company'],
  'platform:company': ['change', 'companyId'],
  'platform:plan': ['change', 'planId'],
  'platform:setting': ['key'],
  'settings:update': ['setting'],
  'queue:update': ['queue'],
  'queue:delete': ['queueId'],
  'queueIntegration:create': ['queueIntegration'],
  'queueIntegration:update': ['queueIntegration'],
  'queueIntegration:delete': ['integrationId'],
  'chatapp:update': ['chatapp'],
  'chatapp:delete': ['chatappId'],
  'chatappSession:update': ['session'],
  'contact:create': ['contact'],
  'contact:update': ['contact'],
  'contact:delete': ['contactId'],
  'contactImport:progress': IMPORT_STATUS,
  'contactImport:done': IMPORT_STATUS,
  'tag:create': ['tag'],
  'tag:update': ['tag'],
  'tag:delete': ['tagId'],
  'tag:contact': ['contactId', 'tags'],
  'ticket:create': ['ticket'],
  'ticket:update': ['ticket'],
  'ticket:updateUnread': ['ticketId', 'ticket'],
  'ticket:delete': ['ticketId'],
  'ticket:closeMany': ['ticketIds', 'status', 'chatappId'],
  'appMessage:create': ['message', 'ticket', 'contact'],
  'appMessage:update': ['message'],
  'contactTyping:update': ['ticketId', 'contactId', 'state'],
  'ContactList:create': ['record'],
  'ContactList:update': ['record'],
  'ContactList:delete': ['id'],
  'ContactListItem:create': ['record'],
  'ContactListItem:update': ['record'],
  'ContactListItem:delete': ['id', 'contactListId'],
  'ContactListItem:reload': ['contactListId', 'records'],
  'contactListImport:progress': LIST_IMPORT_STATUS,
  'contactListImport:done': LIST_IMPORT_STATUS,
  'campaign:create': ['record'],
  'campaign:update': ['record'],
  'campaign:delete': ['id'],
  'campaignProgress:progress': ['id', 'status', 'progress'],
  'campaignSettings:create': ['record'],
  'chat:new-message': ['newMessage', 'chat'],
  'chat:update': ['chat'],
  'chat:delete': ['id'],
  'chat-user:create': ['record'],
  'chat-user:update': ['record'],
  'announcement:create': ['record'],
  'announcement:update': ['record'],
  'announcement:delete': ['id'],
  'schedule:create': ['schedule'],
  'schedule:update': ['schedule'],
  'schedule:delete': ['scheduleId'],
  'scheduledMessage:create': ['scheduledMessage'],
  'scheduledMessage:update': ['scheduledMessage'],
  'scheduledMessage:delete': ['scheduleId'],
  'transcription:update': ['job'],
  'prompt:create': ['prompt'],
  'prompt:update': ['prompt'],
  'prompt:delete': ['promptId'],
  'file:create': ['files'],
  'file:update': ['files'],
  'file:delete': ['fileId'],
  'flow:create': ['flow'],
  'flow:update': ['flow'],
  'flow:publish': ['flow', 'version'],
  'flow:delete': ['flowId'],
  'product:create': ['product'],
  'product:update': ['product'],
  'product:delete': ['productIds'],
  'category:create': ['category'],
  'category:update': ['category'],
  'category:delete': ['categoryIds'],
  'productImport:progress': ['record'],
  'productImport:done': ['record'],
  'objstoreConfig:create': ['config'],
  'objstoreConfig:update': ['config'],
  'objstoreConfig:delete': ['configId'],
  'order:create': ['order'],
  'order:update': ['order'],
  'order:delete': ['orderIds'],
  'payment:CONCLUIDA': ['company', 'invoice'],
  'companyTemplate:create': ['record'],
  'companyTemplate:update': ['record'],
  'companyTemplate:delete': ['id'],
};
/** Keys some publishers of a pair leave out. */
const OPTIONAL: Partial<Record<keyof PayloadKeys, readonly string[]>> = { 'ticket:closeMany': ['chatappId'] };

const ALL = REALTIME_EVENT_NAMES.map((n) => `${n.entity}:${n.action}`);

/**
 * Use cases, each with the (entity, action) pairs it publishes, in order. Together they publish
 * every pair of the union.
 */
function steps(w: TicketWorld): Array<[string, string[], () => Promise<unknown>]> {
  const { app, admin, ana, acme } = w;
  // The schedules enqueue their occurrences' jobs: their definitions are known to the in-memory queue from the start.
  w.ports.jobDefinitions.push(...app.schedules.jobs());
  // So do background transcriptions.
  w.ports.jobDefinitions.push(...app.transcription.jobs());
  // And product imports.
  w.ports.jobDefinitions.push(...app.catalog.jobs());
  const ids: Record<string, number> = {};
  let messageId = '';
  return [
    [
      'createUser',
      ['user:create'],
      async () => {
        ids.user = (await app.identity.createUser.execute({ actor: admin, name: 'Op Five', email: 'five@acme.test', password: 'password-5' })).id;
      },
    ],
    ['updateUser', ['user:update'], () => app.identity.updateUser.execute({ actor: admin, userId: ids.user!, name: 'Op Cinco' })],
    ['deleteUser', ['user:delete'], () => app.identity.deleteUser.execute({ actor: admin, userId: ids.user! })],
    [
      'updateCompanySchedules',
      ['company:update'],
      () =>
        app.tenancy.updateCompanySchedules.execute({
          actor: admin,
          companyId: acme.id,
          schedules: [{ weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '09:00', endTime: '17:00' }],
        }),
    ],
    ['updateCompanySetting', ['settings:update'], () => app.settings.updateCompanySetting.execute({ actor: admin, key: 'userRating', value: 'enabled' })],
    [
      'createQueue',
      ['queue:update'],
      async () => {
        ids.queue = (await app.queues.createQueue.execute({ actor: admin, name: 'Billing' })).id;
      },
    ],
    ['deleteQueue', ['queue:delete'], () => app.queues.deleteQueue.execute({ actor: admin, queueId: ids.queue! })],
    [
      'createQueueIntegration',
      ['queueIntegration:create'],
      async () => {
        ids.integration = (await app.queues.createQueueIntegration.execute({ actor: admin, name: 'Hook', type: 'webhook', url: 'https://bot.example.com' })).id;
      },
    ],
    [
      'updateQueueIntegration',
      ['queueIntegration:update'],
      () => app.queues.updateQueueIntegration.execute({ actor: admin, integrationId: ids.integration!, name: 'Hook 2' }),
    ],
    ['deleteQueueIntegration', ['queueIntegration:delete'], () => app.queues.deleteQueueIntegration.execute({ actor: admin, integrationId: ids.integration! })],
    [
      'createConnection',
      ['chatapp:update'],
      async () => {
        ids.connection = (await app.connections.createConnection.execute({ actor: admin, kind: 'chatapp', name: 'Second', provider: 'sandbox' })).id;
      },
    ],
    [
      'controlSession',
      ['chatappSession:update'],
      () => app.connections.controlSession.execute({ actor: admin, connectionId: ids.connection!, action: 'restart' }),
    ],
    [
      'closeImportedTickets',
      ['ticket:closeMany'],
      async () => {
        await w.ticket({ status: 'pending' }, (await w.ports.connections.findById(acme.id, ids.connection!))!);
        return app.tickets.closeImportedTickets.execute({ actor: admin, connectionId: ids.connection! });
      },
    ],
    ['deleteConnection', ['chatapp:delete'], () => app.connections.deleteConnection.execute({ actor: admin, connectionId: ids.connection! })],
    [
      'createContact',
      ['contact:create'],
      async () => {
        ids.contact = (await app.contacts.createContact.execute({ actor: ana, name: 'Ana', number: '5511988887777' })).id;
      },
    ],
    ['updateContact', ['contact:update'], () => app.contacts.updateContact.execute({ actor: ana, contactId: ids.contact!, name: 'Ana Maria' })],
    [
      'startContactImport',
      ['contactImport:progress', 'contactImport:done'],
      async () => {
        await app.contacts.startContactImport.execute({ actor: ana, rows: [{ row: 2, name: 'Bia', number: '5511977776666', email: '' }], source: 'list' });
        await w.ports.jobs.idle();
      },
    ],
    [
      'createTag',
      ['tag:create'],
      async () => {
        ids.tag = (await app.tags.createTag.execute({ actor: admin, name: 'VIP' })).id;
      },
    ],
    ['updateTag', ['tag:update'], () => app.tags.updateTag.execute({ actor: admin, tagId: ids.tag!, name: 'Gold' })],
    ['syncTags (contact)', ['tag:contact'], () => app.tags.syncTags.execute({ actor: admin, contactId: ids.contact!, tagIds: [ids.tag!] })],
    ['deleteTag', ['tag:delete'], () => app.tags.deleteTag.execute({ actor: admin, tagId: ids.tag! })],
    ['deleteContact', ['contact:delete'], () => app.contacts.deleteContact.execute({ actor: admin, contactId: ids.contact! })],
    [
      'createTicket',
      ['ticket:create'],
      async () => {
        ids.ticket = (await app.tickets.createTicket.execute({ actor: ana, contactId: (await w.contact()).id, connectionId: w.connection.id })).id;
      },
    ],
    [
      'sendTicketMessage',
      ['ticket:update', 'appMessage:create'],
      async () => {
        messageId = (await app.conversations.sendTicketMessage.execute({ actor: ana, ticketId: ids.ticket!, body: 'Hi!' })).messages[0]!.id;
      },
    ],
    [
      'applyChannelEvent (sent)',
      ['appMessage:update'],
      () =>
        app.conversations.applyChannelEvent.execute({
          type: 'SessionMessageSent',
          messageId,
          companyId: acme.id,
          chatappId: w.connection.id,
          providerMessageId: 'P-1',
          at: '2026-01-01T12:00:00Z',
        }),
    ],
    [
      'routeInbound',
      ['ticket:create', 'appMessage:create'],
      async () => {
        ids.inbound = (
          await app.conversations.routeInbound.execute({
            type: 'InboundMessage',
            companyId: acme.id,
            chatappId: w.connection.id,
            providerMessageId: 'IN-1',
            from: '5511999990000',
            senderName: 'Caio',
            body: 'hello',
            isGroup: false,
            at: '2026-01-01T12:00:00.000Z',
          })
        ).ticketId!;
      },
    ],
    [
      'applyChannelEvent (the contact of the open conversation typing)',
      ['contactTyping:update'],
      () =>
        app.conversations.applyChannelEvent.execute({
          type: 'ContactPresence',
          companyId: acme.id,
          chatappId: w.connection.id,
          from: '5511999990000',
          state: 'composing',
          at: '2026-01-01T12:00:01.000Z',
        }),
    ],
    [
      'applyChannelEvent (a contact with no open conversation typing: dropped)',
      [],
      () =>
        app.conversations.applyChannelEvent.execute({
          type: 'ContactPresence',
          companyId: acme.id,
          chatappId: w.connection.id,
          from: '5511977776666',
          state: 'recording',
          at: '2026-01-01T12:00:01.000Z',
        }),
    ],
    [
      'listTicketMessages',
      ['ticket:update', 'ticket:updateUnread'],
      () => app.conversations.listTicketMessages.execute({ actor: admin, ticketId: ids.inbound! }),
    ],
    ['closeAllTickets', ['ticket:closeMany'], () => app.tickets.closeAllTickets.execute({ actor: admin })],
    ['deleteTicket', ['ticket:delete'], () => app.tickets.deleteTicket.execute({ actor: admin, ticketId: ids.ticket! })],
    [
      'createContactList',
      ['ContactList:create'],
      async () => {
        ids.list = (await app.contactLists.createContactList.execute({ actor: admin, name: 'Clientes' })).id;
      },
    ],
    [
      'updateContactList',
      ['ContactList:update'],
      () => app.contactLists.updateContactList.execute({ actor: admin, contactListId: ids.list!, name: 'Clientes VIP' }),
    ],
    [
      'createContactListItem',
      ['ContactListItem:create', 'ContactList:update'],
      async () => {
        ids.item = (await app.contactLists.createContactListItem.execute({ actor: admin, contactListId: ids.list!, name: 'Ana', number: '5511988887777' })).id;
      },
    ],
    [
      'updateContactListItem',
      ['ContactListItem:update', 'ContactList:update'],
      () => app.contactLists.updateContactListItem.execute({ actor: admin, itemId: ids.item!, name: 'Ana Maria' }),
    ],
    [
      'startContactListImport (and its job)',
      ['contactListImport:progress', 'contactListImport:done', 'ContactList:update', 'ContactListItem:reload'],
      async () => {
        w.ports.jobDefinitions.push(...contactListJobs(app.contactLists));
        await app.contactLists.startContactListImport.execute({
          actor: admin,
          contactListId: ids.list!,
          fileName: 'lista.csv',
          rows: [{ row: 2, name: 'Bia', number: '5511977776666', variables: {} }],
        });
        const [job] = await w.ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs: new Map([[IMPORT_JOB, 60_000]]) });
        await app.contactLists.runContactListImport.execute(job!.payload as ImportJobPayload);
      },
    ],
    [
      'createSchedule',
      ['schedule:create'],
      async () => {
        const contact = await w.contact();
        ids.schedule = (
          await app.schedules.createSchedule.execute({ actor: ana, schedule: { body: 'Lembrete', sendAt: '2026-01-02 09:00', contactId: contact.id } })
        ).id;
      },
    ],
    [
      'updateSchedule',
      ['schedule:update'],
      () => app.schedules.updateSchedule.execute({ actor: ana, scheduleId: ids.schedule!, schedule: { body: 'Lembrete, {{firstName}}' } }),
    ],
    ['deleteSchedule', ['schedule:delete'], () => app.schedules.deleteSchedule.execute({ actor: admin, scheduleId: ids.schedule! })],
    [
      'createScheduledMessage',
      ['scheduledMessage:create'],
      async () => {
        const contact = await w.contact();
        ids.scheduledMessage = (
          await app.schedules.createScheduledMessage.execute({
            actor: ana,
            message: { name: 'Aviso', body: 'Olá {{firstName}}', sendAt: '2026-01-02 09:00', contactIds: [contact.id] },
          })
        ).id;
      },
    ],
    [
      'updateScheduledMessage',
      ['scheduledMessage:update'],
      () => app.schedules.updateScheduledMessage.execute({ actor: ana, scheduleId: ids.scheduledMessage!, message: { name: 'Aviso de janeiro' } }),
    ],
    [
      'deleteScheduledMessage',
      ['scheduledMessage:delete'],
      () => app.schedules.deleteScheduledMessage.execute({ actor: admin, scheduleId: ids.scheduledMessage! }),
    ],
    // Four audio messages are more than a request waits for: a background job is queued.
    [
      'transcribeTicket (a job)',
      ['transcription:update'],
      async () => {
        await app.transcription.createTranscriptionCredential.execute({ actor: admin, name: 'Whisper', apiKey: 'sk-test-0123456789' });
        const ticket = await w.ticket({ status: 'open', userId: ana.userId });
        const audio = { key: 'public/company-1/a.ogg', url: 'http://files.test/a.ogg', contentType: 'audio/ogg', filename: 'a.ogg', size: 1000 };
        for (let i = 0; i < 4; i++) await w.message(ticket, { media: audio });
        return app.transcription.transcribeTicket.execute({ actor: ana, ticketId: ticket.id });
      },
    ],
    [
      'createPrompt',
      ['prompt:create'],
      async () => {
        ids.prompt = (
          await app.prompts.createPrompt.execute({ actor: admin, name: 'Atendente', prompt: 'Answer politely.', apiKey: 'sk-test-0123456789', queueId: 1 })
        ).id;
      },
    ],
    ['updatePrompt', ['prompt:update'], () => app.prompts.updatePrompt.execute({ actor: admin, promptId: ids.prompt!, maxMessages: 5 })],
    ['deletePrompt', ['prompt:delete'], () => app.prompts.deletePrompt.execute({ actor: admin, promptId: ids.prompt! })],
    [
      'createFileList',
      ['file:create'],
      async () => {
        ids.fileList = (await app.files.createFileList.execute({ actor: admin, name: 'Catálogo', message: 'Segue', options: [{ name: 'Preços' }] })).id;
      },
    ],
    ['updateFileList', ['file:update'], () => app.files.updateFileList.execute({ actor: admin, fileListId: ids.fileList!, name: 'Catálogo 2026' })],
    ['deleteFileList', ['file:delete'], () => app.files.deleteFileList.execute({ actor: admin, fileListId: ids.fileList! })],
    [
      'createFlow',
      ['flow:create'],
      async () => {
        ids.flow = (await app.flows.createFlow.execute({ actor: admin, name: 'Boas-vindas' })).id;
      },
    ],
    [
      'addFlowNode, addFlowEdge',
      ['flow:update', 'flow:update'],
      async () => {
        const { node } = await app.flows.addFlowNode.execute({ actor: admin, flowId: ids.flow!, node: { type: 'message', data: { text: 'Olá!' } } });
        await app.flows.addFlowEdge.execute({ actor: admin, flowId: ids.flow!, edge: { source: 'start', sourceHandle: 'next', target: node.id } });
      },
    ],
    ['publishFlow', ['flow:publish'], () => app.flows.publishFlow.execute({ actor: admin, flowId: ids.flow! })],
    ['deleteFlow', ['flow:delete'], () => app.flows.deleteFlow.execute({ actor: admin, flowId: ids.flow! })],
    [
      'createCategory',
      ['category:create'],
      async () => {
        ids.category = (await app.catalog.createCategory.execute({ actor: admin, name: 'Cafés' })).id;
      },
    ],
    ['updateCategory', ['category:update'], () => app.catalog.updateCategory.execute({ actor: admin, categoryId: ids.category!, position: 1 })],
    [
      'createProduct',
      ['product:create'],
      async () => {
        ids.product = (await app.catalog.createProduct.execute({ actor: admin, name: 'Espresso', price: 650, categoryId: ids.category! })).id;
      },
    ],
    ['updateProduct', ['product:update'], () => app.catalog.updateProduct.execute({ actor: admin, productId: ids.product!, stock: 3 })],
    // A row naming a category the company lacks: it is created with the batch.
    [
      'startProductImport (and its job)',
      ['category:create', 'productImport:progress', 'productImport:done'],
      async () => {
        await app.catalog.startProductImport.execute({
          actor: admin,
          fileName: 'produtos.csv',
          sheet: { columns: ['name', 'price', 'category'], rows: [{ row: 2, cells: { name: 'Chá', price: '8,00', category: 'Chás' } }] },
        });
        const [job] = await w.ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs: new Map([[PRODUCT_IMPORT_JOB, 60_000]]) });
        await app.catalog.runProductImport.execute(job!.payload as ProductImportPayload);
      },
    ],
    ['deleteProducts', ['product:delete'], () => app.catalog.deleteProducts.execute({ actor: admin, ids: [ids.product!] })],
    ['deleteCategories', ['category:delete'], () => app.catalog.deleteCategories.execute({ actor: admin, ids: [ids.category!] })],
    [
      'createOrder',
      ['order:create'],
      async () => {
        const product = await w.ports.products.add(productDraft(acme.id, 'Vaso'));
        ids.order = (
          await app.orders.createOrder.execute({ actor: ana, contactId: (await w.contact()).id, items: [{ productId: product.id, quantity: 1 }] })
        ).id;
      },
    ],
    ['updateOrder', ['order:update'], () => app.orders.updateOrder.execute({ actor: ana, orderId: ids.order!, status: 'confirmed' })],
    ['deleteOrders', ['order:delete'], () => app.orders.deleteOrders.execute({ actor: admin, orderIds: [ids.order!] })],
    // The gateway reports the charge of an invoice paid: the invoice is settled.
    [
      'applyPayment',
      ['payment:CONCLUIDA'],
      async () => {
        const at = w.ports.clock.now();
        const invoice = await w.ports.invoices.add({
          companyId: acme.id,
          detail: 'P',
          status: 'open',
          value: '99.90',
          dueDate: '2026-01-10',
          paidAt: null,
          createdAt: at,
          updatedAt: at,
        });
        const { chargeId } = await app.billing.payInvoice.execute({ actor: admin, invoiceId: invoice.id });
        const { gatewayChargeId } = w.ports.charges.table.get(chargeId)!;
        w.ports.paymentGateway.settle(gatewayChargeId, 'paid', at);
        return app.billing.applyPayment.execute({ provider: w.ports.paymentGateway.provider, chargeId: gatewayChargeId });
      },
    ],
    [
      'createObjstoreConfig',
      ['objstoreConfig:create'],
      async () => {
        ids.objstore = (
          await app.objstore.createObjstoreConfig.execute({
            actor: admin,
            name: 'Bucket',
            provider: 'minio',
            endpoint: 'https://minio.example.com',
            bucket: 'media',
            accessKeyId: 'AKIA',
            secretAccessKey: 'secret-0123456789',
            active: true,
          })
        ).id;
      },
    ],
    // Activating a second config deactivates the first: both are updated.
    [
      'createObjstoreConfig (active)',
      ['objstoreConfig:create', 'objstoreConfig:update'],
      () =>
        app.objstore.createObjstoreConfig.execute({
          actor: admin,
          name: 'Other',
          bucket: 'media-2',
          accessKeyId: 'AKIA',
          secretAccessKey: 'secret-0123456789',
          active: true,
        }),
    ],
    [
      'updateObjstoreConfig',
      ['objstoreConfig:update'],
      () => app.objstore.updateObjstoreConfig.execute({ actor: admin, configId: ids.objstore!, name: 'Bucket 2' }),
    ],
    ['deleteObjstoreConfig', ['objstoreConfig:delete'], () => app.objstore.deleteObjstoreConfig.execute({ actor: admin, configId: ids.objstore! })],
    [
      'createCompanyTemplate',
      ['companyTemplate:create'],
      async () => {
        ids.template = (
          await app.companyTemplates.createCompanyTemplate.execute({ actor: admin, shortcut: '/ola', message: 'Olá {{firstName}}!', global: true })
        ).id;
      },
    ],
    // Made personal: the operators who lose sight of it are told it is gone, then its owner and the admins get the update.
    [
      'updateCompanyTemplate',
      ['companyTemplate:delete', 'companyTemplate:update'],
      () =>
        app.companyTemplates.updateCompanyTemplate.execute({
          actor: admin,
          templateId: ids.template!,
          global: false,
        }),
    ],
    [
      'deleteCompanyTemplate',
      ['companyTemplate:delete'],
      () => app.companyTemplates.deleteCompanyTemplate.execute({ actor: admin, templateId: ids.template! }),
    ],
    [
      'assignSeller',
      ['contact:update'],
      async () => {
        await app.contactSellers.assignSeller.execute({ actor: admin, contactId: (await w.contact()).id, userId: ana.userId });
      },
    ],
    [
      'deleteContactListItem',
      ['ContactListItem:delete', 'ContactList:update'],
      () => app.contactLists.deleteContactListItem.execute({ actor: admin, itemId: ids.item! }),
    ],
    ['deleteContactList', ['ContactList:delete'], () => app.contactLists.deleteContactList.execute({ actor: admin, contactListId: ids.list! })],
    [
      'saveCampaignSettings',
      ['campaignSettings:create'],
      () =>
        app.campaigns.saveCampaignSettings.execute({
          actor: admin,
          settings: { startHour: '00:00', endHour: '24:00', sabado: true, domingo: true },
        }),
    ],
    [
      'createCampaign',
      ['tag:create', 'campaign:create'],
      async () => {
        const tag = await app.tags.createTag.execute({ actor: admin, name: 'Nobody yet' });
        ids.campaign = (
          await app.campaigns.createCampaign.execute({
            actor: admin,
            campaign: { name: 'Launch', message1: 'Hi {nome}', tagListId: tag.id, chatappId: w.connection.id },
          })
        ).id;
      },
    ],
    [
      'updateCampaign',
      ['campaign:update'],
      () => app.campaigns.updateCampaign.execute({ actor: admin, campaignId: ids.campaign!, campaign: { message2: 'Hello {nome}' } }),
    ],
    ['startCampaign', ['campaign:update'], () => app.campaigns.startCampaign.execute({ actor: admin, campaignId: ids.campaign! })],
    // Nobody carries the tag: the dispatcher finds nothing to send and completes the campaign.
    ['dispatchDueConnections', ['campaign:update', 'campaignProgress:progress'], () => app.campaigns.dispatchDueConnections.execute()],
    ['deleteCampaign', ['campaign:delete'], () => app.campaigns.deleteCampaign.execute({ actor: admin, campaignId: ids.campaign! })],
    [
      'createChat',
      ['chat-user:create', 'chat-user:create'],
      async () => {
        ids.chat = (await app.chats.createChat.execute({ actor: admin, title: 'Plantão', userIds: [ana.userId] })).id;
      },
    ],
    // Ana leaves, Bia joins: the admin's chat is updated, Bia's created, Ana's gone.
    [
      'updateChat',
      ['chat-user:update', 'chat-user:create', 'chat:delete'],
      () => app.chats.updateChat.execute({ actor: admin, chatId: ids.chat!, userIds: [w.bia.userId] }),
    ],
    ['sendChatMessage', ['chat:new-message', 'chat:new-message'], () => app.chats.sendChatMessage.execute({ actor: w.bia, chatId: ids.chat!, message: 'Oi' })],
    ['markChatRead', ['chat:update', 'chat:update'], () => app.chats.markChatRead.execute({ actor: admin, chatId: ids.chat! })],
    ['deleteChat', ['chat:delete'], () => app.chats.deleteChat.execute({ actor: admin, chatId: ids.chat! })],
    // Aimed at Acme by a super user of Acme: Acme's users and its super user read the same frame.
    [
      'createAnnouncement',
      ['announcement:create'],
      async () => {
        const root = await w.ports.users.add(userFixture(acme.id, 'root@acme.test', { profile: 'super' }));
        ids.superUser = root.id;
        const actor = { userId: root.id, companyId: acme.id, profile: 'super' as const };
        ids.announcement = (
          await app.announcements.createAnnouncement.execute({ actor, announcement: { title: 'Manutenção', targetCompanyIds: [acme.id] } })
        ).id;
      },
    ],
    [
      'updateAnnouncement',
      ['announcement:update'],
      () =>
        app.announcements.updateAnnouncement.execute({
          actor: { userId: ids.superUser!, companyId: acme.id, profile: 'super' },
          announcementId: ids.announcement!,
          announcement: { priority: 1 },
        }),
    ],
    [
      'deleteAnnouncement',
      ['announcement:delete'],
      () =>
        app.announcements.deleteAnnouncement.execute({
          actor: { userId: ids.superUser!, companyId: acme.id, profile: 'super' },
          announcementId: ids.announcement!,
        }),
    ],
    // Acme holds a super user now: the platform's changes reach Acme's namespace, for them.
    [
      'updateCompany',
      ['company:update', 'platform:company'],
      () =>
        app.tenancy.updateCompany.execute({
          actor: { userId: ids.superUser!, companyId: acme.id, profile: 'super' },
          companyId: acme.id,
          phone: '5511900000000',
        }),
    ],
    [
      'updatePlan',
      ['platform:plan'],
      async () => {
        const company = await w.ports.companies.findById(acme.id);
        await app.tenancy.updatePlan.execute({ actor: { userId: ids.superUser!, companyId: acme.id, profile: 'super' }, planId: company!.planId, users: 50 });
      },
    ],
    [
      'updateGlobalSetting',
      ['platform:setting'],
      () =>
        app.settings.globalSettings.update({ actor: { userId: ids.superUser!, companyId: acme.id, profile: 'super' }, key: 'userCreation', value: 'disabled' }),
    ],
  ];
}

describe('Realtime events: the union and what the use cases publish', () => {
  it('lists every (entity, action) of the union once', () => {
    expect(new Set(ALL).size).to.equal(ALL.length);
    expect([...ALL].sort()).to.deep.equal(Object.keys(PAYLOAD).sort());
  });

  it('use cases publish only pairs of the union, each with its payload, and together every pair', async () => {
    const w = await ticketWorld();
    const seen = new Set<string>();
    for (const [name, expected, run] of steps(w)) {
      const before = w.ports.realtime.events.length;
      await run();
      const events = w.ports.realtime.events.slice(before);
      expect(
        events.map((e) => `${e.entity}:${e.data.action}`),
        name,
      ).to.deep.equal(expected);
      for (const e of events) {
        const pair = `${e.entity}:${e.data.action}` as keyof PayloadKeys;
        expect(ALL, name).to.include(pair);
        expect(e.companyId, name).to.equal(w.acme.id);
        const keys = Object.keys(e.data).filter((k) => k !== 'action');
        const listed: readonly string[] = PAYLOAD[pair];
        const optional = OPTIONAL[pair] ?? [];
        expect(listed, `${name}: ${pair} carries ${keys.join(', ')}`).to.include.members(keys);
        expect(keys, `${name}: ${pair} carries ${keys.join(', ')}`).to.include.members(listed.filter((k) => !optional.includes(k)));
        seen.add(pair);
      }
    }
    expect([...seen].sort()).to.deep.equal([...ALL].sort());
  });

  it('the table of docs/realtime.md names exactly these pairs', () => {
    const section = readFileSync(new URL('../../../../docs/realtime.md', import.meta.url), 'utf8');
    const rows = [...section.matchAll(/^\| `([A-Za-z-]+)` \| `([A-Za-z-]+)` \|/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(rows.sort()).to.deep.equal([...ALL].sort());
  });
});

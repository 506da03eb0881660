import type { CallerApis, ClientCalls, Params } from '../client-call.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/** What the list page and the report read of a campaign (a list row, a `campaign` frame's record). */
const ROW = ['id', 'name', 'status', 'contactListId', 'chatappId', 'chatapp.name', 'scheduledAt', 'completedAt', 'confirmation'];
const rows = (prefix: string) => ROW.map((f) => `${prefix}.${f}`);
const CAMPAIGN_UPDATE = { event: 'campaign', action: 'update', reads: rows('record') };

let n = 0;
/** A draft of its own (with the fixture's connection and audience tag), for an entry that changes or deletes it. */
async function ownCampaign(p: Params, api: CallerApis, fields: Record<string, unknown> = {}): Promise<number> {
  n += 1;
  const res = await api.admin.post('/campaigns', {
    name: `Campanha ${n}`,
    message1: 'Olá {nome}!',
    chatappId: p.chatappId,
    tagListId: p.campaignTagId,
    ...fields,
  });
  if (res.status !== 200) throw new Error(`campaign: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** A campaign started (its recipients fixed), for cancel; cancelled too, for restart. */
async function runningCampaign(p: Params, api: CallerApis, cancelled: boolean): Promise<Params> {
  const target = await ownCampaign(p, api);
  const started = await api.admin.post(`/campaigns/${target}/restart`);
  if (started.status !== 204) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
  if (cancelled) {
    const res = await api.admin.post(`/campaigns/${target}/cancel`);
    if (res.status !== 204) throw new Error(`cancel: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { target };
}

/**
 * What CampaignModal sends on save: the campaign as loaded (`null` shown as `""`, `scheduledAt` as
 * `YYYY-MM-DDTHH:mm`), every `""` turned back into null, `scheduledAt` as `YYYY-MM-DD HH:mm:ss`,
 * with the connection, operator and queue of its pickers.
 */
function modalSave(shown: Record<string, unknown>, changes: Record<string, unknown>, p: Params) {
  const values = Object.fromEntries(Object.entries({ ...shown, ...changes }).map(([k, v]) => [k, v === '' ? null : v]));
  return { ...values, chatappId: p.chatappId, userId: p.userId, queueId: p.queueId };
}

/**
 * Campaigns: pages/Campaigns (the list, kept live by the `campaign` event; cancel, restart,
 * delete), components/CampaignModal (create and edit, the attachment, its pickers), pages/CampaignReport
 * and pages/CampaignsConfig. The report page counts deliveries from the lineage's `shipping` rows and
 * valid list items (`contactList.contacts`), which we do not send: we answer `progress` (counts per
 * state) and `recipients` (a page of them) instead, so that page shows its cards with zeros.
 */
export default {
  area: 'campaigns',
  prepare: async (p, api) => {
    const contact = await api.admin.post('/contacts', { name: 'Cliente Campanha', number: '5511977779001' });
    if (contact.status !== 201) throw new Error(`contact: ${contact.status} ${JSON.stringify(contact.body)}`);
    const tag = await api.admin.post('/tags', { name: 'Campanha de teste', color: '#884400', kanban: 0 });
    if (tag.status !== 201) throw new Error(`tag: ${tag.status} ${JSON.stringify(tag.body)}`);
    const synced = await api.admin.post('/tags/sync', { contactId: contact.body.id, tagIds: [tag.body.id] });
    if (synced.status !== 200) throw new Error(`tag sync: ${synced.status} ${JSON.stringify(synced.body)}`);
    // One send when a campaign starts, then an hour between sends.
    const settings = await api.admin.post('/campaign-settings', { settings: { messageInterval: 3600, messageIntervalMax: 3600 } });
    if (settings.status !== 200) throw new Error(`settings: ${settings.status} ${JSON.stringify(settings.body)}`);
    const q = { ...p, campaignTagId: tag.body.id as number };
    return { campaignTagId: tag.body.id as number, campaignId: await ownCampaign(q, api, { name: 'Black Friday', scheduledAt: '2030-11-28 09:00:00' }) };
  },
  calls: [
    {
      page: 'pages/Campaigns',
      method: 'GET',
      path: '/campaigns/',
      query: { searchParam: '', pageNumber: 1 },
      reads: ['records', 'hasMore', ...rows('records[]')],
      note: 'A row shows `contactList.name` when `contactListId` is set and `chatapp.name` when `chatappId` is.',
    },
    {
      page: 'pages/Campaigns (delete)',
      method: 'DELETE',
      path: '/campaigns/:target',
      setup: async (p, api) => ({ target: await ownCampaign(p, api) }),
      emits: [{ event: 'campaign', action: 'delete', reads: ['id'] }],
    },
    {
      page: 'pages/Campaigns, components/CampaignModal (cancel)',
      method: 'POST',
      path: '/campaigns/:target/cancel',
      returns: 'empty',
      status: 204,
      setup: async (p, api) => runningCampaign(p, api, false),
      emits: [CAMPAIGN_UPDATE],
    },
    {
      page: 'pages/Campaigns, components/CampaignModal (restart)',
      method: 'POST',
      path: '/campaigns/:target/restart',
      returns: 'empty',
      status: 204,
      setup: async (p, api) => runningCampaign(p, api, true),
      emits: [CAMPAIGN_UPDATE],
    },
    // CampaignModal: its pickers, then the campaign.
    {
      page: 'components/CampaignModal (connections)',
      method: 'GET',
      path: '/chatapp',
      query: (p: Params) => ({ companyId: p.companyId, session: 0 }),
      returns: 'array',
      reads: ['[].id', '[].name'],
    },
    { page: 'components/CampaignModal (operators)', method: 'GET', path: '/users/', reads: ['users[].id', 'users[].name'] },
    {
      page: 'components/CampaignModal (edit: load)',
      method: 'GET',
      path: '/campaigns/:campaignId',
      reads: [
        'id',
        'name',
        'status',
        'confirmation',
        'scheduledAt',
        'contactListId',
        'tagListId',
        'chatappId',
        'user',
        'queue',
        'statusTicket',
        'openTicket',
        'message1',
        'message5',
        'confirmationMessage1',
        'confirmationMessage5',
        'mediaPath',
        'mediaName',
      ],
    },
    {
      page: 'components/CampaignModal (add)',
      method: 'POST',
      path: '/campaigns',
      body: (p: Params) => ({
        name: 'Natal',
        message1: 'Feliz Natal, {nome}!',
        message2: null,
        message3: null,
        message4: null,
        message5: null,
        confirmationMessage1: null,
        confirmationMessage2: null,
        confirmationMessage3: null,
        confirmationMessage4: null,
        confirmationMessage5: null,
        status: 'INATIVA',
        confirmation: false,
        scheduledAt: '2030-12-20 10:00:00',
        contactListId: null,
        tagListId: p.campaignTagId,
        companyId: p.companyId,
        statusTicket: 'closed',
        openTicket: 'disabled',
        chatappId: p.chatappId,
        userId: null,
        queueId: null,
      }),
      reads: ['id'],
      emits: [{ event: 'campaign', action: 'create', reads: rows('record') }],
      note: 'Empty fields come as null, no tag as `"Nenhuma"`, the time as `YYYY-MM-DD HH:mm:ss` on the company clock; it then uploads the attachment to `/campaigns/<id>/media-upload`.',
    },
    {
      page: 'components/CampaignModal (add, no tag, no schedule)',
      method: 'POST',
      path: '/campaigns',
      body: (p: Params) => ({
        name: 'Rascunho',
        message1: '',
        status: 'INATIVA',
        confirmation: false,
        scheduledAt: null,
        contactListId: null,
        tagListId: 'Nenhuma',
        companyId: p.companyId,
        statusTicket: 'closed',
        openTicket: 'disabled',
        chatappId: p.chatappId,
        userId: null,
        queueId: null,
      }),
      reads: ['id'],
    },
    {
      page: 'components/CampaignModal (edit: save)',
      method: 'PUT',
      path: '/campaigns/:target',
      setup: async (p, api) => {
        const target = await ownCampaign(p, api, { scheduledAt: '2030-10-01 08:00:00' });
        const shown = (await api.admin.get(`/campaigns/${target}`)).body as Record<string, unknown>;
        return { target, shown: JSON.stringify(shown) };
      },
      body: (p: Params) =>
        modalSave(
          JSON.parse(String(p.shown)),
          { message2: 'Oi {nome}, temos novidades', scheduledAt: '2030-10-02 08:00:00', openTicket: 'enabled', statusTicket: 'pending' },
          p,
        ),
      reads: ['id'],
      emits: [CAMPAIGN_UPDATE],
      note: 'The whole GET answer comes back (with `progress` and `recipients`, which are dropped); `status` is the stored one, so it is an edit.',
    },
    {
      page: 'components/CampaignModal (attachment)',
      method: 'POST',
      path: '/campaigns/:target/media-upload',
      setup: async (p, api) => ({ target: await ownCampaign(p, api) }),
      form: { files: [{ field: 'file', name: 'promo.png', type: 'image/png', content: PNG }] },
      emits: [{ event: 'campaign', action: 'update', reads: [...rows('record'), 'record.mediaPath', 'record.mediaName'] }],
    },
    {
      page: 'components/CampaignModal (remove the attachment)',
      method: 'DELETE',
      path: '/campaigns/:target/media-upload',
      setup: async (p, api) => {
        const target = await ownCampaign(p, api);
        const form = new FormData();
        form.append('file', new Blob([PNG], { type: 'image/png' }), 'promo.png');
        const res = await api.admin.post(`/campaigns/${target}/media-upload`, form);
        if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
        return { target };
      },
    },
    {
      page: 'pages/CampaignReport',
      method: 'GET',
      path: '/campaigns/:campaignId',
      reads: ['name', 'status', 'confirmation', 'chatappId', 'chatapp.name', 'contactListId', 'contactList', 'scheduledAt', 'completedAt'],
      note: 'It shows `chatapp.name` when `chatappId` is set and `contactList.name` when `contactListId` is; its counters read `shipping` and `contactList.contacts`, which we answer as `progress`.',
    },
    {
      page: 'pages/CampaignsConfig (load)',
      method: 'GET',
      path: '/campaign-settings',
      returns: 'array',
      reads: ['[].key', '[].value'],
    },
    {
      page: 'pages/CampaignsConfig (save the intervals and variables, after a reload)',
      method: 'POST',
      path: '/campaign-settings',
      body: {
        settings: {
          messageInterval: '3600',
          messageIntervalMax: '3600',
          longerIntervalAfter: 20,
          greaterInterval: 60,
          variables: [{ key: 'loja', value: 'Loja Centro' }],
          sabado: 'false',
          domingo: 'false',
          startHour: '09:00',
          endHour: '18:00',
        },
      },
      returns: 'array',
      emits: [{ event: 'campaignSettings', action: 'create', reads: ['record[].key', 'record[].value'] }],
      note: "After a reload the page holds the stored rows' strings (and `variables` as the stored JSON text until one is added) and sends them back.",
    },
    {
      page: 'pages/CampaignsConfig (save the sending hours)',
      method: 'POST',
      path: '/campaign-settings/',
      body: { settings: { sabado: true, domingo: false, startHour: '08:00', endHour: '19:00' } },
      returns: 'array',
    },
  ],
} satisfies ClientCalls;

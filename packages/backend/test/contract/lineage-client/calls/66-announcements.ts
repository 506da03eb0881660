import { expect } from 'chai';
import type { CallerApi, ClientCalls, Params } from '../client-call.js';

/**
 * Announcements ("Informativos"): pages/Annoucements (the super user's list, kept live by the
 * event; delete), components/AnnouncementModal (load, create, edit, attach with `file` and
 * `typeArch`, remove the attachment) and components/AnnouncementsPopover (the bell every user has:
 * the list by page, `mediaPath` as an image, the priority's colour). Both listen to the lineage's
 * `company-announcement` (no company id in the name): `create`/`update` with `record`, `delete`
 * with `id`. The socket is Carla's (an admin of the platform's company, not a super user): an
 * announcement for every company reaches her as any user.
 */

/** What the list page's rows and the bell read of an announcement. */
const ROW = ['id', 'title', 'text', 'priority', 'mediaName', 'mediaPath', 'status', 'createdAt'];
const RECORD = ROW.map((f) => `record.${f}`);

const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));

async function announcement(api: CallerApi, title: string): Promise<number> {
  const res = await api.post('/announcements', { title, text: `${title}: detalhes`, priority: 2, status: true });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.id as number;
}

/** One of its own, with an attachment when asked (for an entry that edits, detaches or deletes it). */
async function own(api: CallerApi, withMedia = false): Promise<Params> {
  const target = await announcement(api, 'Aviso de teste');
  if (withMedia) {
    const form = new FormData();
    form.append('typeArch', 'announcements');
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'aviso.png');
    const res = await api.post(`/announcements/${target}/media-upload`, form);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
  return { target };
}

export default {
  area: 'announcements',
  async prepare(_p, api) {
    return { announcementId: await announcement(api.super, 'Manutenção programada') };
  },
  calls: [
    {
      page: 'pages/Annoucements',
      method: 'GET',
      path: '/announcements/',
      as: 'super',
      query: { searchParam: '', pageNumber: 1 },
      reads: ['hasMore', ...ROW.map((f) => `records[].${f}`)],
      note: "the super user's list: every announcement, active or not (the status column)",
    },
    {
      page: 'components/AnnouncementsPopover',
      method: 'GET',
      path: '/announcements/',
      as: 'user',
      query: { searchParam: '', pageNumber: 1 },
      reads: ['hasMore', 'records[].id', 'records[].title', 'records[].text', 'records[].priority', 'records[].mediaPath', 'records[].createdAt'],
      note: "the bell: what the operator's company is shown now, by priority (`priority` colours the row, `mediaPath` is an `<img src>`)",
    },
    {
      page: 'components/AnnouncementModal (load)',
      method: 'GET',
      path: '/announcements/:announcementId',
      as: 'super',
      reads: ['id', 'title', 'text', 'priority', 'status', 'mediaPath', 'mediaName'],
    },
    {
      page: 'components/AnnouncementModal (new)',
      method: 'POST',
      path: '/announcements',
      as: 'super',
      body: { title: 'Nova versão', text: 'Chegou a versão 2.0', priority: 3, status: true },
      reads: ['id'],
      emits: [{ event: 'announcement', name: 'company-announcement', action: 'create', reads: RECORD }],
      note: "the answer's `id` is where the attachment goes next",
    },
    {
      page: 'components/AnnouncementModal (edit)',
      method: 'PUT',
      path: '/announcements/:target',
      as: 'super',
      setup: async (_p, api) => own(api.super),
      body: (p: Params) => ({
        id: p.target,
        title: 'Aviso editado',
        text: 'Texto novo',
        priority: 1,
        status: true,
        mediaPath: null,
        mediaName: null,
        companyId: p.companyId,
      }),
      reads: ['id', 'title'],
      emits: [{ event: 'announcement', name: 'company-announcement', action: 'update', reads: RECORD }],
      note: 'the modal sends the whole loaded announcement back with its edits; read-only fields are ignored',
    },
    {
      page: 'components/AnnouncementModal (attach)',
      method: 'POST',
      path: '/announcements/:target/media-upload',
      as: 'super',
      setup: async (_p, api) => own(api.super),
      form: { fields: { typeArch: 'announcements' }, files: [{ field: 'file', name: 'banner.png', type: 'image/png', content: PNG }] },
      emits: [{ event: 'announcement', name: 'company-announcement', action: 'update', reads: RECORD }],
    },
    {
      page: 'components/AnnouncementModal (remove the attachment), pages/Annoucements (delete)',
      method: 'DELETE',
      path: '/announcements/:target/media-upload',
      as: 'super',
      setup: async (_p, api) => own(api.super, true),
      emits: [{ event: 'announcement', name: 'company-announcement', action: 'update', reads: RECORD }],
    },
    {
      page: 'pages/Annoucements (delete)',
      method: 'DELETE',
      path: '/announcements/:target',
      as: 'super',
      setup: async (_p, api) => own(api.super),
      emits: [{ event: 'announcement', name: 'company-announcement', action: 'delete', reads: ['id'] }],
    },
  ],
} satisfies ClientCalls;

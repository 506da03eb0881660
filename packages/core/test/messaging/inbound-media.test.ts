import { expect } from 'chai';
import {
  createApplication,
  INBOUND_MEDIA_DELAY_MS,
  INBOUND_MEDIA_JOB,
  PayloadTooLargeError,
  ServiceUnavailableError,
  type Connection,
  type FetchedMedia,
  type InboundMedia,
  type InboundMediaJobPayload,
  type InboundMediaRequest,
  type InboundMessageEvent,
} from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** A fetcher the test scripts: each call takes the next answer (a file, or an error to throw). */
function scriptedFetcher(answers: Array<FetchedMedia | Error>) {
  const calls: InboundMediaRequest[] = [];
  return {
    calls,
    async fetch(request: InboundMediaRequest): Promise<FetchedMedia> {
      calls.push(request);
      const next = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

async function setup(answers: Array<FetchedMedia | Error> | null, companyIds: number[] = [1]) {
  const ports = createInMemoryPorts();
  const fetcher = answers ? scriptedFetcher(answers) : null;
  const app = createApplication({
    ...ports,
    relayAfterCommit: false,
    ...(fetcher ? { inboundMediaFetcher: fetcher, inboundMediaSettings: { maxBytes: 64, maxAttempts: 3, retryBaseMs: 10 } } : {}),
  });
  ports.jobDefinitions.push(...app.conversations.inboundMediaJobs());
  await app.tenancy.seedPlatform.execute({ adminEmail: 'root@x.test', adminPassword: 'root-password', passwordIsDefault: false });
  const connections: Connection[] = [];
  for (const companyId of companyIds) {
    const now = ports.clock.now();
    connections.push(
      await ports.connections.add({
        companyId,
        name: 'Main',
        kind: 'chatapp',
        provider: 'sandbox',
        status: 'CONNECTED',
        qrcode: null,
        greetingMessage: null,
        farewellMessage: null,
        outOfHoursMessage: null,
        isDefault: true,
        tokenDigest: ports.digester.digest(`api-token-${companyId}`),
        tokenHint: 'api-…123',
        externalId: null,
        secrets: {},
        reopenWindowMinutes: 0,
        greetingMediaKey: null,
        promptId: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
  }
  return { ports, app, fetcher, connections };
}

const photo: InboundMedia = { kind: 'image', mimetype: 'image/png', source: { from: 'url', url: 'https://cdn.example.com/photo.png' } };

function inbound(connection: Connection, id: string, body: string, media: InboundMedia | undefined = photo): InboundMessageEvent {
  return {
    type: 'InboundMessage',
    companyId: connection.companyId,
    chatappId: connection.id,
    providerMessageId: id,
    from: '5511999990000',
    senderName: 'Ana',
    body,
    isGroup: false,
    at: '2026-01-01T12:00:00.000Z',
    ...(media ? { media } : {}),
  };
}

describe("A contact's file (in-memory)", () => {
  it('is stored at once as pending with its caption, shown live, and its fetch enqueued once per message', async () => {
    const { ports, app, connections } = await setup([{ data: PNG, contentType: 'image/png' }]);
    const routed = await app.conversations.routeInbound.execute(inbound(connections[0]!, 'wamid-1', 'my receipt'));
    await app.conversations.routeInbound.execute(inbound(connections[0]!, 'wamid-1', 'my receipt'));
    const message = (await ports.messages.findById(1, routed.messageId!))!;
    expect(message.body).to.equal('my receipt');
    expect(message.media).to.deep.include({ key: '', url: '', contentType: 'image/png', status: 'pending' });
    expect(message.media!.filename).to.match(/^image-.+\.png$/);
    const created = ports.realtime.events.find((e) => e.entity === 'appMessage' && e.data.action === 'create');
    expect((created!.data as { message: { mediaUrl: unknown; mediaType: unknown } }).message).to.include({ mediaUrl: null, mediaType: 'image' });
    const jobs = await ports.jobStore.list({ name: INBOUND_MEDIA_JOB });
    expect(jobs.map((j) => j.key)).to.deep.equal([message.id]);
    expect(jobs[0]!.payload).to.deep.equal({ companyId: 1, messageId: message.id, media: photo });
    // Due a moment after the message: its create frame is out before the file's update can be.
    expect(jobs[0]!.runAt.getTime() - ports.clock.now().getTime()).to.equal(INBOUND_MEDIA_DELAY_MS);
  });

  it('the job stores the bytes under the company, points the message to them and sends its update; a second run changes nothing', async () => {
    const { ports, app, fetcher, connections } = await setup([{ data: PNG, contentType: 'image/png' }]);
    const routed = await app.conversations.routeInbound.execute(inbound(connections[0]!, 'wamid-1', ''));
    const [job] = await ports.jobStore.list({ name: INBOUND_MEDIA_JOB });
    await app.conversations.fetchInboundMedia!.execute(job!.payload as InboundMediaJobPayload, 1);
    const message = (await ports.messages.findById(1, routed.messageId!))!;
    expect(message.media!.status).to.equal(undefined);
    expect(message.media!.key).to.match(/^public\/company-1\/media\//);
    expect(message.media!.size).to.equal(PNG.length);
    expect(ports.blobs.blobs.get(message.media!.key)!.data.equals(PNG)).to.equal(true);
    expect(message.media!.url).to.equal(ports.blobs.publicUrl(message.media!.key));
    const update = ports.realtime.events.filter((e) => e.entity === 'appMessage' && e.data.action === 'update');
    expect(update.map((e) => (e.data as { message: { mediaUrl: string } }).message.mediaUrl)).to.deep.equal([message.media!.url]);
    expect(fetcher!.calls[0]!.connection.id).to.equal(connections[0]!.id);
    await app.conversations.fetchInboundMedia!.execute(job!.payload as InboundMediaJobPayload, 2);
    expect(fetcher!.calls).to.have.length(1);
    expect(ports.blobs.blobs.size).to.equal(1);
    const ticket = (await ports.tickets.findById(1, message.ticketId))!;
    expect(ticket.lastMessage).to.equal(`📎 ${message.media!.filename}`);
  });

  it('an unavailable provider fails the run (retried) until the last try, which marks the file failed with the reason', async () => {
    const { ports, app, connections } = await setup([new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE'), { data: PNG, contentType: 'image/png' }]);
    const routed = await app.conversations.routeInbound.execute(inbound(connections[0]!, 'wamid-1', ''));
    const [job] = await ports.jobStore.list({ name: INBOUND_MEDIA_JOB });
    const payload = job!.payload as InboundMediaJobPayload;
    let thrown: unknown;
    await app.conversations.fetchInboundMedia!.execute(payload, 1).catch((err) => {
      thrown = err;
    });
    expect(thrown).to.be.instanceOf(ServiceUnavailableError);
    expect((await ports.messages.findById(1, routed.messageId!))!.media!.status).to.equal('pending');
    await app.conversations.fetchInboundMedia!.execute(payload, 2);
    expect((await ports.messages.findById(1, routed.messageId!))!.media!.status).to.equal(undefined);

    const failing = await setup([new Error('connection reset')]);
    const lost = await failing.app.conversations.routeInbound.execute(inbound(failing.connections[0]!, 'wamid-2', 'see this'));
    const [again] = await failing.ports.jobStore.list({ name: INBOUND_MEDIA_JOB });
    for (const attempt of [1, 2]) {
      const err = await failing.app.conversations.fetchInboundMedia!.execute(again!.payload as InboundMediaJobPayload, attempt).catch((e: Error) => e);
      expect(err).to.be.instanceOf(Error);
    }
    await failing.app.conversations.fetchInboundMedia!.execute(again!.payload as InboundMediaJobPayload, 3);
    const failed = (await failing.ports.messages.findById(1, lost.messageId!))!;
    expect(failed.media).to.deep.include({ status: 'failed', error: 'ERR_MEDIA_UNAVAILABLE', url: '' });
    expect(failed.body).to.equal('see this');
    const frames = failing.ports.realtime.events.filter((e) => e.entity === 'appMessage' && e.data.action === 'update');
    expect(frames.map((e) => (e.data as { message: { media: { status: string } } }).message.media.status)).to.deep.equal(['failed']);
    expect(failing.ports.blobs.blobs.size).to.equal(0);
  });

  it('what retrying cannot change fails the file at once: over the size cap, or not the kind the message said', async () => {
    for (const [answer, error] of [
      [{ data: Buffer.alloc(65, 1), contentType: 'image/png' }, 'ERR_MEDIA_TOO_LARGE'],
      [new PayloadTooLargeError('ERR_MEDIA_TOO_LARGE'), 'ERR_MEDIA_TOO_LARGE'],
      [{ data: Buffer.from('<html><script>alert(1)</script>'), contentType: 'text/html' }, 'ERR_MEDIA_TYPE_NOT_ALLOWED'],
      [{ data: Buffer.alloc(0), contentType: 'image/png' }, 'ERR_MEDIA_EMPTY'],
    ] as const) {
      const { ports, app, connections } = await setup([answer as FetchedMedia | Error]);
      const routed = await app.conversations.routeInbound.execute(inbound(connections[0]!, 'wamid-1', ''));
      const [job] = await ports.jobStore.list({ name: INBOUND_MEDIA_JOB });
      await app.conversations.fetchInboundMedia!.execute(job!.payload as InboundMediaJobPayload, 1);
      expect((await ports.messages.findById(1, routed.messageId!))!.media).to.deep.include({ status: 'failed', error });
      expect(ports.blobs.blobs.size).to.equal(0);
    }
    // A size the provider declares over the cap is refused without a download.
    const { ports, app, fetcher, connections } = await setup([{ data: PNG, contentType: 'image/png' }]);
    const routed = await app.conversations.routeInbound.execute(inbound(connections[0]!, 'wamid-1', '', { ...photo, size: 65 }));
    const [job] = await ports.jobStore.list({ name: INBOUND_MEDIA_JOB });
    await app.conversations.fetchInboundMedia!.execute(job!.payload as InboundMediaJobPayload, 1);
    expect((await ports.messages.findById(1, routed.messageId!))!.media).to.deep.include({ status: 'failed', error: 'ERR_MEDIA_TOO_LARGE', size: 65 });
    expect(fetcher!.calls).to.have.length(0);
  });

  it("a job naming another company's message changes nothing: the file is only ever stored under its message's company", async () => {
    const { ports, app, fetcher, connections } = await setup([{ data: PNG, contentType: 'image/png' }], [1, 2]);
    const routed = await app.conversations.routeInbound.execute(inbound(connections[1]!, 'wamid-1', ''));
    const message = (await ports.messages.findById(connections[1]!.companyId, routed.messageId!))!;
    expect(message.companyId).to.not.equal(1);
    await app.conversations.fetchInboundMedia!.execute({ companyId: 1, messageId: message.id, media: photo }, 1);
    expect(fetcher!.calls).to.have.length(0);
    expect((await ports.messages.findById(message.companyId, message.id))!.media!.status).to.equal('pending');
    const [job] = await ports.jobStore.list({ name: INBOUND_MEDIA_JOB });
    await app.conversations.fetchInboundMedia!.execute(job!.payload as InboundMediaJobPayload, 1);
    const stored = (await ports.messages.findById(message.companyId, message.id))!;
    expect(stored.media!.key.startsWith(`public/company-${message.companyId}/media/`)).to.equal(true);
  });

  it('without a fetcher the caption is kept and the file shows as failed; a descriptor that does not hold is no file', async () => {
    const { ports, app, connections } = await setup(null);
    const routed = await app.conversations.routeInbound.execute(inbound(connections[0]!, 'wamid-1', 'caption'));
    expect((await ports.messages.findById(1, routed.messageId!))!.media).to.deep.include({ status: 'failed', error: 'ERR_MEDIA_NOT_SUPPORTED' });
    const bogus = { kind: 'image', mimetype: 'image/png', source: { from: 'url', url: 'file:///etc/passwd' } } as unknown as InboundMedia;
    const other = await app.conversations.routeInbound.execute(inbound(connections[0]!, 'wamid-2', 'text', bogus));
    expect((await ports.messages.findById(1, other.messageId!))!.media).to.equal(null);
  });
});

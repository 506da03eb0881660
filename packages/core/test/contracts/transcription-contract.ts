import { expect } from 'chai';
import type { Companies, Connections, Contacts, Plans, Tickets, Transaction } from '../../src/index.js';
import type { NewTranscriptionCredential } from '../../src/transcription/credential.js';
import type { TranscriptionCredentials, TranscriptionJobs } from '../../src/transcription/ports.js';
import type { TranscriptionJob } from '../../src/transcription/transcription-job.js';
import { connectionFixture, contactDraft, ticketDraft } from './messaging-contract.js';
import { twoCompanies } from './repositories-contract.js';

export interface TranscriptionFixture {
  readonly transcriptionCredentials: TranscriptionCredentials;
  readonly transcriptionJobs: TranscriptionJobs;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly connections: Connections;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
  readonly tx: Transaction;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

export function credentialFixture(companyId: number, name: string, overrides: Partial<NewTranscriptionCredential> = {}): NewTranscriptionCredential {
  return {
    companyId,
    name,
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'whisper-1',
    language: null,
    apiKeySealed: 'sealed-key',
    apiKeyHint: 'abcd',
    isDefault: false,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function jobFixture(companyId: number, ticketId: number, id: string, overrides: Partial<TranscriptionJob> = {}): TranscriptionJob {
  return {
    id,
    companyId,
    ticketId,
    userId: null,
    credentialId: null,
    language: null,
    status: 'queued',
    items: [{ messageId: uuid(900), status: 'pending', error: null }],
    error: null,
    createdAt: T0,
    updatedAt: T0,
    finishedAt: null,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);

/** One suite for every adapter of the TranscriptionCredentials and TranscriptionJobs ports. */
export function describeTranscriptionContract(name: string, make: () => Promise<TranscriptionFixture>) {
  describe(`Transcription repositories contract: ${name}`, () => {
    let r: TranscriptionFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }

    /** A ticket of the company (jobs belong to one). */
    async function ticketOf(companyId: number, n: number): Promise<number> {
      const connection = await r.connections.add(connectionFixture(companyId, `Conn ${n}`));
      const contact = await r.contacts.getOrCreate(contactDraft(companyId, `55119000000${n}`));
      const { ticket } = await r.tickets.getOrCreateActive(ticketDraft({ companyId, contactId: contact.id, connectionId: connection.id, uuid: uuid(800 + n) }));
      return ticket.id;
    }

    it('stores credentials (never a default on the way in), finds them within their company, saves what may change and removes them', async () => {
      await given();
      const added = await r.transcriptionCredentials.add(credentialFixture(c1, 'OpenAI', { isDefault: true, language: 'pt' }));
      expect(added).to.deep.equal({ ...credentialFixture(c1, 'OpenAI', { language: 'pt' }), id: added.id });
      expect(plain(await r.transcriptionCredentials.findById(c1, added.id))).to.deep.equal(added);
      expect(await r.transcriptionCredentials.findById(c2, added.id)).to.equal(null);
      expect(await r.transcriptionCredentials.findById(c1, 2 ** 40)).to.equal(null);
      expect((await r.transcriptionCredentials.findByName(c1, 'oPENai'))!.id).to.equal(added.id);
      expect(await r.transcriptionCredentials.findByName(c2, 'OpenAI')).to.equal(null);
      const edited = {
        ...added,
        companyId: c1,
        name: 'Local',
        provider: 'openai-compatible' as const,
        baseUrl: 'http://whisper.lan/v1',
        model: 'large-v3',
        language: null,
        apiKeySealed: null,
        apiKeyHint: null,
        isDefault: true,
        createdAt: at(9),
        updatedAt: at(5),
      };
      await r.transcriptionCredentials.update(edited);
      expect(plain(await r.transcriptionCredentials.findById(c1, added.id))).to.deep.equal({ ...edited, isDefault: false, createdAt: T0 });
      await r.transcriptionCredentials.update({ ...edited, companyId: c2, name: 'Hijacked' });
      expect((await r.transcriptionCredentials.findById(c1, added.id))!.name).to.equal('Local');
      expect(await r.transcriptionCredentials.remove(c2, added.id)).to.equal(false);
      expect(await r.transcriptionCredentials.remove(c1, added.id)).to.equal(true);
      expect(await r.transcriptionCredentials.remove(c1, added.id)).to.equal(false);
      expect(await r.transcriptionCredentials.findById(c1, added.id)).to.equal(null);
    });

    it('keeps names unique per company without regard to case, on add and on update', async () => {
      await given();
      const a = await r.transcriptionCredentials.add(credentialFixture(c1, 'Whisper'));
      const b = await r.transcriptionCredentials.add(credentialFixture(c1, 'Other'));
      expect(await code(r.transcriptionCredentials.add(credentialFixture(c1, 'WHISPER')))).to.equal('ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE');
      expect(await code(r.transcriptionCredentials.update({ ...b, name: 'whisper' }))).to.equal('ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE');
      expect(await code(r.transcriptionCredentials.add(credentialFixture(c2, 'Whisper')))).to.equal('resolved');
      await r.transcriptionCredentials.update({ ...a, name: 'WHISPER' });
      expect((await r.transcriptionCredentials.findById(c1, a.id))!.name).to.equal('WHISPER');
    });

    it("keeps exactly one default per company, lists it first then by name, and refuses another company's credential", async () => {
      await given();
      const zeta = await r.transcriptionCredentials.add(credentialFixture(c1, 'Zeta'));
      const alpha = await r.transcriptionCredentials.add(credentialFixture(c1, 'Álvaro'));
      const beta = await r.transcriptionCredentials.add(credentialFixture(c1, 'beta'));
      const theirs = await r.transcriptionCredentials.add(credentialFixture(c2, 'Theirs'));
      expect(await r.transcriptionCredentials.findDefault(c1)).to.equal(null);
      expect((await r.transcriptionCredentials.list(c1)).map((c) => c.name)).to.deep.equal(['Álvaro', 'beta', 'Zeta']);
      expect(await r.tx.run(() => r.transcriptionCredentials.setDefault(c1, zeta.id))).to.equal(true);
      expect((await r.transcriptionCredentials.list(c1)).map((c) => [c.name, c.isDefault])).to.deep.equal([
        ['Zeta', true],
        ['Álvaro', false],
        ['beta', false],
      ]);
      expect(await r.tx.run(() => r.transcriptionCredentials.setDefault(c1, theirs.id))).to.equal(false);
      expect(await r.tx.run(() => r.transcriptionCredentials.setDefault(c1, 2 ** 40))).to.equal(false);
      expect((await r.transcriptionCredentials.findDefault(c1))!.id).to.equal(zeta.id);
      await Promise.all([alpha, beta, zeta, alpha, beta].map((c) => r.tx.run(() => r.transcriptionCredentials.setDefault(c1, c.id))));
      expect((await r.transcriptionCredentials.list(c1)).filter((c) => c.isDefault)).to.have.length(1);
      expect(await r.transcriptionCredentials.findDefault(c2)).to.equal(null);
    });

    it("stores jobs with their items, finds them within their company, saves their progress and lists a ticket's active ones oldest first", async () => {
      await given();
      const t1 = await ticketOf(c1, 1);
      const t2 = await ticketOf(c1, 2);
      const credential = await r.transcriptionCredentials.add(credentialFixture(c1, 'OpenAI'));
      const job = jobFixture(c1, t1, uuid(1), { credentialId: credential.id, language: 'pt' });
      await r.transcriptionJobs.add(job);
      expect(plain(await r.transcriptionJobs.findById(c1, uuid(1)))).to.deep.equal(job);
      expect(await r.transcriptionJobs.findById(c2, uuid(1))).to.equal(null);
      expect(await r.transcriptionJobs.findById(c1, 'not-a-uuid')).to.equal(null);
      const progressed: TranscriptionJob = {
        ...job,
        status: 'running',
        items: [{ messageId: uuid(900), status: 'failed', error: 'ERR_TRANSCRIPTION_PROVIDER_REFUSED' }],
        updatedAt: at(2),
      };
      await r.transcriptionJobs.update(progressed);
      expect(plain(await r.transcriptionJobs.findById(c1, uuid(1)))).to.deep.equal(progressed);
      await r.transcriptionJobs.add(jobFixture(c1, t1, uuid(3), { createdAt: at(3) }));
      await r.transcriptionJobs.add(jobFixture(c1, t1, uuid(2), { createdAt: at(1) }));
      await r.transcriptionJobs.add(jobFixture(c1, t1, uuid(4), { status: 'done', finishedAt: at(4) }));
      await r.transcriptionJobs.add(jobFixture(c1, t2, uuid(5)));
      expect((await r.transcriptionJobs.activeForTicket(c1, t1)).map((j) => j.id)).to.deep.equal([uuid(1), uuid(2), uuid(3)]);
      expect(await r.transcriptionJobs.activeForTicket(c2, t1)).to.deep.equal([]);
      await r.transcriptionJobs.update({ ...progressed, status: 'done', finishedAt: at(6), companyId: c2 });
      expect((await r.transcriptionJobs.findById(c1, uuid(1)))!.status).to.equal('running');
    });

    it('forgets finished jobs finished before a moment, up to a limit, and never active ones', async () => {
      await given();
      const t = await ticketOf(c1, 3);
      await r.transcriptionJobs.add(jobFixture(c1, t, uuid(11), { status: 'done', finishedAt: at(1) }));
      await r.transcriptionJobs.add(jobFixture(c1, t, uuid(12), { status: 'failed', finishedAt: at(2) }));
      await r.transcriptionJobs.add(jobFixture(c1, t, uuid(13), { status: 'done', finishedAt: at(10) }));
      await r.transcriptionJobs.add(jobFixture(c1, t, uuid(14), { status: 'running' }));
      expect(await r.transcriptionJobs.removeFinishedBefore(at(5), 1)).to.equal(1);
      expect(await r.transcriptionJobs.findById(c1, uuid(11))).to.equal(null);
      expect(await r.transcriptionJobs.removeFinishedBefore(at(5), 10)).to.equal(1);
      expect(await r.transcriptionJobs.removeFinishedBefore(at(5), 10)).to.equal(0);
      expect((await r.transcriptionJobs.findById(c1, uuid(13)))!.status).to.equal('done');
      expect((await r.transcriptionJobs.findById(c1, uuid(14)))!.status).to.equal('running');
    });
  });
}

import { ConflictError, ServiceUnavailableError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/ports.js';
import type { NewTranscriptionCredential, TranscriptionCredential } from '../transcription/credential.js';
import type { AudioClip, SpeechToText, SpeechToTextEndpoint, Transcript, TranscriptionCredentials, TranscriptionJobs } from '../transcription/ports.js';
import { isActive, type TranscriptionJob } from '../transcription/transcription-job.js';
import { compareFolded, InMemoryTable } from './table.js';

/** Default first, then by folded name, then id: the SQL adapter's order. */
const byDefaultThenName = (a: TranscriptionCredential, b: TranscriptionCredential) =>
  Number(b.isDefault) - Number(a.isDefault) || compareFolded(a.name, b.name) || a.id - b.id;

/** Transcription credentials in memory; names are unique per company without regard to case, as the SQL index keeps them. */
export class InMemoryTranscriptionCredentials implements TranscriptionCredentials {
  readonly table = new InMemoryTable<TranscriptionCredential>();

  private assertFreeName(c: Pick<TranscriptionCredential, 'companyId' | 'name'>, exceptId?: number) {
    const name = c.name.toLowerCase();
    if (this.table.find((r) => r.companyId === c.companyId && r.name.toLowerCase() === name && r.id !== exceptId)) {
      throw new ConflictError('ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE');
    }
  }

  async findById(companyId: number, id: number) {
    return this.table.find((c) => c.id === id && c.companyId === companyId);
  }
  async findDefault(companyId: number) {
    return this.table.find((c) => c.companyId === companyId && c.isDefault);
  }
  async findByName(companyId: number, name: string) {
    const wanted = name.toLowerCase();
    return this.table.find((c) => c.companyId === companyId && c.name.toLowerCase() === wanted);
  }
  async list(companyId: number) {
    return this.table.filter((c) => c.companyId === companyId).sort(byDefaultThenName);
  }
  async add(c: NewTranscriptionCredential) {
    this.assertFreeName(c);
    return this.table.insert({ ...c, isDefault: false });
  }
  async update(c: TranscriptionCredential) {
    const stored = this.table.get(c.id);
    if (!stored || stored.companyId !== c.companyId) return;
    this.assertFreeName(c, c.id);
    this.table.replace({ ...c, companyId: stored.companyId, createdAt: stored.createdAt, isDefault: stored.isDefault });
  }
  async setDefault(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    for (const c of this.table.filter((r) => r.companyId === companyId)) this.table.replace({ ...c, isDefault: c.id === id });
    return true;
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    return true;
  }
}

/** Transcription jobs in memory. */
export class InMemoryTranscriptionJobs implements TranscriptionJobs {
  readonly rows = new Map<string, TranscriptionJob>();

  async findById(companyId: number, id: string) {
    const job = this.rows.get(id);
    return job?.companyId === companyId ? structuredClone(job) : null;
  }
  async add(job: TranscriptionJob) {
    this.rows.set(job.id, structuredClone(job));
  }
  async update(job: TranscriptionJob) {
    const stored = this.rows.get(job.id);
    if (stored && stored.companyId === job.companyId)
      this.rows.set(job.id, { ...structuredClone(job), createdAt: stored.createdAt, ticketId: stored.ticketId });
  }
  async activeForTicket(companyId: number, ticketId: number) {
    return [...this.rows.values()]
      .filter((j) => j.companyId === companyId && j.ticketId === ticketId && isActive(j))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((j) => structuredClone(j));
  }
  async removeFinishedBefore(before: Date, limit: number) {
    const old = [...this.rows.values()].filter((j) => !isActive(j) && j.finishedAt !== null && j.finishedAt < before).slice(0, limit);
    for (const j of old) this.rows.delete(j.id);
    return old.length;
  }
}

/** A request the fake speech-to-text service received. */
export interface SpeechToTextCall {
  readonly endpoint: SpeechToTextEndpoint;
  readonly audio: AudioClip;
  readonly language: string | null;
}

/**
 * A speech-to-text service in memory, for use-case tests and embedding without a network: it
 * records each request and answers with `respond`, which a test replaces (its answers, its
 * failures). Until then it answers as a service that cannot be reached.
 */
export class InMemorySpeechToText implements SpeechToText {
  readonly calls: SpeechToTextCall[] = [];
  respond: (call: SpeechToTextCall) => Promise<Transcript> = async () => {
    throw new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
  };

  async transcribe(endpoint: SpeechToTextEndpoint, audio: AudioClip, options: { readonly language?: string | null } = {}) {
    const call = { endpoint: { ...endpoint }, audio, language: options.language ?? null };
    this.calls.push(call);
    return this.respond(call);
  }
}

/** A NON-secret cipher for tests and embedding (readable by anyone): the production adapter is AES-256-GCM. */
export class InsecureTestCipher implements SecretCipher {
  seal(plain: string, context: string) {
    return `test-sealed:${Buffer.from(context).toString('base64url')}:${Buffer.from(plain).toString('base64url')}`;
  }
  open(sealed: string, context: string) {
    const [tag, boundTo, value] = sealed.split(':');
    if (tag !== 'test-sealed' || boundTo !== Buffer.from(context).toString('base64url') || value === undefined) return null;
    return Buffer.from(value, 'base64url').toString();
  }
}

import { UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import { ConflictError } from '@servicedesk/core';
import type { NewTranscriptionCredential, TranscriptionCredential } from '@servicedesk/core/transcription/credential';
import type { TranscriptionCredentials, TranscriptionJobs } from '@servicedesk/core/transcription/ports';
import type { TranscriptionJob } from '@servicedesk/core/transcription/transcription-job';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder } from '../shared/search.js';
import { TranscriptionCredentialSchema, TranscriptionJobSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A positive int4: anything else names no row (and must not reach an int4 parameter). */
const isId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** A taken name (the unique index on the lowered name) is the domain's conflict. */
function nameTaken(err: unknown): never {
  if (err instanceof UniqueConstraintViolationException && err.message.includes('transcription_credentials_name_key')) {
    throw new ConflictError('ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE');
  }
  throw err;
}

export class MikroOrmTranscriptionCredentials extends MikroOrmRepository implements TranscriptionCredentials {
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(TranscriptionCredentialSchema, { id, companyId }, READ);
  }
  async findDefault(companyId: number) {
    return this.em.findOne(TranscriptionCredentialSchema, { companyId, isDefault: true }, READ);
  }
  async findByName(companyId: number, name: string) {
    const [row] = await this.em.execute<Array<{ id: number }>>('select id from transcription_credentials where company_id = ? and lower(name) = lower(?)', [
      companyId,
      name,
    ]);
    return row ? this.findById(companyId, Number(row.id)) : null;
  }
  async list(companyId: number) {
    return this.em.find(TranscriptionCredentialSchema, { companyId }, { ...READ, orderBy: [{ isDefault: 'desc' }, foldedOrder('name'), { id: 'asc' }] });
  }
  async add(c: NewTranscriptionCredential): Promise<TranscriptionCredential> {
    const row = { ...c, isDefault: false };
    const id = (await this.em.insert(TranscriptionCredentialSchema, row as TranscriptionCredential).catch(nameTaken)) as number;
    return { ...row, id };
  }
  async update(c: TranscriptionCredential) {
    const { name, provider, baseUrl, model, language, apiKeySealed, apiKeyHint, updatedAt } = c;
    await this.em
      .nativeUpdate(
        TranscriptionCredentialSchema,
        { id: c.id, companyId: c.companyId },
        { name, provider, baseUrl, model, language, apiKeySealed, apiKeyHint, updatedAt },
      )
      .catch(nameTaken);
  }
  /**
   * The company's rows are locked first, so two changes of default run one after the other; the old
   * default is cleared before the new one is set (the partial unique index is checked row by row).
   */
  async setDefault(companyId: number, id: number) {
    if (!isId(id)) return false;
    const rows = await this.em.execute<Array<{ id: number }>>('select id from transcription_credentials where company_id = ? order by id for update', [
      companyId,
    ]);
    if (!rows.some((r) => Number(r.id) === id)) return false;
    await this.em.execute('update transcription_credentials set is_default = false where company_id = ? and is_default and id <> ?', [companyId, id]);
    await this.em.execute('update transcription_credentials set is_default = true where company_id = ? and id = ?', [companyId, id]);
    return true;
  }
  async remove(companyId: number, id: number) {
    if (!isId(id)) return false;
    return (await this.em.nativeDelete(TranscriptionCredentialSchema, { id, companyId })) > 0;
  }
}

export class MikroOrmTranscriptionJobs extends MikroOrmRepository implements TranscriptionJobs {
  async findById(companyId: number, id: string) {
    if (!UUID.test(id)) return null;
    return this.em.findOne(TranscriptionJobSchema, { id, companyId }, READ);
  }
  async add(job: TranscriptionJob) {
    await this.em.insert(TranscriptionJobSchema, { ...job });
  }
  async update(job: TranscriptionJob) {
    const { status, items, error, updatedAt, finishedAt } = job;
    await this.em.nativeUpdate(TranscriptionJobSchema, { id: job.id, companyId: job.companyId }, { status, items, error, updatedAt, finishedAt });
  }
  async activeForTicket(companyId: number, ticketId: number) {
    return this.em.find(
      TranscriptionJobSchema,
      { companyId, ticketId, status: { $in: ['queued', 'running'] } },
      { ...READ, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
    );
  }
  async removeFinishedBefore(before: Date, limit: number) {
    const rows = await this.em.execute<Array<{ id: string }>>(
      `delete from transcription_jobs where id in (
         select id from transcription_jobs where finished_at is not null and finished_at < ? order by finished_at limit ?
       ) returning id`,
      [before, limit],
    );
    return rows.length;
  }
}

/** The transcription's repositories over one ORM. */
export const transcriptionRepositories = (orm: MikroORM) => ({
  transcriptionCredentials: new MikroOrmTranscriptionCredentials(orm),
  transcriptionJobs: new MikroOrmTranscriptionJobs(orm),
});

import { ForeignKeyConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '@servicedesk/core';
import type { NewObjstoreConfig, ObjstoreConfig } from '@servicedesk/core/objstore/objstore-config';
import type { BlobLocation, BlobLocations, ObjstoreConfigs } from '@servicedesk/core/objstore/ports';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldedOrder } from '../shared/search.js';
import { BlobLocationSchema, ObjstoreConfigSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** A positive int4: anything else names no row (and must not reach an int4 parameter). */
const isId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/**
 * The blob storage reads these outside units of work too (a script or a test reading usage): there
 * they run on the global EntityManager, which is safe since every query here is native or skips the
 * identity map.
 */
abstract class BlobRoutingRepository extends MikroOrmRepository {
  protected override get em(): SqlEntityManager {
    return this.orm.em.getContext(false) as unknown as SqlEntityManager;
  }
}

export class MikroOrmObjstoreConfigs extends BlobRoutingRepository implements ObjstoreConfigs {
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(ObjstoreConfigSchema, { id, companyId }, READ);
  }
  async findActive(companyId: number) {
    return this.em.findOne(ObjstoreConfigSchema, { companyId, active: true }, READ);
  }
  async list(companyId: number) {
    return this.em.find(ObjstoreConfigSchema, { companyId }, { ...READ, orderBy: [foldedOrder('name'), { id: 'asc' }] });
  }
  async add(c: NewObjstoreConfig): Promise<ObjstoreConfig> {
    const row = { ...c, active: false };
    const id = (await this.em.insert(ObjstoreConfigSchema, row as ObjstoreConfig)) as number;
    return { ...row, id };
  }
  async update(c: ObjstoreConfig) {
    const { name, provider, endpoint, region, bucket, prefix, forcePathStyle, publicBaseUrl, accessKeyId, secretSealed, secretHint, updatedAt } = c;
    await this.em.nativeUpdate(
      ObjstoreConfigSchema,
      { id: c.id, companyId: c.companyId },
      {
        name,
        provider,
        endpoint,
        region,
        bucket,
        prefix,
        forcePathStyle,
        publicBaseUrl,
        accessKeyId,
        secretSealed,
        secretHint,
        updatedAt,
      },
    );
  }
  /** The company's rows are locked first (`for update`): a second activation waits, then sees this one's outcome. */
  async activate(companyId: number, id: number) {
    if (!isId(id)) return [];
    const rows = await this.em.execute<Array<{ id: number; active: boolean }>>(
      'select id, active from objstore_configs where company_id = ? order by id for update',
      [companyId],
    );
    if (!rows.some((r) => r.id === id)) return [];
    const others = rows.filter((r) => r.active && r.id !== id).map((r) => r.id);
    // Two statements: the one-active index is checked row by row, so the others go first.
    await this.em.execute('update objstore_configs set active = false where company_id = ? and active and id <> ?', [companyId, id]);
    await this.em.execute('update objstore_configs set active = true where company_id = ? and id = ?', [companyId, id]);
    return others;
  }
  async deactivate(companyId: number, id: number) {
    if (!isId(id)) return;
    await this.em.nativeUpdate(ObjstoreConfigSchema, { id, companyId }, { active: false });
  }
  /** The blobs' foreign key refuses it while the config holds any: 409, as the use case's own check says. */
  async remove(companyId: number, id: number) {
    if (!isId(id)) return false;
    try {
      return (await this.em.nativeDelete(ObjstoreConfigSchema, { id, companyId })) > 0;
    } catch (err) {
      if (err instanceof ForeignKeyConstraintViolationException) throw new ConflictError('ERR_OBJSTORE_CONFIG_IN_USE');
      throw err;
    }
  }
}

export class MikroOrmBlobLocations extends BlobRoutingRepository implements BlobLocations {
  async find(key: string) {
    return this.em.findOne(BlobLocationSchema, { key }, READ);
  }
  async save(l: BlobLocation) {
    await this.em.execute(
      `insert into blob_locations (blob_key, company_id, config_id, size, created_at) values (?, ?, ?, ?, ?)
        on conflict (blob_key) do update set company_id = excluded.company_id, config_id = excluded.config_id, size = excluded.size, created_at = excluded.created_at`,
      [l.key, l.companyId, l.configId, l.size, l.createdAt],
    );
  }
  async forget(key: string) {
    await this.em.nativeDelete(BlobLocationSchema, { key });
  }
  async usage(prefix: string) {
    // `likeTerm` wraps in %…%: keep its escaping, anchor at the start.
    const pattern = `${likeTerm(prefix).slice(1, -1)}%`;
    const [row] = await this.em.execute<Array<{ total: string | number | null }>>(
      'select coalesce(sum(size), 0) as total from blob_locations where blob_key like ?',
      [pattern],
    );
    return Number(row?.total ?? 0);
  }
  async countOf(companyId: number, configId: number) {
    if (!isId(configId)) return 0;
    return this.em.count(BlobLocationSchema, { companyId, configId });
  }
}

/** The object stores' repositories over one ORM. */
export const objstoreRepositories = (orm: MikroORM) => ({ objstoreConfigs: new MikroOrmObjstoreConfigs(orm), blobLocations: new MikroOrmBlobLocations(orm) });

import { LocatedValidationError, ValidationError } from '../shared/errors.js';
import type { IdGenerator, SecretCipher } from '../shared/ports.js';
import type { ObjstoreConfigInput } from './manage-objstore-configs.js';
import {
  cleanAccessKeyId,
  cleanBucket,
  cleanEndpoint,
  cleanObjstoreName,
  cleanPrefix,
  cleanPublicBaseUrl,
  cleanRegion,
  cleanSecretAccessKey,
  connectionOf,
  defaultPathStyle,
  sealObjstoreSecret,
  type NewObjstoreConfig,
  type ObjstoreConfig,
} from './objstore-config.js';
import type { ObjstoreProbe } from './ports.js';

/** Whether endpoints and public URLs may be plain http (the deployment's `ALLOW_PRIVATE_URLS`). */
export interface ObjstoreSettings {
  readonly allowHttp: boolean;
}

/**
 * A bucket's connection as a config describes it: the input read into a config (endpoints checked
 * against the deployment's settings, the secret sealed) and the connection tested.
 */
export class ObjstoreConnector {
  constructor(
    private readonly deps: {
      readonly cipher: SecretCipher;
      readonly settings: ObjstoreSettings;
      readonly probe: ObjstoreProbe;
      readonly ids: IdGenerator;
    },
  ) {}

  /** A config as the input describes it, over `base` (what is stored, on an edit). */
  apply(companyId: number, input: ObjstoreConfigInput, base: ObjstoreConfig | null): Omit<ObjstoreConfig, 'id' | 'createdAt' | 'updatedAt' | 'active'> {
    const { deps } = this;
    const { allowHttp } = deps.settings;
    const provider = input.provider ?? base?.provider ?? 's3';
    const region = input.region !== undefined || !base ? cleanRegion(provider, input.region) : base.region;
    const endpoint = input.endpoint !== undefined || !base ? cleanEndpoint(provider, region, input.endpoint, allowHttp) : base.endpoint;
    if (input.name === undefined && !base) throw new ValidationError('ERR_OBJSTORE_INVALID_NAME');
    if (input.bucket === undefined && !base) throw new ValidationError('ERR_OBJSTORE_INVALID_BUCKET');
    if (input.accessKeyId === undefined && !base) throw new ValidationError('ERR_OBJSTORE_INVALID_ACCESS_KEY');
    const secret = input.secretAccessKey ? cleanSecretAccessKey(input.secretAccessKey) : null;
    if (secret === null && !base) throw new ValidationError('ERR_OBJSTORE_SECRET_REQUIRED');
    return {
      companyId,
      provider,
      region,
      endpoint,
      name: input.name !== undefined ? cleanObjstoreName(input.name) : base!.name,
      bucket: input.bucket !== undefined ? cleanBucket(input.bucket) : base!.bucket,
      prefix: input.prefix !== undefined || !base ? cleanPrefix(input.prefix) : base.prefix,
      forcePathStyle: input.forcePathStyle ?? base?.forcePathStyle ?? defaultPathStyle(provider),
      publicBaseUrl: input.publicBaseUrl !== undefined || !base ? cleanPublicBaseUrl(input.publicBaseUrl, allowHttp) : base.publicBaseUrl,
      accessKeyId: input.accessKeyId !== undefined ? cleanAccessKeyId(input.accessKeyId) : base!.accessKeyId,
      ...(secret !== null ? sealObjstoreSecret(deps.cipher, companyId, secret) : { secretSealed: base!.secretSealed, secretHint: base!.secretHint }),
    };
  }

  /**
   * Puts, reads and deletes `<prefix>/.healthcheck-<uuid>`: the report when it all worked,
   * 422 `{ error, step }` at the first step that failed.
   */
  async check(config: NewObjstoreConfig) {
    const { deps } = this;
    const report = await deps.probe.check(connectionOf(deps.cipher, config), `.healthcheck-${deps.ids.uuid()}`);
    if (!report.ok) throw new LocatedValidationError(report.error, { step: report.step });
    return { ok: true, latencyMs: report.latencyMs, canWrite: true, canRead: true, canDelete: true } as const;
  }
}

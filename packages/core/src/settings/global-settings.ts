import { assertSuper, type Actor } from '../shared/actor.js';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator } from '../shared/ports.js';
import { acceptImage, storeUpload, uploadSize, type ImageType, type UploadedFile } from '../uploads/image-upload.js';
import { checkSettingValue, PUBLIC_SETTING_ALIASES, settingDefinition, settingsOfScope, type SettingDefinition } from './catalog.js';
import type { SettingView } from './company-settings.js';
import type { Settings } from './ports.js';

/**
 * White-label images are stored public; their setting holds the path under `/public/` (what the
 * lineage's client appends to `<backend>/public/`). Values written before held the whole URL.
 */
function publicPathOf(blobs: BlobStorage, value: string): string {
  if (!value.includes('://')) return value;
  const key = blobs.keyOfPublicUrl(value);
  return key?.startsWith('public/') ? key.slice('public/'.length) : value;
}

async function valueOf(settings: Settings, blobs: BlobStorage, def: SettingDefinition): Promise<SettingView> {
  const value = (await settings.get(null, def.key)) ?? def.defaultValue;
  return { key: def.key, value: def.rule.kind === 'file' && def.public ? publicPathOf(blobs, value) : value };
}

/** Platform-wide settings: readable by every signed-in user, written by super users. */
export class GlobalSettings {
  constructor(
    private readonly deps: {
      settings: Settings;
      blobs: BlobStorage;
      clock: Clock;
      /** Tells the super users a platform setting changed (their screens read it again). */
      announce?: (key: string) => Promise<void>;
    },
  ) {}

  /** `publicOnly` (the login page): only public keys, and the lineage's `allowSignup` names `userCreation`. */
  async get(input: { key: string; publicOnly: boolean }): Promise<SettingView> {
    const key = input.publicOnly ? (PUBLIC_SETTING_ALIASES[input.key] ?? input.key) : input.key;
    const def = settingDefinition(key, 'global');
    if (!def || (input.publicOnly && !def.public)) throw new NotFoundError('ERR_NO_SETTING_FOUND');
    if (!def.public && def.rule.kind === 'file') throw new NotFoundError('ERR_NO_SETTING_FOUND');
    const view = await valueOf(this.deps.settings, this.deps.blobs, def);
    return { key: input.key, value: view.value };
  }

  /** Every public platform setting (white label and sign-up), as the settings page lists them beside the company's. */
  async publicList(): Promise<SettingView[]> {
    const defs = settingsOfScope('global').filter((d) => d.public);
    return Promise.all(defs.map((d) => valueOf(this.deps.settings, this.deps.blobs, d)));
  }

  /** A file setting takes only `""` here, which removes its file. */
  async update(input: { actor: Actor; key: string; value: string }): Promise<SettingView> {
    assertSuper(input.actor);
    const def = settingDefinition(input.key, 'global');
    if (!def) throw new NotFoundError('ERR_NO_SETTING_FOUND');
    const problem = checkSettingValue(def, input.value);
    if (problem) throw new ValidationError(problem);
    const previous = def.rule.kind === 'file' ? await this.deps.settings.get(null, def.key) : null;
    await this.deps.settings.put(null, def.key, input.value, this.deps.clock.now());
    if (previous) {
      const key = !def.public ? previous : previous.includes('://') ? this.deps.blobs.keyOfPublicUrl(previous) : `public/${previous}`;
      if (key) await this.deps.blobs.delete(key);
    }
    await this.deps.announce?.(def.key);
    return { key: def.key, value: input.value };
  }
}

export const MAX_WHITELABEL_BYTES = 2 * 1024 * 1024;
export const MAX_PRIVATE_FILE_BYTES = 5 * 1024 * 1024;

const LOGO_KEYS: Record<string, string> = { light: 'appLogoLight', dark: 'appLogoDark', favicon: 'appLogoFavicon' };

/** White-label images: stored public in blob storage, their path under `/public/` kept in the global setting. */
export class UploadWhitelabelImage {
  constructor(private readonly deps: { settings: Settings; blobs: BlobStorage; ids: IdGenerator; clock: Clock }) {}

  /** `mode` is `Light`, `Dark` or `Favicon` (any case) for logos; `login` for the login background. */
  async execute(input: { actor: Actor; target: 'logo' | 'login'; mode?: string; file: UploadedFile | undefined }): Promise<SettingView> {
    assertSuper(input.actor);
    const key = input.target === 'login' ? 'loginBackground' : LOGO_KEYS[(input.mode ?? '').toLowerCase()];
    if (!key) throw new ValidationError('ERR_INVALID_LOGO_MODE');
    const allowed: ImageType[] = key === 'appLogoFavicon' ? ['png', 'ico'] : ['png', 'jpeg', 'webp'];
    const image = acceptImage(input.file, allowed, MAX_WHITELABEL_BYTES);
    const { settings, blobs, ids, clock } = this.deps;
    const blobKey = `public/platform/${key}-${ids.uuid()}.${image.ext}`;
    await storeUpload(blobs, blobKey, input.file!, image.contentType);
    const previous = await settings.get(null, key);
    const path = blobKey.slice('public/'.length);
    await settings.put(null, key, path, clock.now());
    const previousKey = !previous ? null : previous.includes('://') ? blobs.keyOfPublicUrl(previous) : `public/${previous}`;
    if (previousKey) await blobs.delete(previousKey);
    return { key, value: path };
  }
}

/** Files that must never be public (a payment gateway's certificate): kept under `private/`. */
export class UploadPrivateSettingFile {
  constructor(private readonly deps: { settings: Settings; blobs: BlobStorage; ids: IdGenerator; clock: Clock }) {}

  async execute(input: { actor: Actor; settingKey: string; file: UploadedFile | undefined }): Promise<{ key: string; stored: true; size: number }> {
    assertSuper(input.actor);
    const def = settingDefinition(input.settingKey, 'global');
    if (!def || def.public || def.rule.kind !== 'file') throw new NotFoundError('ERR_NO_SETTING_FOUND');
    const size = input.file ? uploadSize(input.file) : 0;
    if (!input.file || size === 0) throw new ValidationError('ERR_NO_FILE');
    if (size > MAX_PRIVATE_FILE_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
    const blobKey = `private/platform/${def.key}-${this.deps.ids.uuid()}`;
    await storeUpload(this.deps.blobs, blobKey, input.file, 'application/octet-stream');
    const previous = await this.deps.settings.get(null, def.key);
    await this.deps.settings.put(null, def.key, blobKey, this.deps.clock.now());
    if (previous) await this.deps.blobs.delete(previous);
    return { key: def.key, stored: true, size };
  }
}

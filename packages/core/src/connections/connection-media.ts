import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { ConnectionEvent } from './connection-events.js';
import { PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator } from '../shared/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import { toConnectionView, type Connection, type ConnectionView } from './connection.js';
import { visibleConnection } from './connection-rules.js';
import type { Connections } from './ports.js';

export const MAX_GREETING_MEDIA_BYTES = 16 * 1024 * 1024;

/** Types a browser may render inline; anything else is stored as a download so it never runs as a page. */
const INLINE_TYPE = /^(image\/(png|jpeg|gif|webp)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf)$/;

export function safeMediaType(claimed: string): string {
  const type = claimed.split(';')[0]!.trim().toLowerCase();
  return INLINE_TYPE.test(type) ? type : 'application/octet-stream';
}

export function safeFileName(name: string): string {
  return (
    name
      .replace(/[^\w.-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(-80) || 'file'
  );
}

async function replaceMedia(
  deps: { connections: Connections; blobs: BlobStorage; clock: Clock; realtime: RealtimeEvents<ConnectionEvent> },
  connection: Connection,
  key: string | null,
) {
  const previous = connection.greetingMediaKey;
  connection.greetingMediaKey = key;
  connection.updatedAt = deps.clock.now();
  try {
    await deps.connections.update(connection);
  } catch (err) {
    if (key) await deps.blobs.delete(key).catch(() => undefined);
    throw err;
  }
  // Only once the row points elsewhere: a failed delete leaves an orphan, never a dangling key.
  if (previous && previous !== key) await deps.blobs.delete(previous).catch(() => undefined);
  const view = toConnectionView(connection);
  await deps.realtime.publish(connection.companyId, { entity: 'chatapp', data: { action: 'update', chatapp: view } });
  return view;
}

/** An admin attaches the file sent with the greeting (any type, up to 16 MB); it replaces the previous one. */
export class SetGreetingMedia {
  constructor(
    private readonly deps: { connections: Connections; blobs: BlobStorage; ids: IdGenerator; clock: Clock; realtime: RealtimeEvents<ConnectionEvent> },
  ) {}

  async execute(input: { readonly actor: Actor; readonly connectionId: number; readonly file: UploadedFile | undefined }): Promise<ConnectionView> {
    const { connections, blobs, ids } = this.deps;
    assertAdmin(input.actor);
    const connection = await visibleConnection(connections, input.actor, input.connectionId);
    const file = input.file;
    if (!file || uploadSize(file) === 0) throw new ValidationError('ERR_NO_FILE');
    if (uploadSize(file) > MAX_GREETING_MEDIA_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
    const key = `public/company-${connection.companyId}/connections/${ids.uuid()}-${safeFileName(file.filename)}`;
    await storeUpload(blobs, key, file, safeMediaType(file.contentType));
    return replaceMedia(this.deps, connection, key);
  }
}

/** An admin removes the greeting file; removing when there is none is harmless. */
export class RemoveGreetingMedia {
  constructor(private readonly deps: { connections: Connections; blobs: BlobStorage; clock: Clock; realtime: RealtimeEvents<ConnectionEvent> }) {}

  async execute(input: { readonly actor: Actor; readonly connectionId: number }): Promise<ConnectionView> {
    assertAdmin(input.actor);
    const connection = await visibleConnection(this.deps.connections, input.actor, input.connectionId);
    if (!connection.greetingMediaKey) return toConnectionView(connection);
    return replaceMedia(this.deps, connection, null);
  }
}

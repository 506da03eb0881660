import { ForbiddenError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator } from '../shared/ports.js';
import { acceptImage, storeUpload, type UploadedFile } from '../uploads/image-upload.js';
import type { Users } from './ports.js';
import { assertMayGrant, visibleUser } from './user-rules.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { toUserView, type UserView } from './user.js';
import type { UserAnnouncer } from './user-announcer.js';
import type { UserDetails, UserDetailsReader } from './user-details.js';

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

/** The blob key of a profile picture: public, under the path the lineage's client builds from the file name. */
export function avatarKey(companyId: number, fileName: string): string {
  return `public/company${companyId}/user/${fileName}`;
}

async function editableUser(users: Users, actor: Actor, userId: number) {
  if (actor.userId !== userId && !isAdmin(actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
  const user = await visibleUser(users, actor, userId);
  if (actor.userId !== userId) assertMayGrant(actor, user.profile);
  return user;
}

/** Stores a profile picture for a user (self, or an admin for their company's users). */
export class SetUserAvatar {
  constructor(
    private readonly deps: {
      users: Users;
      blobs: BlobStorage;
      ids: IdGenerator;
      clock: Clock;
      announcer: UserAnnouncer;
    },
  ) {}

  async execute(input: { readonly actor: Actor; readonly userId: number; readonly file: UploadedFile | undefined }): Promise<UserDetails> {
    const { users, blobs, ids, clock } = this.deps;
    const user = await editableUser(users, input.actor, input.userId);
    const image = acceptImage(input.file, ['png', 'jpeg', 'webp', 'gif'], MAX_AVATAR_BYTES);
    // Where the lineage's client looks for it: `/public/company<id>/user/<profileImage>`.
    const fileName = `${user.id}-${ids.uuid()}.${image.ext}`;
    await storeUpload(blobs, avatarKey(user.companyId, fileName), input.file!, image.contentType);
    const previous = user.profileImage;
    user.profileImage = fileName;
    user.updatedAt = clock.now();
    await users.update(user);
    // A picture stored before file names were kept is a public URL.
    const previousKey = !previous ? null : previous.includes('/') ? blobs.keyOfPublicUrl(previous) : avatarKey(user.companyId, previous);
    if (previousKey) await blobs.delete(previousKey);
    return this.deps.announcer.updated(user);
  }
}

export const TICKETS_MANAGER_WIDTHS = { min: 300, max: 1200, wide: 550, narrow: 400 } as const;

/**
 * The width of the operator's ticket list (the lineage's `toggleChangeWidht`): sets the given
 * width, or toggles between the wide and the narrow layout when none is given.
 */
export class SetTicketsManagerWidth {
  constructor(private readonly deps: { users: Users; clock: Clock }) {}

  async execute(input: { readonly actor: Actor; readonly userId: number; readonly width?: number }): Promise<UserView> {
    const user = await editableUser(this.deps.users, input.actor, input.userId);
    const { min, max, wide, narrow } = TICKETS_MANAGER_WIDTHS;
    if (input.width !== undefined && (!Number.isInteger(input.width) || input.width < min || input.width > max)) {
      throw new ValidationError('ERR_INVALID_WIDTH');
    }
    user.defaultTicketsManagerWidth = input.width ?? (user.defaultTicketsManagerWidth === wide ? narrow : wide);
    user.updatedAt = this.deps.clock.now();
    await this.deps.users.update(user);
    return toUserView(user);
  }
}

/** `GET /auth/me`: the caller as the API shows users. */
export class GetCurrentUser {
  constructor(private readonly deps: { users: Users; details: UserDetailsReader }) {}

  async execute(input: { readonly actor: Actor }): Promise<UserDetails> {
    return this.deps.details.one(await visibleUser(this.deps.users, input.actor, input.actor.userId));
  }
}

import type { Actor } from '../shared/actor.js';
import { PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import type { CampaignView } from './campaign-view.js';
import { editableCampaign, type MediaDeps } from './manage-campaigns.js';

/** Campaign attachments up to this size (the channel runtime's media limit). */
export const MAX_CAMPAIGN_MEDIA_BYTES = 16 * 1024 * 1024;

/** `POST /campaigns/:id/media-upload`: the one attachment of every variant, replacing an earlier one. */
export class SetCampaignMedia {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number; readonly file: UploadedFile | undefined }): Promise<CampaignView> {
    const { campaigns, blobs, ids, clock } = this.deps;
    const campaign = await editableCampaign(this.deps, input.actor, input.campaignId);
    const file = input.file;
    if (!file) throw new ValidationError('ERR_NO_FILE');
    if (uploadSize(file) === 0) throw new ValidationError('ERR_EMPTY_FILE');
    if (uploadSize(file) > MAX_CAMPAIGN_MEDIA_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
    const name = safeFileName(file.filename);
    const key = `public/company-${campaign.companyId}/campaigns/${campaign.id}/${ids.uuid()}-${name}`;
    const contentType = safeMediaType(file.contentType);
    await storeUpload(blobs, key, file, contentType);
    await campaigns.update({
      ...campaign,
      media: { path: key, name: file.filename.slice(0, 255) || name, contentType, size: uploadSize(file) },
      updatedAt: clock.now(),
    });
    if (campaign.media) await blobs.delete(campaign.media.path);
    return this.deps.announcer.edited(campaign);
  }
}

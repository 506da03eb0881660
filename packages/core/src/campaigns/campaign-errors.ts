import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { ErrorCode } from '../shared/error-codes.js';

/** The catalog codes the campaign domain throws. */
export type CampaignErrorCode = Extract<
  ErrorCode,
  | 'ERR_NO_CAMPAIGN_FOUND'
  | 'ERR_CAMPAIGN_STATUS_CONFLICT'
  | 'ERR_CAMPAIGN_NO_AUDIENCE'
  | 'ERR_CAMPAIGN_NO_MESSAGE'
  | 'ERR_CAMPAIGN_NO_CONNECTION'
  | 'ERR_CAMPAIGN_TEMPLATE_REQUIRED'
  | 'ERR_INVALID_CAMPAIGN_SETTING'
  | 'ERR_CAMPAIGN_INVALID_NAME'
  | 'ERR_CAMPAIGN_INVALID_SCHEDULE'
  | 'ERR_CAMPAIGN_MESSAGE_TOO_LONG'
>;

export function campaignNotFound(): NotFoundError {
  return new NotFoundError('ERR_NO_CAMPAIGN_FOUND');
}

export function campaignStatusConflict(details: { status: string; action: string }): ConflictError {
  return new ConflictError('ERR_CAMPAIGN_STATUS_CONFLICT', details);
}

export function campaignInvalid(
  code: Exclude<CampaignErrorCode, 'ERR_NO_CAMPAIGN_FOUND' | 'ERR_CAMPAIGN_STATUS_CONFLICT'>,
  details?: Record<string, unknown>,
): ValidationError {
  return new ValidationError(code, details);
}

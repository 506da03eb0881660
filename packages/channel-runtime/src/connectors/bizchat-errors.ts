import { bizchatFailureReason } from '@servicedesk/core';

/** A Graph API error answer: `{ error: { message, type, code, error_data: { details }, fbtrace_id } }`. */
export interface GraphErrorBody {
  error?: { message?: string; code?: number; error_data?: { details?: string } };
}

/** Throttling (130429 throughput, 131056 pair rate, 80007 account rate) and outages: worth retrying until the send's deadline. */
const TRANSIENT = new Set([130429, 131056, 80007, 131000, 2, 1]);

/** Why the provider refused a send: an `ERR_` reason, and whether a retry may succeed. */
export function bizchatFailure(httpStatus: number, body: GraphErrorBody): { reason: string; retry: boolean } {
  const code = body.error?.code;
  const text = body.error?.error_data?.details ?? body.error?.message ?? 'refused';
  if (httpStatus >= 500 || httpStatus === 429 || (code !== undefined && TRANSIENT.has(code))) return { reason: `${code ?? httpStatus} ${text}`, retry: true };
  return { reason: bizchatFailureReason(code ?? httpStatus, text), retry: false };
}

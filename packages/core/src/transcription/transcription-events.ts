import type { RealtimeEventOf } from '../realtime/ports.js';
import type { TranscriptionJobView } from './transcription-job.js';

/**
 * `company-<id>-transcription` `update`: a background transcription job was queued, started, moved on
 * (a message done or failed) or ended, with the job's status. Each transcribed message also goes out
 * as an `appMessage` `update` carrying its `transcription`. To those who may read the ticket.
 */
export type TranscriptionEvent = RealtimeEventOf<'transcription', { readonly action: 'update'; readonly job: TranscriptionJobView }>;

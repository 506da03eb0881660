import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, must, type Schema } from '../api/client.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { type TranscriptionJob as Job, transcriptionJobKey } from '../realtime/transcription-frames.js';
import { useServices } from '../services.js';
import { codeOf, errorText } from '../ui/errors.js';
import { TRANSCRIBE_NS, transcribeStrings } from './transcribe-strings.js';
import './transcribe.css';

type Message = Schema<'Message'>;
type Credential = Schema<'TranscriptionCredential'>;

/**
 * The transcription credentials' query keys. No frame announces a credential's change: the
 * transcription screen refetches them after its own saves, and the conversation's button reads the
 * default again after a minute.
 */
export const transcriptionKeys = {
  all: ['transcriptionCredentials'] as const,
  list: ['transcriptionCredentials', 'list'] as const,
  default: ['transcriptionCredentials', 'default'] as const,
};

/** An audio message whose file is stored: what `POST /transcription/:ticketId` can transcribe. */
export const isTranscribable = (m: Message) => m.mediaType === 'audio' && !!m.mediaUrl && !m.media?.status && !m.isDeleted;

/**
 * Under an audio message: its transcript when it has one (stored on the message, so it comes with
 * the page and with the message's `update` frame), else "Transcribe" (`POST /transcription/:ticketId`
 * with the message), its progress in a status region, then the text, or the refusal in words with
 * "Try again". Not offered when the company's plan has no AI (the default credential's 403).
 */
export function Transcript({ message: m }: { message: Message }) {
  const { t } = useScreenStrings(TRANSCRIBE_NS, transcribeStrings);
  const { api, queryClient: client } = useServices();
  // Whether to offer it: a plan without AI answers 403; no credential (404) still offers it, so the
  // operator reads that an administrator must add one.
  const offered = useQuery({
    queryKey: transcriptionKeys.default,
    queryFn: async (): Promise<Credential | null> => {
      try {
        return await must(api.GET('/transcription-credentials/default'));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    retry: false,
    staleTime: 60_000,
  });
  const run = useMutation({
    mutationFn: () =>
      must(
        api.POST('/transcription/{ticketId}', {
          params: { path: { ticketId: m.ticketId } },
          body: { messageId: m.id },
        }),
      ),
  });
  const outcome = run.data?.transcriptions.find((o) => o.messageId === m.id);
  // A long audio goes to a background job: its `transcription` frames tell how this message fared.
  const jobId = outcome?.jobId ?? null;
  const job = useQuery({
    queryKey: transcriptionJobKey(jobId ?? ''),
    queryFn: () => client.getQueryData<Job>(transcriptionJobKey(jobId ?? '')) ?? null,
    enabled: false,
    initialData: run.data?.job?.id === jobId ? run.data?.job : undefined,
  });
  const item = jobId ? job.data?.items.find((i) => i.messageId === m.id) : undefined;
  const text = m.transcription ?? (outcome?.status === 'done' ? outcome.text : null);

  if (text !== null && text !== undefined) {
    return (
      <figure className="transcript" data-testid="transcript">
        <figcaption>{t('transcript')}</figcaption>
        {text.trim() ? <blockquote>{text}</blockquote> : <p className="muted">{t('empty')}</p>}
      </figure>
    );
  }
  if (offered.error && codeOf(offered.error) === 'ERR_PLAN_FEATURE_DISABLED') return null;

  const failedCode = outcome?.status === 'failed' ? outcome.error : item?.status === 'failed' ? (item.error ?? job.data?.error) : null;
  const failure = run.error ? errorText(t, run.error) : failedCode !== null && failedCode !== undefined ? errorText(t, new ApiError(422, failedCode)) : null;
  const waiting = run.isPending || ((outcome?.status === 'queued' || outcome?.status === 'running') && !failure && item?.status !== 'done');
  return (
    <div className="transcribe" data-testid="transcribe">
      <p role="status" className="muted small-text" aria-live="polite">
        {run.isPending ? t('transcribing') : waiting ? t('queued') : ''}
      </p>
      {failure && (
        <p className="form-error" role="alert" data-testid="transcribe-error">
          {t('failed', { reason: failure })}
        </p>
      )}
      {!waiting && (
        <button type="button" className="small" aria-label={failure ? undefined : t('transcribeLabel')} onClick={() => run.mutate()}>
          {failure ? t('retry') : t('transcribe')}
        </button>
      )}
    </div>
  );
}

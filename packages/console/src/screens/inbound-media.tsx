import type { Schema } from '../api/client.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { PaperclipIcon } from '../ui/icons.js';
import { INBOUND_MEDIA_NS, inboundMediaStrings } from './inbound-media-strings.js';

type Media = NonNullable<Schema<'Message'>['media']>;

/**
 * A contact's file not stored yet: "Receiving…" while the backend fetches it from the channel (the
 * message's `update` frame then brings its URL and the ordinary media takes its place), or why it
 * could not be kept. Null for a stored file.
 */
export function InboundMediaState({ media }: { media: Media | null }) {
  const { t } = useScreenStrings(INBOUND_MEDIA_NS, inboundMediaStrings);
  if (!media?.status) return null;
  if (media.status === 'pending')
    return (
      <p className="file media-pending" role="status" data-testid="media-pending">
        <PaperclipIcon /> {t('receiving', { name: media.filename })}
      </p>
    );
  const code = media.error && /^ERR_MEDIA_[A-Z_]+$/.test(media.error) ? media.error : null;
  const reason = code ? t(`codes.${code}`, { defaultValue: media.error }) : media.error || t('unknown');
  return (
    <p className="form-error media-failed" role="note" data-testid="media-failed">
      {t('failed', { name: media.filename, reason })}
    </p>
  );
}

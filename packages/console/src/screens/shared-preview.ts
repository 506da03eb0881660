import { parseLocationBody, parseVcards } from '@servicedesk/core/connections/shared-content';
import type { Schema } from '../api/client.js';

/**
 * A shared location or contact cards in a few words, as a reply quoting them and a desktop
 * notification show them (the body otherwise).
 */
export function sharedPreview(m: Pick<Schema<'Message'>, 'mediaType' | 'body'>): string {
  if (m.mediaType === 'locationMessage') {
    const l = parseLocationBody(m.body);
    if (l) return `📍 ${l.name ?? l.address ?? `${l.latitude}, ${l.longitude}`}`;
  }
  if (m.mediaType === 'contactMessage') {
    const cards = parseVcards(m.body);
    if (cards.length) return `👤 ${cards.map((c) => c.name).join(', ')}`;
  }
  return m.body;
}

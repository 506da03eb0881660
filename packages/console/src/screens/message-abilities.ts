import type { Schema } from '../api/client.js';

type Message = Schema<'Message'>;

/**
 * What the routes let `user` do with `m`, so that the menu offers nothing the server refuses:
 * - edit (`POST /messages/edit/:id`) and delete (`DELETE /messages/:id`): admins any message the
 *   company sent, users their own, not already deleted; a note changes in place, a sent message
 *   also at the provider, which only a chat-application session can, once it left (not failed, not
 *   still on its way). Edit only a text (not a file, a location or contact cards). A failed send is
 *   only flagged when deleted.
 * - forward (`POST /message/forward`): anyone who sees it, neither a note nor deleted, with a text or a file.
 */
export function messageAbilities(
  m: Message,
  user: { readonly id: number; readonly profile: string } | undefined,
  channel: 'chatapp' | 'socialnet' | 'bizchat' | null | undefined,
): { edit: boolean; remove: boolean; forward: boolean } {
  const own = !!user && m.fromMe && !m.isDeleted && (user.profile === 'admin' || m.userId === user.id);
  const sentOnSession = channel === 'chatapp' && !!m.providerMessageId && m.status !== 'failed';
  const shared = m.mediaType === 'locationMessage' || m.mediaType === 'contactMessage';
  const text = !m.mediaUrl && !m.media?.status && !shared && m.body.trim() !== '';
  return {
    edit: own && text && (m.isPrivate || sentOnSession),
    remove: own && (m.isPrivate || m.status === 'failed' || sentOnSession),
    forward: !m.isPrivate && !m.isDeleted && (m.body.trim() !== '' || !!m.mediaUrl),
  };
}

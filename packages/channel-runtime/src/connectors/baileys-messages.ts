import type { ContactPresenceState, DeliveryStatus, OutboundContent } from '@servicedesk/core';
import { normalizeMessageContent, proto, type AnyMessageContent, type MessageUserReceipt, type WAMessage } from 'baileys';
import {
  cleanContacts,
  cleanLocation,
  parseVcards,
  sharedSummary,
  type SharedContact,
  type SharedLocation,
} from '@servicedesk/core/connections/shared-content';
import type { InboundFromProvider } from '../ports.js';
import { mediaOf } from './baileys-inbound-media.js';

/*
 * Pure mappings between Baileys' message shapes and the runtime's. Kept apart from the
 * connector so they read (and are tested) without a socket.
 */

const USER_SERVER = '@s.whatsapp.net';

/** A number (any punctuation) becomes a user jid; anything already a jid (a group's `…@g.us`) is kept. */
export function toJid(to: string): string {
  return to.includes('@') ? to : `${to.replace(/\D/g, '')}${USER_SERVER}`;
}

/** The user part of a jid without the device suffix: `5511…:3@s.whatsapp.net` → `5511…`. */
function userOf(jid: string): string {
  return jid.split('@')[0]!.split(':')[0]!;
}

/**
 * Baileys 7 may address a contact by its LID (`…@lid`, not a phone number) and carry the phone
 * number jid as the `…Alt` field: prefer whichever of the two is the phone number.
 */
function phoneJid(jid: string | null | undefined, alt: string | null | undefined): string | undefined {
  if (jid?.endsWith(USER_SERVER)) return jid;
  if (alt?.endsWith(USER_SERVER)) return alt;
  return jid ?? alt ?? undefined;
}

function seconds(t: WAMessage['messageTimestamp']): number | undefined {
  if (t === null || t === undefined) return undefined;
  return typeof t === 'number' ? t : Number(t.toString());
}

/** The text a contact wrote: the body, a media caption, or the chosen button or list row. */
export function textOf(message: proto.IMessage | null | undefined): string | undefined {
  const m = normalizeMessageContent(message);
  if (!m) return undefined;
  const text =
    m.conversation ||
    m.extendedTextMessage?.text ||
    m.imageMessage?.caption ||
    m.videoMessage?.caption ||
    m.documentMessage?.caption ||
    m.buttonsResponseMessage?.selectedDisplayText ||
    m.buttonsResponseMessage?.selectedButtonId ||
    m.listResponseMessage?.title ||
    m.listResponseMessage?.singleSelectReply?.selectedRowId ||
    m.templateButtonReplyMessage?.selectedDisplayText ||
    m.templateButtonReplyMessage?.selectedId;
  return text || undefined;
}

/** A contact card as Baileys gives it: the name it shows (else the vCard's), and the numbers of its vCard. */
function cardOf(card: proto.Message.IContactMessage): { name?: string; numbers: readonly string[]; vcard?: string } {
  const parsed = card.vcard ? parseVcards(card.vcard)[0] : undefined;
  return { name: card.displayName || parsed?.name, numbers: parsed?.numbers ?? [], ...(card.vcard ? { vcard: card.vcard } : {}) };
}

/**
 * A place (`locationMessage`, or `liveLocationMessage` named by its caption) or contact cards
 * (`contactMessage`, `contactsArrayMessage`) a contact shared, checked, with the words that say it
 * as the body; undefined for any other message, and for one whose coordinates or cards do not hold.
 */
export function sharedOf(
  message: proto.IMessage | null | undefined,
): { body: string; location: SharedLocation } | { body: string; contacts: SharedContact[] } | undefined {
  const m = normalizeMessageContent(message);
  if (!m) return undefined;
  const place = m.locationMessage ?? m.liveLocationMessage;
  if (place) {
    const location = cleanLocation({
      latitude: place.degreesLatitude,
      longitude: place.degreesLongitude,
      name: m.locationMessage ? m.locationMessage.name : m.liveLocationMessage?.caption,
      address: m.locationMessage?.address,
      url: m.locationMessage?.url,
    });
    return location ? { body: sharedSummary({ location }), location } : undefined;
  }
  const cards = m.contactMessage ? [m.contactMessage] : (m.contactsArrayMessage?.contacts ?? []);
  const contacts = cleanContacts(cards.map(cardOf));
  return contacts ? { body: sharedSummary({ contacts }), contacts } : undefined;
}

/**
 * A message a contact sent, as the runtime reports it; undefined for our own messages, status
 * broadcasts and newsletters, and messages with neither text nor a file (reactions, protocol
 * messages): those are not forwarded. A shared location or contact cards come with their words as
 * the body (`sharedOf`); a file with its caption (or none) as the body and, as `media`, where the
 * backend fetches it (`mediaOf`: never the bytes).
 */
export function inboundOf(msg: WAMessage, now: () => Date = () => new Date()): InboundFromProvider | undefined {
  const { key } = msg;
  if (key.fromMe || !key.id || !key.remoteJid) return undefined;
  if (key.remoteJid === 'status@broadcast' || key.remoteJid.endsWith('@newsletter') || key.remoteJid.endsWith('@broadcast')) return undefined;
  const text = textOf(msg.message);
  const shared = text === undefined ? sharedOf(msg.message) : undefined;
  // A file (image, video, voice note, document, sticker) comes with its caption as the body, or none.
  const media = shared ? undefined : mediaOf(msg.message);
  const body = text ?? shared?.body ?? (media ? '' : undefined);
  if (body === undefined) return undefined;
  const isGroup = key.remoteJid.endsWith('@g.us');
  const sender = isGroup ? phoneJid(key.participant, key.participantAlt) : phoneJid(key.remoteJid, key.remoteJidAlt);
  // In a group the conversation (and so `from`) is the group; the participant only names the sender.
  const from = isGroup ? userOf(key.remoteJid) : userOf(sender ?? key.remoteJid).replace(/\D/g, '');
  const at = seconds(msg.messageTimestamp);
  return {
    providerMessageId: key.id,
    from,
    senderName: msg.pushName || (sender ? userOf(sender) : from),
    body,
    isGroup,
    at: at ? new Date(at * 1000) : now(),
    ...(shared && 'location' in shared ? { location: shared.location } : {}),
    ...(shared && 'contacts' in shared ? { contacts: shared.contacts } : {}),
    ...(media ? { media } : {}),
  };
}

/** A contact's presence as WhatsApp reports it, as the runtime reports it: typing, recording, or stopped (going offline too); `available` says nothing about typing. */
export function presenceStateOf(presence: string | undefined): ContactPresenceState | undefined {
  if (presence === 'composing' || presence === 'recording' || presence === 'paused') return presence;
  if (presence === 'unavailable') return 'paused';
  return undefined;
}

/** Baileys' `WebMessageInfo.Status` of one of our messages, as a delivery status (pending and error are not reported). */
export function deliveryOfStatus(status: proto.WebMessageInfo.Status | null | undefined): DeliveryStatus | undefined {
  switch (status) {
    case proto.WebMessageInfo.Status.SERVER_ACK:
      return 'sent';
    case proto.WebMessageInfo.Status.DELIVERY_ACK:
      return 'delivered';
    case proto.WebMessageInfo.Status.READ:
      return 'read';
    case proto.WebMessageInfo.Status.PLAYED:
      return 'played';
    default:
      return undefined;
  }
}

/** A per-recipient receipt (groups), by the furthest timestamp it carries. */
export function deliveryOfReceipt(receipt: MessageUserReceipt): DeliveryStatus | undefined {
  if (receipt.playedTimestamp) return 'played';
  if (receipt.readTimestamp) return 'read';
  if (receipt.receiptTimestamp) return 'delivered';
  return undefined;
}

/**
 * Button and list messages are sent as numbered text: WhatsApp stopped rendering Baileys'
 * `buttonsMessage` / `listMessage` for most clients (they arrive blank or not at all), and the
 * native-flow replacements are for the official Business API. The contact answers with the
 * number or the text, which arrives as an ordinary inbound message.
 */
export function numberedText(content: OutboundContent): string {
  const lines = content.body ? [content.body] : [];
  if (content.buttons?.length) {
    lines.push('', ...content.buttons.map((b, i) => `${i + 1}. ${b.text}`));
  }
  if (content.list) {
    let n = 0;
    if (content.list.title) lines.push('', content.list.title);
    for (const section of content.list.sections) {
      lines.push('');
      if (section.title) lines.push(`*${section.title}*`);
      for (const row of section.rows) lines.push(`${++n}. ${row.title}${row.description ? ` - ${row.description}` : ''}`);
    }
  }
  return lines.join('\n');
}

/**
 * What to hand to `sendMessage`: text, or the media by URL (Baileys downloads it) as image, video,
 * audio or document by its content type. Audio carries no caption in WhatsApp: its text, if any,
 * is answered as a second message.
 */
export function outboundOf(content: OutboundContent): { message: AnyMessageContent; followUpText?: string } {
  const media = content.media;
  if (!media) return { message: { text: numberedText(content) } };
  const caption = content.body || undefined;
  const type = media.contentType.toLowerCase();
  const url = { url: media.url };
  if (type.startsWith('image/')) return { message: { image: url, caption, mimetype: media.contentType } };
  if (type.startsWith('video/')) return { message: { video: url, caption, mimetype: media.contentType } };
  if (type.startsWith('audio/')) return { message: { audio: url, mimetype: media.contentType }, ...(caption ? { followUpText: caption } : {}) };
  return { message: { document: url, mimetype: media.contentType, fileName: media.filename, caption } };
}

/** The status code Baileys puts on the error that closed a socket (a Boom's `output.statusCode`). */
export function disconnectCode(error: unknown): number | undefined {
  const code = (error as { output?: { statusCode?: unknown } } | undefined)?.output?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/*
 * A location or contact cards a contact shares: what the connectors report of them, how they are
 * checked where events are accepted, and how they are stored. The message keeps them in its body
 * in the shapes the lineage client reads (`mediaType` `locationMessage`: `image|link|description`;
 * `contactMessage`: the vCard text), and the console reads them back from there. Pure functions,
 * without dependencies: the console imports this file as is.
 */

/** A place a contact shared: coordinates in decimal degrees, with what the provider says of it. */
export interface SharedLocation {
  readonly latitude: number;
  readonly longitude: number;
  readonly name?: string;
  readonly address?: string;
  /** A page about the place (http or https), when the provider gives one. */
  readonly url?: string;
}

/** A contact card a contact shared: the name it shows, its numbers (digits), and the vCard as sent. */
export interface SharedContact {
  readonly name: string;
  readonly numbers: readonly string[];
  readonly vcard?: string;
}

/** What a stored message is besides text or a file; absent or null: an ordinary message. */
export type SharedKind = 'location' | 'contact';

/** The most kept of what a contact shares; anything longer is cut, anything more dropped. */
export const SHARED_LIMITS = {
  /** Characters of a name or an address. */
  text: 300,
  /** Characters of a place's page address. */
  url: 1000,
  /** Cards in one message. */
  contacts: 20,
  /** Numbers of one card. */
  numbers: 10,
  /** Characters of one card's vCard (a longer one is rebuilt from the name and numbers). */
  vcard: 4096,
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** At most `max` characters (never half of a surrogate pair), without control characters but line breaks; empty: undefined. */
function cleanText(v: unknown, max: number, oneLine = false): string | undefined {
  if (typeof v !== 'string') return undefined;
  let s = v.replace(/\r\n?/g, '\n');
  s = oneLine ? s.replace(/\s*\n\s*/g, ' ') : s;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  s = s.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '').trim();
  if (s.length > max) s = Array.from(s).slice(0, max).join('').trim();
  // An unpaired surrogate (a cut or a broken string) is dropped.
  s = s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '');
  return s || undefined;
}

/** A finite number, or a string that is one (the Cloud API documents coordinates as strings when sending). */
function coordinate(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

function httpUrl(v: unknown): string | undefined {
  const s = cleanText(v, SHARED_LIMITS.url, true);
  if (!s) return undefined;
  try {
    const url = new URL(s);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** A location as received, checked: latitude in [-90, 90], longitude in [-180, 180], texts cut; undefined when it is none. */
export function cleanLocation(raw: unknown): SharedLocation | undefined {
  if (!isRecord(raw)) return undefined;
  const latitude = coordinate(raw.latitude);
  const longitude = coordinate(raw.longitude);
  if (latitude === undefined || longitude === undefined || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  const name = cleanText(raw.name, SHARED_LIMITS.text, true);
  const address = cleanText(raw.address, SHARED_LIMITS.text, true);
  const url = httpUrl(raw.url);
  return { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}), ...(url ? { url } : {}) };
}

/** The digits of a phone number, 3 to 20 of them; undefined otherwise. */
function digitsOf(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 60) return undefined;
  const digits = v.replace(/\D/g, '');
  return digits.length >= 3 && digits.length <= 20 ? digits : undefined;
}

/** Contact cards as received, checked: at most 20, each with a name (else its first number) and up to 10 numbers; undefined when none is left. */
export function cleanContacts(raw: unknown): SharedContact[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const cards: SharedContact[] = [];
  for (const c of raw.slice(0, SHARED_LIMITS.contacts)) {
    if (!isRecord(c)) continue;
    const numbers = [...new Set((Array.isArray(c.numbers) ? c.numbers : []).map(digitsOf).filter((n): n is string => !!n))].slice(0, SHARED_LIMITS.numbers);
    const name = cleanText(c.name, SHARED_LIMITS.text, true) ?? numbers[0];
    if (!name) continue;
    const vcard =
      typeof c.vcard === 'string' && c.vcard.length <= SHARED_LIMITS.vcard && /BEGIN:VCARD/i.test(c.vcard)
        ? cleanText(c.vcard, SHARED_LIMITS.vcard)
        : undefined;
    cards.push({ name, numbers, ...(vcard ? { vcard } : {}) });
  }
  return cards.length ? cards : undefined;
}

/** An event with its location and contact cards checked (each dropped when nothing of it holds). */
export function cleanSharedContent<T extends { readonly location?: unknown; readonly contacts?: unknown }>(event: T): T {
  const { location, contacts, ...rest } = event;
  const cleanLoc = cleanLocation(location);
  const cleanCards = cleanContacts(contacts);
  return { ...rest, ...(cleanLoc ? { location: cleanLoc } : {}), ...(cleanCards ? { contacts: cleanCards } : {}) } as unknown as T;
}

/** Coordinates as written in links: at most 6 decimals (about 10 cm). */
const degrees = (n: number) => String(Number(n.toFixed(6)));

/** The place on OpenStreetMap's site, its marker at the coordinates. */
export function mapLink(latitude: number, longitude: number): string {
  const lat = degrees(latitude);
  const lng = degrees(longitude);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;
}

/**
 * A location as the lineage client reads a `locationMessage` body: `image|link|description`, here
 * with no image, the map link, and the name then the address on the next line (either may be
 * empty); the place's page, when there is one, follows as a fourth part the lineage ignores.
 */
export function locationBody(location: SharedLocation): string {
  const plain = (s: string | undefined) => (s ?? '').replace(/\|/g, '/').replace(/\n/g, ' ');
  const description = location.address ? `${plain(location.name)}\n${plain(location.address)}` : plain(location.name);
  const parts = ['', mapLink(location.latitude, location.longitude), description];
  if (location.url) parts.push(location.url.replace(/\|/g, '%7C'));
  return parts.join('|');
}

/** A `locationMessage` body read back (see `locationBody`); null when it holds no valid coordinates. */
export function parseLocationBody(body: string): (SharedLocation & { readonly link: string }) | null {
  const parts = body.split('|');
  if (parts.length < 2) return null;
  const link = parts[1]!.trim();
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  // Ours carry `mlat`/`mlon`; a map link of another shape, `q=<lat>,<lng>`.
  const q = (url.searchParams.get('q') ?? '').split(',');
  const [name, ...address] = (parts[2] ?? '').split('\n');
  const location = cleanLocation({
    latitude: url.searchParams.get('mlat') ?? q[0],
    longitude: url.searchParams.get('mlon') ?? q[1],
    name,
    address: address.join(' '),
    url: parts[3],
  });
  return location ? { ...location, link } : null;
}

/** A vCard value with its special characters escaped (RFC 6350). */
const escapeVcard = (s: string) => s.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/;/g, '\\;').replace(/\n/g, '\\n');
const unescapeVcard = (s: string) => s.replace(/\\([nN]|[\\,;:])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

/** A vCard 3.0 of a card: its name, and each number as a mobile with its WhatsApp id. */
export function vcardOf(contact: Pick<SharedContact, 'name' | 'numbers'>): string {
  const name = escapeVcard(contact.name);
  return ['BEGIN:VCARD', 'VERSION:3.0', `N:;${name};;;`, `FN:${name}`, ...contact.numbers.map((n) => `TEL;type=CELL;waid=${n}:+${n}`), 'END:VCARD'].join('\n');
}

/** What a `contactMessage` body holds: each card's vCard (as sent, else built), one after the other. */
export function contactsBody(contacts: readonly SharedContact[]): string {
  return contacts.map((c) => c.vcard ?? vcardOf(c)).join('\n');
}

/**
 * The cards of a vCard text (one or several): each one's name (`FN`, else `N`) and numbers (the
 * WhatsApp id a `TEL` carries as `waid`, else its digits). Cards without a name nor a number are left out.
 */
export function parseVcards(text: string): SharedContact[] {
  const cards: SharedContact[] = [];
  const blocks = text
    .replace(/\r\n?/g, '\n')
    .split(/^BEGIN:VCARD\s*$/im)
    .slice(1);
  for (const block of blocks) {
    const vcard = `BEGIN:VCARD${block.split(/^END:VCARD\s*$/im)[0]}END:VCARD`;
    let fn: string | undefined;
    let n: string | undefined;
    const numbers: string[] = [];
    for (const line of vcard.replace(/\n[ \t]/g, '').split('\n')) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const params = line.slice(0, colon).split(';');
      const property = params[0]!.split('.').pop()!.toUpperCase();
      const value = line.slice(colon + 1).trim();
      if (property === 'FN') fn = unescapeVcard(value).trim();
      else if (property === 'N') {
        const [family = '', given = ''] = value.split(/(?<!\\);/).map(unescapeVcard);
        n = [given.trim(), family.trim()].filter(Boolean).join(' ');
      } else if (property === 'TEL') {
        const waid = params.map((p) => /^waid=(\d+)$/i.exec(p.trim())?.[1]).find(Boolean);
        const number = waid ?? digitsOf(value);
        if (number && !numbers.includes(number)) numbers.push(number);
      }
    }
    const name = cleanText(fn || n, SHARED_LIMITS.text, true) ?? numbers[0];
    if (name) cards.push({ name, numbers: numbers.slice(0, SHARED_LIMITS.numbers), vcard });
  }
  return cards;
}

/** How the ticket's last message and notifications name what was shared. */
export function sharedSummary(content: { readonly location: SharedLocation } | { readonly contacts: readonly SharedContact[] }): string {
  if ('location' in content) {
    const l = content.location;
    return `📍 Location: ${l.name ?? l.address ?? `${degrees(l.latitude)}, ${degrees(l.longitude)}`}`;
  }
  return `👤 Contact: ${content.contacts.map((c) => c.name).join(', ')}`;
}

/**
 * What a stored message says when it goes out again as text (forwarded): a shared location as its
 * name, address and map link, contact cards as each name with its numbers; any other its body.
 */
export function forwardedText(m: { readonly body: string; readonly kind?: SharedKind | null }): string {
  if (m.kind === 'location') {
    const l = parseLocationBody(m.body);
    if (l) {
      const title = l.name ?? l.address ?? `${degrees(l.latitude)}, ${degrees(l.longitude)}`;
      return [`📍 ${title}`, ...(l.name && l.address ? [l.address] : []), mapLink(l.latitude, l.longitude)].join('\n');
    }
  }
  if (m.kind === 'contact') {
    const cards = parseVcards(m.body);
    if (cards.length) return cards.map((c) => [`👤 ${c.name}`, ...c.numbers.map((n) => `+${n}`)].join('\n')).join('\n\n');
  }
  return m.body;
}

/**
 * What an inbound message stores: its location or contact cards (checked) in the lineage's body
 * shape, with its kind and the ticket's readable last message; otherwise its text as it came.
 */
export function inboundContent(event: { readonly body: string; readonly location?: unknown; readonly contacts?: unknown }): {
  body: string;
  kind: SharedKind | null;
  lastMessage: string;
} {
  const location = cleanLocation(event.location);
  if (location) return { body: locationBody(location), kind: 'location', lastMessage: sharedSummary({ location }) };
  const contacts = cleanContacts(event.contacts);
  if (contacts) return { body: contactsBody(contacts), kind: 'contact', lastMessage: sharedSummary({ contacts }) };
  return { body: event.body, kind: null, lastMessage: event.body };
}

import { ValidationError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';

/**
 * A company's reusable message for the ticket composer (the lineage's quick messages): typed as
 * `/<shortcut>`, its `message` may name the scheduled messages' variables (`{{name}}`…), with an
 * optional file. Global ones are every operator's; the others are their owner's (`userId`).
 */
export interface CompanyTemplate {
  id: number;
  companyId: number;
  /** The key after the `/`, folded (lower case, no accents); unique per company. */
  shortcut: string;
  message: string;
  category: string | null;
  /** Every operator of the company sees it (only admins change it); otherwise its owner and the admins. */
  global: boolean;
  /** Who created it: the owner of a personal template. Null once that user is deleted. */
  userId: number | null;
  /** The attached file: a public blob (sent by URL), its original name, the type recognised from its bytes and its size. */
  mediaKey: string | null;
  mediaName: string | null;
  mediaType: string | null;
  mediaSize: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewCompanyTemplate = Omit<CompanyTemplate, 'id'>;

export type TemplateMedia = Pick<CompanyTemplate, 'mediaKey' | 'mediaName' | 'mediaType' | 'mediaSize'>;

export const NO_MEDIA: TemplateMedia = { mediaKey: null, mediaName: null, mediaType: null, mediaSize: null };

export const MAX_TEMPLATE_MESSAGE = 4096;
export const MAX_TEMPLATE_CATEGORY = 60;
const SHORTCUT = /^[a-z0-9][a-z0-9_-]{0,49}$/;

/**
 * The key as typed after `/` (the slash itself may be included): folded, then 1 to 50 letters,
 * digits, `-` and `_`, starting with a letter or digit (422 `ERR_INVALID_TEMPLATE_SHORTCUT`).
 */
export function cleanShortcut(raw: string): string {
  const key = foldForSearch(raw.trim().replace(/^\//, ''));
  if (!SHORTCUT.test(key)) throw new ValidationError('ERR_INVALID_TEMPLATE_SHORTCUT');
  return key;
}

/** Kept as written; not blank, up to 4,096 characters (422 `ERR_INVALID_TEMPLATE_MESSAGE`). */
export function cleanTemplateMessage(raw: string): string {
  if (!raw.trim() || raw.length > MAX_TEMPLATE_MESSAGE) throw new ValidationError('ERR_INVALID_TEMPLATE_MESSAGE');
  return raw;
}

/** Trimmed, spaces collapsed, up to 60 characters; blank or null is none (422 `ERR_INVALID_TEMPLATE_CATEGORY`). */
export function cleanTemplateCategory(raw: string | null): string | null {
  const category = raw?.trim().replace(/\s+/g, ' ') ?? '';
  if (category.length > MAX_TEMPLATE_CATEGORY) throw new ValidationError('ERR_INVALID_TEMPLATE_CATEGORY');
  return category || null;
}

/** A template as the API shows it: its file by URL. */
export interface CompanyTemplateView {
  id: number;
  companyId: number;
  shortcut: string;
  message: string;
  category: string | null;
  global: boolean;
  userId: number | null;
  mediaUrl: string | null;
  mediaName: string | null;
  mediaType: string | null;
  mediaSize: number | null;
  createdAt: string;
  updatedAt: string;
}

export function toTemplateView(t: CompanyTemplate, publicUrl: (key: string) => string): CompanyTemplateView {
  return {
    id: t.id,
    companyId: t.companyId,
    shortcut: t.shortcut,
    message: t.message,
    category: t.category,
    global: t.global,
    userId: t.userId,
    mediaUrl: t.mediaKey ? publicUrl(t.mediaKey) : null,
    mediaName: t.mediaName,
    mediaType: t.mediaType,
    mediaSize: t.mediaSize,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

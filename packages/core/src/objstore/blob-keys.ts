/**
 * The company a blob key belongs to. The features build their keys under the company's folder:
 * `public/company-<id>/…` (media, logos, schedules), `private/company-<id>/…` (imports, private
 * settings), `company-<id>/…` (file lists) and the lineage's `public/company<id>/…` (avatars).
 * Any other key (the platform's own files) belongs to no company and stays on the default store.
 */
const COMPANY_KEY = /^(?:public\/|private\/)?company-?([1-9]\d{0,9})\//;

export function companyOfBlobKey(key: string): number | null {
  const match = COMPANY_KEY.exec(key);
  if (!match) return null;
  const id = Number(match[1]);
  return id <= 2_147_483_647 ? id : null;
}

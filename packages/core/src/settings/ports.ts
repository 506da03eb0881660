/** Stored setting values; a missing row means the catalog default. companyId null = platform-wide. */
export interface Settings {
  get(companyId: number | null, key: string): Promise<string | null>;
  all(companyId: number | null): Promise<Map<string, string>>;
  put(companyId: number | null, key: string, value: string, at: Date): Promise<void>;
}

import type { Connection } from '../connections/connection.js';
import type { BizchatTemplate, BizchatTemplateComponent, NewBizchatTemplate } from './bizchat-template.js';

/** The stored copy of each bizchat connection's templates (a cache of the provider's list). */
export interface BizchatTemplates {
  /** The connection's templates, by name then language. */
  list(companyId: number, connectionId: number): Promise<BizchatTemplate[]>;
  find(companyId: number, connectionId: number, name: string, language: string): Promise<BizchatTemplate | null>;
  /** Replaces the connection's stored templates with the provider's current list (one transaction). */
  replaceAll(companyId: number, connectionId: number, templates: readonly NewBizchatTemplate[]): Promise<BizchatTemplate[]>;
  /**
   * A template status webhook: sets the status of a business account's template, found by the
   * provider's id (or, without one, by name and language) on every connection of that account.
   * Answers how many stored rows changed.
   */
  setStatus(
    wabaId: string,
    match: { readonly metaId: string | null; readonly name: string; readonly language: string },
    status: string,
    at: Date,
  ): Promise<number>;
}

/** A template as the provider lists it (`GET /<waba-id>/message_templates`). */
export interface ProviderTemplate {
  readonly id: string;
  readonly name: string;
  readonly language: string;
  readonly status: string;
  readonly category: string;
  readonly parameterFormat: 'POSITIONAL' | 'NAMED';
  readonly components: BizchatTemplateComponent[];
}

/**
 * The provider's template directory (Meta's Graph API). Throws `ERR_BIZCHAT_TOKEN_INVALID` (422)
 * when it refuses the access token and `ERR_BIZCHAT_PROVIDER_UNAVAILABLE` (503) when it cannot be asked.
 */
export interface TemplateDirectory {
  list(account: { readonly wabaId: string; readonly accessToken: string }): Promise<ProviderTemplate[]>;
}

/** The bizchat connection of a provider's phone-number id (webhook deliveries name it). */
export interface BizchatNumbers {
  connectionOfPhoneNumber(phoneNumberId: string): Promise<Connection | null>;
}

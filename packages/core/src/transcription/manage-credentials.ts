import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, SecretCipher, Transaction } from '../shared/ports.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import {
  assertComplete,
  cleanApiKey,
  cleanBaseUrl,
  cleanCredentialName,
  cleanLanguage,
  cleanModel,
  DEFAULT_TRANSCRIPTION_MODEL,
  OPENAI_BASE_URL,
  openApiKey,
  sealApiKey,
  toCredentialView,
  type TranscriptionCredential,
  type TranscriptionCredentialView,
  type TranscriptionProvider,
} from './credential.js';
import type { SpeechToText, SpeechToTextEndpoint, TranscriptionCredentials } from './ports.js';
import { silentClip } from './test-clip.js';

/** Transcription is part of the plans' AI feature (`useOpenAi`). */
export type TranscriptionPlan = Pick<PlanGuard, 'assertFeature'>;

/** The fields of a credential being created or edited; on an edit, absent keeps what is stored. */
export interface CredentialInput {
  readonly name?: string;
  readonly provider?: TranscriptionProvider;
  /** Null or absent with `openai`: OpenAI's own. Required with `openai-compatible`. */
  readonly baseUrl?: string | null;
  /** Null or absent: `whisper-1`. */
  readonly model?: string | null;
  readonly language?: string | null;
  /** Write-only. A string replaces the key; null or `""` removes it; absent keeps it. */
  readonly apiKey?: string | null;
  /** True makes it the company's default (the company's first credential is the default anyway). */
  readonly isDefault?: boolean;
  /** Calls the service with half a second of silence before saving; if that fails, nothing is saved and its error is the answer. */
  readonly test?: boolean;
}

/** A test call that went through. */
export interface CredentialTest {
  readonly ok: true;
  readonly latencyMs: number;
  /** What the service heard in the silence (often nothing). */
  readonly text: string;
}

export type SavedCredential = TranscriptionCredentialView & { readonly test?: CredentialTest };

interface Deps {
  readonly credentials: TranscriptionCredentials;
  readonly cipher: SecretCipher;
  readonly speechToText: SpeechToText;
  readonly plan: TranscriptionPlan;
  readonly tx: Transaction;
  readonly clock: Clock;
}

/** The company's credential (404 `ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND` otherwise, also for another company's). */
export async function findCredential(credentials: TranscriptionCredentials, companyId: number, id: number): Promise<TranscriptionCredential> {
  const found = await credentials.findById(companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND');
  return found;
}

/** Where requests with this credential go, its key opened. */
export function endpointOf(cipher: SecretCipher, c: TranscriptionCredential): SpeechToTextEndpoint {
  return { baseUrl: c.baseUrl, model: c.model, apiKey: openApiKey(cipher, c) };
}

/** Credentials are an admin's business, on a plan with AI; answers the admin's company. */
async function managedCompany(plan: TranscriptionPlan, actor: Actor): Promise<number> {
  assertAdmin(actor);
  await plan.assertFeature(actor.companyId, 'ai');
  return actor.companyId;
}

async function assertFreeName(credentials: TranscriptionCredentials, companyId: number, name: string, exceptId?: number): Promise<void> {
  const holder = await credentials.findByName(companyId, name);
  if (holder && holder.id !== exceptId) throw new ConflictError('ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE');
}

function baseUrlFor(provider: TranscriptionProvider, given: string | null | undefined): string {
  if (given !== null && given !== undefined && given.trim() !== '') return cleanBaseUrl(given);
  if (provider === 'openai') return OPENAI_BASE_URL;
  throw new ValidationError('ERR_TRANSCRIPTION_INVALID_BASE_URL');
}

async function testCall(deps: Pick<Deps, 'speechToText' | 'clock'>, endpoint: SpeechToTextEndpoint, language: string | null): Promise<CredentialTest> {
  const started = deps.clock.now().getTime();
  const { text } = await deps.speechToText.transcribe(endpoint, silentClip(), { language });
  return { ok: true, latencyMs: Math.max(0, deps.clock.now().getTime() - started), text };
}

/** Admins list the company's credentials (keys never shown); the default first. */
export class ListTranscriptionCredentials {
  constructor(private readonly deps: Pick<Deps, 'credentials' | 'plan'>) {}

  async execute(input: { readonly actor: Actor }): Promise<TranscriptionCredentialView[]> {
    return (await this.deps.credentials.list(await managedCompany(this.deps.plan, input.actor))).map(toCredentialView);
  }
}

/** Any operator may ask which credential transcribes by default (to offer transcription at all); 404 when none. */
export class ShowDefaultTranscriptionCredential {
  constructor(private readonly deps: Pick<Deps, 'credentials' | 'plan'>) {}

  async execute(input: { readonly actor: Actor }): Promise<TranscriptionCredentialView> {
    await this.deps.plan.assertFeature(input.actor.companyId, 'ai');
    const found = await this.deps.credentials.findDefault(input.actor.companyId);
    if (!found) throw new NotFoundError('ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND');
    return toCredentialView(found);
  }
}

/** An admin makes one credential the default: exactly one, whatever else happens at the same time. */
export class SetDefaultTranscriptionCredential {
  constructor(private readonly deps: Pick<Deps, 'credentials' | 'plan' | 'tx'>) {}

  async execute(input: { readonly actor: Actor; readonly credentialId: number }): Promise<TranscriptionCredentialView> {
    const { credentials, tx } = this.deps;
    const companyId = await managedCompany(this.deps.plan, input.actor);
    return tx.run(async () => {
      if (!(await credentials.setDefault(companyId, input.credentialId))) throw new NotFoundError('ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND');
      return toCredentialView(await findCredential(credentials, companyId, input.credentialId));
    });
  }
}

export class CreateTranscriptionCredential {
  constructor(private readonly deps: Deps) {}

  async execute(input: CredentialInput & { readonly actor: Actor; readonly name: string }): Promise<SavedCredential> {
    const { credentials, cipher, tx, clock } = this.deps;
    const companyId = await managedCompany(this.deps.plan, input.actor);
    const provider = input.provider ?? 'openai';
    const name = cleanCredentialName(input.name);
    const baseUrl = baseUrlFor(provider, input.baseUrl);
    const model = input.model ? cleanModel(input.model) : DEFAULT_TRANSCRIPTION_MODEL;
    const language = cleanLanguage(input.language);
    const apiKey = cleanApiKey(input.apiKey);
    const sealed = sealApiKey(cipher, companyId, apiKey);
    assertComplete({ provider, ...sealed });
    await assertFreeName(credentials, companyId, name);
    const test = input.test ? await testCall(this.deps, { baseUrl, model, apiKey }, language) : undefined;
    const now = clock.now();
    const saved = await tx.run(async () => {
      const added = await credentials.add({ companyId, name, provider, baseUrl, model, language, ...sealed, isDefault: false, createdAt: now, updatedAt: now });
      if (input.isDefault || !(await credentials.findDefault(companyId))) await credentials.setDefault(companyId, added.id);
      return findCredential(credentials, companyId, added.id);
    });
    return { ...toCredentialView(saved), ...(test ? { test } : {}) };
  }
}

/**
 * An admin edits a credential: only the fields given change (the key is replaced only when one is
 * sent). `isDefault: true` makes it the default; the default stops being it only when another becomes it.
 */
export class UpdateTranscriptionCredential {
  constructor(private readonly deps: Deps) {}

  async execute(input: CredentialInput & { readonly actor: Actor; readonly credentialId: number }): Promise<SavedCredential> {
    const { credentials, cipher, tx, clock } = this.deps;
    const companyId = await managedCompany(this.deps.plan, input.actor);
    const current = await findCredential(credentials, companyId, input.credentialId);
    const next: TranscriptionCredential = { ...current };
    if (input.name !== undefined) next.name = cleanCredentialName(input.name);
    if (input.provider !== undefined) next.provider = input.provider;
    if (input.baseUrl !== undefined) next.baseUrl = baseUrlFor(next.provider, input.baseUrl);
    if (input.model !== undefined) next.model = input.model ? cleanModel(input.model) : DEFAULT_TRANSCRIPTION_MODEL;
    if (input.language !== undefined) next.language = cleanLanguage(input.language);
    let apiKey: string | null | undefined;
    if (input.apiKey !== undefined) {
      apiKey = cleanApiKey(input.apiKey);
      Object.assign(next, sealApiKey(cipher, companyId, apiKey));
    }
    assertComplete(next);
    if (next.name.toLowerCase() !== current.name.toLowerCase()) await assertFreeName(credentials, companyId, next.name, current.id);
    const test = input.test
      ? await testCall(
          this.deps,
          { baseUrl: next.baseUrl, model: next.model, apiKey: apiKey !== undefined ? apiKey : openApiKey(cipher, current) },
          next.language,
        )
      : undefined;
    next.updatedAt = clock.now();
    const saved = await tx.run(async () => {
      await credentials.update(next);
      if (input.isDefault === true && !current.isDefault) await credentials.setDefault(companyId, current.id);
      return findCredential(credentials, companyId, current.id);
    });
    return { ...toCredentialView(saved), ...(test ? { test } : {}) };
  }
}

/** An admin removes a credential; the default only when it is the company's last one (409 otherwise). */
export class DeleteTranscriptionCredential {
  constructor(private readonly deps: Pick<Deps, 'credentials' | 'plan' | 'tx'>) {}

  async execute(input: { readonly actor: Actor; readonly credentialId: number }): Promise<void> {
    const { credentials, tx } = this.deps;
    const companyId = await managedCompany(this.deps.plan, input.actor);
    await tx.run(async () => {
      const found = await findCredential(credentials, companyId, input.credentialId);
      if (found.isDefault && (await credentials.list(companyId)).length > 1) throw new ConflictError('ERR_TRANSCRIPTION_CREDENTIAL_IS_DEFAULT');
      await credentials.remove(companyId, found.id);
    });
  }
}

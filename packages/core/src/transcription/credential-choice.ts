import { ValidationError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/ports.js';
import type { TranscriptionCredential } from './credential.js';
import { endpointOf, findCredential } from './manage-credentials.js';
import type { SpeechToTextEndpoint, TranscriptionCredentials } from './ports.js';

/** The company's credential a transcription uses, with its endpoint (the API key opened). */
export class CredentialChoice {
  constructor(private readonly deps: { readonly credentials: TranscriptionCredentials; readonly cipher: SecretCipher }) {}

  /** The credential named (404 when not the company's), else the company's default (422 when none). */
  async choose(companyId: number, id: number | undefined): Promise<{ readonly credential: TranscriptionCredential; readonly endpoint: SpeechToTextEndpoint }> {
    const credential = await this.credential(companyId, id);
    return { credential, endpoint: endpointOf(this.deps.cipher, credential) };
  }

  private async credential(companyId: number, id: number | undefined): Promise<TranscriptionCredential> {
    if (id !== undefined) return findCredential(this.deps.credentials, companyId, id);
    const found = await this.deps.credentials.findDefault(companyId);
    if (!found) throw new ValidationError('ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED');
    return found;
  }
}

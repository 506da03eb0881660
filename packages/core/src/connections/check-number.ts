import { ValidationError } from '../shared/errors.js';
import type { Connection } from './connection.js';

/**
 * Questions for the channel runtime that need an answer now (not a queued command). Adapters:
 * a direct call in one process, NATS request/reply across processes.
 */
export interface ChannelQueries {
  /** Throws ConflictError('ERR_SESSION_NOT_CONNECTED') when no live session can answer. */
  checkNumber(connection: Connection, number: string): Promise<{ exists: boolean; id: string | null }>;
  /**
   * The address book of the connection's account (people, no groups). ConflictError
   * `ERR_SESSION_NOT_CONNECTED` as above, `ERR_CONTACTS_NOT_SUPPORTED` when its provider has none.
   */
  contacts(connection: Connection): Promise<ChannelContact[]>;
  /** The public name and picture of a number at the provider (nulls when it shows none or cannot tell). */
  profile(connection: Connection, number: string): Promise<ChannelProfile>;
}

/** One entry of a connection's address book: the number as the provider gives it, digits only. */
export interface ChannelContact {
  readonly number: string;
  readonly name: string;
}

export interface ChannelProfile {
  readonly name: string | null;
  readonly profilePicUrl: string | null;
}

export interface CheckNumberResult {
  readonly number: string;
  readonly exists: boolean;
  /** The provider's normalized id for the number (e.g. with the ninth digit added). */
  readonly id: string | null;
}

/** `POST /api/messages/checkNumber`: asks the connection's connector whether the number exists. */
export class CheckNumber {
  constructor(private readonly deps: { queries: ChannelQueries }) {}

  async execute(input: { connection: Connection; number: string }): Promise<CheckNumberResult> {
    if (!/^\d{8,15}$/.test(input.number)) throw new ValidationError('ERR_INVALID_NUMBER');
    const answer = await this.deps.queries.checkNumber(input.connection, input.number);
    return { number: input.number, exists: answer.exists, id: answer.id };
  }
}

import { ValidationError } from '../shared/errors.js';
import type { Connection } from './connection.js';

/**
 * Questions for the channel runtime that need an answer now (not a queued command). Adapters:
 * a direct call in one process, NATS request/reply across processes.
 */
export interface ChannelQueries {
  /** Throws ConflictError('ERR_SESSION_NOT_CONNECTED') when no live session can answer. */
  checkNumber(connection: Connection, number: string): Promise<{ exists: boolean; id: string | null }>;
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

import type { Outbox } from '../outbox/ports.js';
import type { Clock, IdGenerator } from '../shared/ports.js';

/** The subject of one company's prompt answers, consumed by the backend itself. */
export const promptAnswerSubject = (companyId: number) => `cmd.prompt.answer.${companyId}`;
export const PROMPT_ANSWER_SUBJECTS = 'cmd.prompt.answer.>';

/**
 * What an assistant's answer must start with when the contact needs a person. Written in the
 * companies' language (the lineage's phrase), so existing instructions keep working.
 */
export const HANDOVER_PHRASE = 'Ação: Transferir para o setor de atendimento';

/** Command: answer one inbound message of a ticket with the prompt that talks on it. */
export interface PromptAnswer {
  readonly type: 'PromptAnswer';
  readonly companyId: number;
  readonly ticketId: number;
  /** The inbound message (our id): an answer is given once per inbound message. */
  readonly messageId: string;
  readonly promptId: number;
}

/** How one inbound message was dealt with. */
export type PromptOutcome = 'answered' | 'handed-over' | 'skipped';

/** The record that an inbound message was dealt with: written once, in the transaction of the answer. */
export interface PromptAnswerRecord {
  readonly companyId: number;
  readonly messageId: string;
  readonly ticketId: number;
  readonly promptId: number;
  readonly outcome: PromptOutcome;
  /** Why it was handed over or skipped (an error code, or `ERR_PROMPT_HANDOVER_REQUESTED`). */
  readonly reason: string | null;
  readonly at: Date;
}

/** Which inbound messages an assistant dealt with: a redelivered command finds its record and does nothing. */
export interface PromptAnswers {
  has(companyId: number, messageId: string): Promise<boolean>;
  /** Inserts the record; false when the message already has one (another delivery got there first). */
  claim(record: PromptAnswerRecord): Promise<boolean>;
  /** The records of a ticket, oldest first. */
  ofTicket(companyId: number, ticketId: number): Promise<PromptAnswerRecord[]>;
}

/**
 * Writes the command to the outbox in the caller's (the inbound message's) transaction: the model
 * is called after the commit, by the command's consumer, never while the inbound path holds rows.
 */
export async function enqueuePromptAnswer(
  deps: { readonly outbox: Outbox; readonly ids: IdGenerator; readonly clock: Clock },
  input: Omit<PromptAnswer, 'type'>,
): Promise<void> {
  const command: PromptAnswer = { type: 'PromptAnswer', ...input };
  await deps.outbox.add({ id: deps.ids.uuid(), subject: promptAnswerSubject(input.companyId), payload: command, createdAt: deps.clock.now() });
}

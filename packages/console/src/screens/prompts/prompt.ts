import type { Schema } from '../../api/client.js';

/** An assistant as the API answers it. The generated type reads the nullable queue as an intersection that admits no queue at all: corrected here. */
export type Prompt = Omit<Schema<'Prompt'>, 'queue'> & { queue: Schema<'QueueSummary'> | null };

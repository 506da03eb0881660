import type { RealtimeEventOf } from '../realtime/ports.js';
import type { PromptView } from './prompt.js';

/** `company-<id>-prompt`: a prompt was created, changed or removed (the lineage's prompts page). */
export type PromptEvent = RealtimeEventOf<
  'prompt',
  | { readonly action: 'create'; readonly prompt: PromptView }
  | { readonly action: 'update'; readonly prompt: PromptView }
  | { readonly action: 'delete'; readonly promptId: number }
>;

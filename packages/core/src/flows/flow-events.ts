import type { RealtimeEventOf } from '../realtime/ports.js';
import type { FlowSummary } from './flow.js';

/**
 * `company-<id>-flow`: a flow was created, changed (its name, triggers, activity or draft: `version`
 * says which draft is current, for editors open on it), published (`version` the new one) or removed.
 */
export type FlowEvent = RealtimeEventOf<
  'flow',
  | { readonly action: 'create'; readonly flow: FlowSummary }
  | { readonly action: 'update'; readonly flow: FlowSummary }
  | { readonly action: 'publish'; readonly flow: FlowSummary; readonly version: number }
  | { readonly action: 'delete'; readonly flowId: number }
>;

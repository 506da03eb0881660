/** The steps of the server's bucket test (`POST /objstore-configs/test-connection`), in the order it runs them. */
export const STEPS = ['connect', 'write', 'read', 'delete'] as const;
export type Step = (typeof STEPS)[number];

/** What a test (or a save that tests) came to: every step passed in `latencyMs`, or the step it stopped at and why. */
export type TestOutcome = { readonly ok: true; readonly latencyMs: number } | { readonly ok: false; readonly step: Step | null; readonly error: unknown };

/**
 * Each step of a test with its outcome, as the server answers it (200, or 422 `{ error, step }` at
 * the first step that failed): those before the failed one passed, those after it were not tried.
 * A refusal without a step (the saved secret unreadable) has no steps to show.
 */
export function stepOutcomes(outcome: TestOutcome): Array<{ step: Step; state: 'passed' | 'failed' | 'notRun' }> {
  if (outcome.ok) return STEPS.map((step) => ({ step, state: 'passed' }));
  const failedAt = outcome.step ? STEPS.indexOf(outcome.step) : -1;
  if (failedAt < 0) return [];
  return STEPS.map((step, i) => ({ step, state: i < failedAt ? 'passed' : i === failedAt ? 'failed' : 'notRun' }));
}

import { expect } from 'chai';
import { stepOutcomes } from '../src/screens/storage/test-steps.js';

describe('console storage: the steps of a bucket test', () => {
  it('shows every step passed when the test answered 200', () => {
    expect(stepOutcomes({ ok: true, latencyMs: 12 }).map((s) => s.state)).to.deep.equal(['passed', 'passed', 'passed', 'passed']);
  });

  it('marks the steps before the failed one passed and those after it not tried', () => {
    expect(stepOutcomes({ ok: false, step: 'write', error: null })).to.deep.equal([
      { step: 'connect', state: 'passed' },
      { step: 'write', state: 'failed' },
      { step: 'read', state: 'notRun' },
      { step: 'delete', state: 'notRun' },
    ]);
    expect(stepOutcomes({ ok: false, step: 'connect', error: null }).map((s) => s.state)).to.deep.equal(['failed', 'notRun', 'notRun', 'notRun']);
    expect(stepOutcomes({ ok: false, step: 'delete', error: null }).map((s) => s.state)).to.deep.equal(['passed', 'passed', 'passed', 'failed']);
  });

  it('has no steps to show for a refusal without one (the saved secret unreadable)', () => {
    expect(stepOutcomes({ ok: false, step: null, error: null })).to.deep.equal([]);
  });
});

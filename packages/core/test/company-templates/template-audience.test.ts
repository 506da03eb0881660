import { expect } from 'chai';
import { admits, audienceOf, type TicketAccess } from '../../src/index.js';

const access = (userId: number, profile: 'user' | 'admin', seesAll = false): TicketAccess => ({
  actor: { userId, companyId: 1, profile },
  seesAll,
  queueIds: [],
});
const ANA = access(10, 'user');
const BIA_ALL_TICKETS = access(11, 'user', true);
const ADMIN = access(1, 'admin', true);

describe('Realtime audience of company templates: their read rule', () => {
  const deps = { tickets: { findById: async () => null } };
  const readersOf = async (readers: { kind: 'company' } | { kind: 'owner'; userId: number | null }) => {
    const audience = await audienceOf(deps, 1, { entity: 'companyTemplate', data: { action: 'delete', id: 5 }, readers });
    return [admits(ANA, audience), admits(BIA_ALL_TICKETS, audience), admits(ADMIN, audience)];
  };

  it("sends a global template's frames to every operator, a personal one's to its owner and the admins (seeing every ticket is not enough)", async () => {
    expect(await readersOf({ kind: 'company' })).to.deep.equal([true, true, true]);
    expect(await readersOf({ kind: 'owner', userId: 10 })).to.deep.equal([true, false, true]);
    expect(await readersOf({ kind: 'owner', userId: null })).to.deep.equal([false, false, true]);
  });
});

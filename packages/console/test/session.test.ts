import { expect } from 'chai';
import { Session, type SessionState } from '../src/session/session.js';

const user = { id: 1, companyId: 1, name: 'Ana', profile: 'admin' };
const state = (token: string): SessionState => ({ token, user });

/** Two tabs' channels joined, as a BroadcastChannel joins the tabs of a browser. */
function channels() {
  const a = { onmessage: null as ((e: { data: unknown }) => void) | null, postMessage: (m: unknown) => b.onmessage?.({ data: m }) };
  const b = { onmessage: null as ((e: { data: unknown }) => void) | null, postMessage: (m: unknown) => a.onmessage?.({ data: m }) };
  return [a, b] as const;
}

describe('console: the session', () => {
  it('refreshes once for all the requests that met a 401 together', async () => {
    let calls = 0;
    let release!: () => void;
    const session = new Session({
      refresh: () => {
        calls++;
        return new Promise((resolve) => {
          release = () => resolve(state('t2'));
        });
      },
      logout: async () => undefined,
    });
    session.signedIn(state('t1'));
    const renewals = [session.renewAfter('t1'), session.renewAfter('t1'), session.renewAfter('t1')];
    release();
    expect(await Promise.all(renewals)).to.deep.equal(['t2', 't2', 't2']);
    expect(calls).to.equal(1);
    // A request that still carried the old token after the refresh retries with the new one, no second refresh.
    expect(await session.renewAfter('t1')).to.equal('t2');
    expect(calls).to.equal(1);
  });

  it('a password change signs in again: the refreshes asked meanwhile wait for it instead of presenting the revoked cookie', async () => {
    let refreshes = 0;
    // The server refuses the old cookie once the password changed: a refresh would sign out.
    const session = new Session({
      refresh: async () => {
        refreshes++;
        return null;
      },
      logout: async () => undefined,
    });
    session.signedIn(state('t1'));
    let signInAgain!: (s: SessionState) => void;
    const renewed = session.renewWith(() => new Promise((resolve) => (signInAgain = resolve)));
    // The realtime connection, closed by the server, asks for a refresh while the change is under way.
    const meanwhile = session.renewAfter('t1');
    signInAgain(state('t2'));
    expect((await renewed).token).to.equal('t2');
    expect(await meanwhile).to.equal('t2');
    expect(session.current?.token).to.equal('t2');
    expect(refreshes).to.equal(0);

    // A change the server refused leaves the session as it was.
    const refused = session.renewWith(async () => {
      throw new Error('ERR_PASSWORD_TOO_SHORT');
    });
    const during = session.renewAfter('t2');
    await refused.catch(() => undefined);
    expect(await during).to.equal('t2');
    expect(refreshes).to.equal(0);
  });

  it('ends the session when the refresh is refused, on this tab and the others', async () => {
    const [tabA, tabB] = channels();
    const a = new Session({ refresh: async () => null, logout: async () => undefined, channel: tabA });
    const b = new Session({ refresh: async () => state('b2'), logout: async () => undefined, channel: tabB });
    a.signedIn(state('a1'));
    b.signedIn(state('b1'));
    const seen: Array<SessionState | null> = [];
    b.subscribe((s) => seen.push(s));
    expect(await a.renewAfter('a1')).to.equal(null);
    expect(a.current).to.equal(null);
    expect(b.current).to.equal(null);
    expect(seen.at(-1)).to.equal(null);
  });

  it('keeps the session when the server cannot be reached', async () => {
    const session = new Session({
      refresh: async () => {
        throw new TypeError('Failed to fetch');
      },
      logout: async () => undefined,
    });
    session.signedIn(state('t1'));
    expect(await session.renewAfter('t1')).to.equal('t1');
    expect(session.current?.token).to.equal('t1');
  });

  it('signs out with the server and tells the other tabs', async () => {
    const [tabA, tabB] = channels();
    const loggedOut: string[] = [];
    const a = new Session({ refresh: async () => null, logout: async (t) => void loggedOut.push(t), channel: tabA });
    const b = new Session({ refresh: async () => null, logout: async () => undefined, channel: tabB });
    a.signedIn(state('a1'));
    b.signedIn(state('b1'));
    await a.signOut();
    expect(loggedOut).to.deep.equal(['a1']);
    expect(b.current).to.equal(null);
  });
});

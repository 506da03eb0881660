import type { RealtimeEvent } from '../events/realtime-event.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Mailer } from '../shared/mailer.js';
import type { BlobStorage, Cache, Clock, IdGenerator, PasswordHasher, Transaction } from '../shared/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Companies, Plans } from '../tenancy/ports.js';
import { Authenticate } from '../identity/authenticate.js';
import { CreateUser } from '../identity/create-user.js';
import { DeleteUser } from '../identity/delete-user.js';
import { LoginThrottle, type LoginThrottlePolicy } from '../identity/login-throttle.js';
import { Login } from '../identity/login.js';
import { Logout } from '../identity/logout.js';
import { DEFAULT_RESET_THROTTLE, RequestPasswordReset, ResetPassword } from '../identity/password-reset.js';
import type { PasswordResets } from '../identity/password-resets.js';
import type { RefreshSessions, Tokens, Users } from '../identity/ports.js';
import { ListUsers, ListUsersForPicker, ShowUser } from '../identity/read-users.js';
import { CompanyStanding } from '../identity/company-standing.js';
import { RefreshRotation } from '../identity/refresh-rotation.js';
import { RefreshToken } from '../identity/refresh-token.js';
import { SessionIssuer } from '../identity/session-issuer.js';
import { UpdateUser } from '../identity/update-user.js';
import { GetCurrentUser, SetTicketsManagerWidth, SetUserAvatar } from '../identity/user-preferences.js';
import { UserAnnouncer } from '../identity/user-announcer.js';
import { UserDetailsReader } from '../identity/user-details.js';
import { QueueUserLinks } from './user-links.js';
import type { Connections } from '../connections/ports.js';
import type { Queues } from '../queues/ports.js';
import type { SharedPorts } from './shared-ports.js';

/** The ports of sign-in and user management. */
export interface IdentityPorts {
  readonly users: Users;
  readonly refreshSessions: RefreshSessions;
  readonly companies: Companies;
  readonly plans: Plans;
  /** The queues feature's links, read and set from the user's side (a user's `queues`). */
  readonly queues: Queues;
  /** A user's default connection must be one of the company's. */
  readonly connections: Connections;
  readonly tokens: Tokens;
  readonly hasher: PasswordHasher;
  readonly cache: Cache;
  readonly blobs: BlobStorage;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly loginThrottle?: LoginThrottlePolicy;
  /** The pending password resets of "Forgot your password?". */
  readonly passwordResets: PasswordResets;
  /** Sends the reset e-mails; absent: no e-mail is set up and reset requests answer `ERR_MAIL_NOT_CONFIGURED`. */
  readonly mailer?: Mailer;
  /** The console's address, for the links e-mails carry (`<consoleUrl>/app/…`); absent: `http://localhost:8080`. */
  readonly consoleUrl?: string;
  /** Limits of reset requests per e-mail and per address (absent: `DEFAULT_RESET_THROTTLE`). */
  readonly resetThrottle?: LoginThrottlePolicy;
}

/** Sign-in, tokens and the users of a company (`app.identity`). */
export function createIdentity(p: IdentityPorts & SharedPorts) {
  const { users, refreshSessions: sessions, companies, plans, tokens, hasher, cache, blobs, realtime, tx, clock, ids } = p;
  const suspensions = p.companySuspensions;
  const planGuard = new PlanGuard({ companies, plans });
  const issuer = new SessionIssuer({ sessions, tokens, clock, ids });
  const details = new UserDetailsReader({ links: new QueueUserLinks({ queues: p.queues, connections: p.connections }), companies });
  const announcer = new UserAnnouncer({ details, realtime });
  return {
    authenticate: new Authenticate({ users, companies, tokens, suspensions }),
    login: new Login({ users, companies, hasher, throttle: new LoginThrottle(cache, p.loginThrottle), sessions: issuer, clock, details, suspensions }),
    refreshToken: new RefreshToken({
      users,
      standing: new CompanyStanding({ companies, suspensions }),
      sessions,
      tokens,
      rotation: new RefreshRotation({ sessions, tokens, issuer, ids }),
      tx,
      clock,
      details,
    }),
    logout: new Logout({ users, sessions, tokens, clock }),
    getCurrentUser: new GetCurrentUser({ users, details }),
    listUsers: new ListUsers({ users, details }),
    listUsersForPicker: new ListUsersForPicker({ users }),
    showUser: new ShowUser({ users, details }),
    createUser: new CreateUser({ users, companies, planGuard, hasher, tx, clock, realtime, details }),
    updateUser: new UpdateUser({ users, sessions, hasher, tx, clock, realtime, details }),
    deleteUser: new DeleteUser({ users, sessions, tx, clock, realtime }),
    setUserAvatar: new SetUserAvatar({ users, blobs, ids, clock, announcer }),
    setTicketsManagerWidth: new SetTicketsManagerWidth({ users, clock }),
    requestPasswordReset: new RequestPasswordReset({
      users,
      resets: p.passwordResets,
      mailer: p.mailer,
      digester: p.digester,
      throttle: new LoginThrottle(cache, p.resetThrottle ?? DEFAULT_RESET_THROTTLE, { prefix: 'reset-request', code: 'ERR_TOO_MANY_RESET_REQUESTS' }),
      jobs: p.jobs,
      clock,
      consoleUrl: p.consoleUrl ?? 'http://localhost:8080',
    }),
    resetPassword: new ResetPassword({ users, resets: p.passwordResets, sessions, digester: p.digester, hasher, tx, clock, announcer }),
  };
}

export type IdentityApi = ReturnType<typeof createIdentity>;

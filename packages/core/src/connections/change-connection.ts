import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { ConnectionEvent, SessionEvent } from './connection-events.js';
import { ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, Transaction } from '../shared/ports.js';
import { toConnectionView, type Connection, type ConnectionKind } from './connection.js';
import {
  assertSocialCredentials,
  assertTokenFormat,
  connectionName,
  connectionText,
  externalIdOf,
  providerOfKind,
  reopenWindow,
  secretsOf,
  unsetOtherDefaults,
  accountClaim,
  visibleConnection,
} from './connection-rules.js';
import type { ConnectionFields } from './create-connection.js';
import type { Connections } from './ports.js';
import type { SessionCommands } from './session-commands.js';
import type { ConnectionWithQueues } from './connection-queues.js';
import type { ConnectionCredentials } from './connection-credentials.js';
import type { ConnectionMenu } from './connection-menu.js';

export interface UpdateConnectionInput extends ConnectionFields {
  readonly actor: Actor;
  readonly connectionId: number;
  /** The admin route: a super user addresses any company's connection. */
  readonly anyCompany?: boolean;
  /** Only accepted when unchanged: a connection never changes kind. */
  readonly kind?: ConnectionKind;
}

/** The token part of an update: undefined keeps, null removes, a string replaces. */
function tokenChange(current: Connection, token: string | null | undefined): string | null | undefined {
  // A form that echoes the masked value back means "unchanged"; a mask is never a valid token.
  if (token === undefined || (current.tokenHint !== null && token === current.tokenHint)) return undefined;
  if (token === null || token === '') return null;
  assertTokenFormat(token);
  return token;
}

/**
 * An admin edits a connection with the rules of creation (a new page or page token, or a new
 * number, access token or business account, is verified with the provider, and the page or number
 * must be on no other connection). Changing what the connector logs in
 * with (provider, page, secrets) restarts the session through a `restart` command.
 */
export class UpdateConnection {
  constructor(
    private readonly deps: {
      connections: Connections;
      /** Its token and page or number. */
      credentials: ConnectionCredentials;
      sessions: SessionCommands;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<ConnectionEvent | SessionEvent>;
      /** Its queues and AI assistant. */
      menu: ConnectionMenu;
    },
  ) {}

  /** The connection as the input would leave it (validated), from the stored one. */
  private edited(current: Connection, input: UpdateConnectionInput): Connection {
    if (input.kind !== undefined && input.kind !== current.kind) throw new ValidationError('ERR_CONNECTION_KIND_CHANGE');
    const next: Connection = { ...current, secrets: { ...current.secrets } };
    if (input.externalId !== undefined) next.externalId = externalIdOf(input.externalId);
    if (input.secrets !== undefined) next.secrets = { ...current.secrets, ...secretsOf(input.secrets) };
    return next;
  }

  async execute(input: UpdateConnectionInput): Promise<ConnectionWithQueues> {
    const { connections, credentials, menu, sessions, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    // A new page or number, or a new token (or account) for it, is verified with the provider before
    // the transaction (a network call); should the row change meanwhile, the claim is verified again inside.
    const before = await visibleConnection(connections, input.actor, input.connectionId, input.anyCompany);
    const planned = this.edited(before, input);
    let verified: string | null = null;
    if (accountClaim(planned) !== accountClaim(before)) {
      assertSocialCredentials(planned);
      await credentials.assertOwned(planned);
      verified = accountClaim(planned);
    }
    const { connection, undefaulted, restarted } = await tx.run(async () => {
      const current = await visibleConnection(connections, input.actor, input.connectionId, input.anyCompany);
      const next = this.edited(current, input);
      if (input.name !== undefined) next.name = connectionName(input.name);
      if (input.provider !== undefined) next.provider = providerOfKind(current.kind, input.provider, 'ERR_CONNECTION_KIND_CHANGE');
      if (input.greetingMessage !== undefined) next.greetingMessage = connectionText(input.greetingMessage);
      if (input.farewellMessage !== undefined) next.farewellMessage = connectionText(input.farewellMessage);
      if (input.outOfHoursMessage !== undefined) next.outOfHoursMessage = connectionText(input.outOfHoursMessage);
      if (input.isDefault !== undefined) next.isDefault = input.isDefault;
      if (input.reopenWindowMinutes !== undefined) next.reopenWindowMinutes = reopenWindow(input.reopenWindowMinutes);
      if (input.promptId !== undefined && input.promptId !== current.promptId) next.promptId = await menu.prompt(current.companyId, input.promptId);
      assertSocialCredentials(next);
      const claim = accountClaim(next);
      if (claim !== accountClaim(current)) {
        if (claim !== verified) await credentials.assertOwned(next);
        await credentials.assertFree(next, current.id);
      }
      const token = tokenChange(current, input.token);
      if (token === null) Object.assign(next, { tokenDigest: null, tokenHint: null });
      else if (token !== undefined) Object.assign(next, await credentials.token(token, current.id));

      const restarted =
        next.provider !== current.provider || next.externalId !== current.externalId || JSON.stringify(next.secrets) !== JSON.stringify(current.secrets);
      next.updatedAt = clock.now();
      if (restarted) await sessions.apply(next, 'restart');
      else await connections.update(next);
      const undefaulted = next.isDefault && !current.isDefault ? await unsetOtherDefaults(connections, clock, next) : [];
      if (input.queueIds !== undefined) {
        await menu.setQueues(next.companyId, next.id, await menu.queueIds(next.companyId, input.queueIds));
      }
      return { connection: next, undefaulted, restarted };
    });
    const view = toConnectionView(connection);
    for (const other of undefaulted)
      await realtime.publish(connection.companyId, { entity: 'chatapp', data: { action: 'update', chatapp: toConnectionView(other) } });
    await realtime.publish(connection.companyId, { entity: 'chatapp', data: { action: 'update', chatapp: view } });
    if (restarted) await realtime.publish(connection.companyId, { entity: 'chatappSession', data: { action: 'update', session: view } });
    return (await menu.withQueues(connection.companyId, [view]))[0]!;
  }
}

/**
 * An admin removes a connection: its session is logged out first (the `logout` command commits
 * with the removal) and its greeting media is deleted.
 */
export class DeleteConnection {
  constructor(
    private readonly deps: {
      connections: Connections;
      sessions: SessionCommands;
      blobs: BlobStorage;
      tx: Transaction;
      realtime: RealtimeEvents<ConnectionEvent>;
    },
  ) {}

  async execute(input: { readonly actor: Actor; readonly connectionId: number; readonly anyCompany?: boolean }): Promise<void> {
    const { connections, sessions, blobs, tx, realtime } = this.deps;
    assertAdmin(input.actor);
    const connection = await tx.run(async () => {
      const connection = await visibleConnection(connections, input.actor, input.connectionId, input.anyCompany);
      await sessions.enqueue(connection, 'logout');
      await connections.remove(connection.companyId, connection.id);
      return connection;
    });
    // The row is gone either way; an orphaned blob only costs storage.
    if (connection.greetingMediaKey) await blobs.delete(connection.greetingMediaKey).catch(() => undefined);
    await realtime.publish(connection.companyId, { entity: 'chatapp', data: { action: 'delete', chatappId: connection.id } });
  }
}

import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { ConnectionEvent } from './connection-events.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import { atCommit } from '../shared/at-commit.js';
import { toConnectionView, type ConnectionProvider, type NewConnection } from './connection.js';
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
} from './connection-rules.js';
import type { Connections } from './ports.js';
import type { SessionCommands } from './session-commands.js';
import type { ConnectionWithQueues } from './connection-queues.js';
import type { ConnectionCredentials } from './connection-credentials.js';
import type { ConnectionMenu } from './connection-menu.js';

/** The editable fields of a connection; on update, an absent field keeps its value. */
export interface ConnectionFields {
  readonly name?: string;
  readonly provider?: ConnectionProvider;
  readonly greetingMessage?: string | null;
  readonly farewellMessage?: string | null;
  readonly outOfHoursMessage?: string | null;
  readonly isDefault?: boolean;
  /** 0 (never reopen) to 10080 (a week). */
  readonly reopenWindowMinutes?: number;
  /** The "Token API" of the official message API: 16–256 characters; null or '' removes it. Never returned. */
  readonly token?: string | null;
  /** The page or account id at the provider; required for social networks. */
  readonly externalId?: string | null;
  /** Provider secrets; social networks need `pageAccessToken`. On update, merged into the stored ones. */
  readonly secrets?: Readonly<Record<string, string>>;
  /** The queues its menu offers (each one of the company's); on update, replacing the current ones. */
  readonly queueIds?: readonly number[];
  /** The AI assistant answering its conversations (one of the company's prompts); null: none. */
  readonly promptId?: number | null;
}

export interface CreateConnectionInput extends ConnectionFields {
  readonly actor: Actor;
  readonly kind: 'chatapp' | 'socialnet' | 'bizchat';
  readonly name: string;
}

const DEFAULT_PROVIDER = { chatapp: 'baileys', socialnet: 'messenger', bizchat: 'cloudapi' } as const;

/**
 * An admin adds a chat-application session, a social-network page or a business number to the
 * company, within the plan's connection limit. A social page must be one the page access token
 * belongs to, a business number one the access token controls in the given business account (asked
 * of the provider), and either on no other connection. The connection starts `OPENING` and its `start` command is written
 * to the outbox in the same transaction.
 */
export class CreateConnection {
  constructor(
    private readonly deps: {
      connections: Connections;
      planGuard: PlanGuard;
      /** Its token and page or number. */
      credentials: ConnectionCredentials;
      sessions: SessionCommands;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<ConnectionEvent>;
      /** Its queues and AI assistant. */
      menu: ConnectionMenu;
    },
  ) {}

  async execute(input: CreateConnectionInput): Promise<ConnectionWithQueues> {
    const { connections, planGuard, credentials, menu, sessions, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const companyId = input.actor.companyId;
    const draft: Omit<NewConnection, 'tokenDigest' | 'tokenHint' | 'createdAt' | 'updatedAt'> = {
      companyId,
      name: connectionName(input.name),
      kind: input.kind,
      provider: providerOfKind(input.kind, input.provider ?? DEFAULT_PROVIDER[input.kind], 'ERR_INVALID_PROVIDER'),
      status: 'OPENING',
      qrcode: null,
      greetingMessage: connectionText(input.greetingMessage ?? null),
      farewellMessage: connectionText(input.farewellMessage ?? null),
      outOfHoursMessage: connectionText(input.outOfHoursMessage ?? null),
      isDefault: input.isDefault ?? false,
      externalId: externalIdOf(input.externalId),
      secrets: secretsOf(input.secrets ?? {}),
      reopenWindowMinutes: reopenWindow(input.reopenWindowMinutes ?? 0),
      greetingMediaKey: null,
      promptId: await menu.prompt(companyId, input.promptId ?? null),
    };
    assertSocialCredentials(draft);
    if (input.token) assertTokenFormat(input.token);
    const queueIds = await menu.queueIds(companyId, input.queueIds ?? []);
    if (draft.kind === 'socialnet' || draft.kind === 'bizchat') {
      // A company at its limit is told so without asking the provider about the page or number.
      await planGuard.assertRoomFor(companyId, 'connections', await connections.countByCompany(companyId));
      await credentials.assertOwned(draft);
    }

    const view = await tx.run(async () => {
      await credentials.assertFree(draft, null);
      await planGuard.assertRoomFor(companyId, 'connections', await connections.countByCompany(companyId));
      const token = input.token ? await credentials.token(input.token, null) : { tokenDigest: null, tokenHint: null };
      const now = clock.now();
      const connection = await connections.add({ ...draft, ...token, createdAt: now, updatedAt: now });
      const undefaulted = connection.isDefault ? await unsetOtherDefaults(connections, clock, connection) : [];
      if (queueIds.length) await menu.setQueues(companyId, connection.id, queueIds);
      // Announced before the start command is relayed: the session's first status must come after it.
      const announced = atCommit(tx, async () => {
        const view = toConnectionView(connection);
        for (const other of undefaulted) await realtime.publish(companyId, { entity: 'chatapp', data: { action: 'update', chatapp: toConnectionView(other) } });
        await realtime.publish(companyId, { entity: 'chatapp', data: { action: 'update', chatapp: view } });
        return view;
      });
      await sessions.enqueue(connection, 'start');
      // Wrapped: a promise returned as such would make the transaction wait for its own commit.
      return { announced };
    });
    return (await menu.withQueues(companyId, [await view.announced]))[0]!;
  }
}

import { expect } from 'chai';
import { openPgliteDatabase } from '@servicedesk/adapters-persistence/testing';
import { DETACHED_CHANNEL_QUERIES, InMemoryCache, InProcessBroker, InProcessRealtimeFanout } from '@servicedesk/core';
import { InMemoryBlobStorage } from '@servicedesk/core/testing';
import { pino } from 'pino';
import { readConfig } from '../../src/config.js';
import { createContainer, resolveBackend } from '../../src/container.js';
import { databaseSchema } from '../../src/modules.js';
import { declaredCodes, routeReach, type RouteReach } from './route-error-reach.js';

/**
 * Codes the analysis reaches that can never be a route's answer, each with why. `through` is a
 * declaration on the way to the code (`file: name`), `route` the routes it holds for; a code is
 * excused only where both match.
 */
const NEVER: ReadonlyArray<{ codes: readonly string[]; through?: string; route?: RegExp; why: string }> = [
  {
    codes: ['ERR_UNKNOWN_JOB', 'ERR_INVALID_JOB_TIME', 'ERR_INVALID_JOB_KEY', 'ERR_INVALID_JOB_PAYLOAD'],
    through: 'jobs.ts: Jobs',
    why: 'enqueueing refuses only a job name without a definition, a time that is no Date, a key over 200 characters or a payload JSON cannot hold: programming errors',
  },
  {
    codes: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PLAN_FOUND'],
    through: 'plan-guard.ts: PlanGuard.planOf',
    why: "the plan checks read the caller's own company, which exists while its users can sign in, and its plan, which cannot be deleted while in use",
  },
  {
    codes: ['ERR_CONNECTION_CREATION_COUNT', 'ERR_USER_CREATION_COUNT', 'ERR_QUEUE_CREATION_COUNT'],
    through: 'plan-guard.ts: LIMIT_CODES',
    why: 'the limit table names every kind; each use case checks room for its own kind only, whose code its route declares',
  },
  {
    codes: ['ERR_NO_PERMISSION', 'ERR_CANNOT_DISABLE_OWN_COMPANY', 'ERR_CANNOT_DELETE_OWN_COMPANY'],
    route: /^\S+ \/api\/(plans|companies|helps|partners|invoices|users|contacts|messagesRange)/,
    why: 'the company API acts as PLATFORM_INTEGRATION: a super user of no company (id 0)',
  },
  {
    codes: ['ERR_BIZCHAT_WINDOW_CLOSED', 'ERR_BIZCHAT_TEMPLATE_NOT_FOUND', 'ERR_BIZCHAT_TEMPLATE_PARAMETERS', 'ERR_BIZCHAT_TOKEN_INVALID'],
    through: 'provider-errors.ts: REASONS',
    why: "a delivery report's failure reason is written onto its message, not answered",
  },
  {
    codes: ['ERR_INVALID_EMAIL', 'ERR_INVALID_NAME', 'ERR_NAME_TOO_LONG', 'ERR_INVALID_NUMBER', 'ERR_MISSING_NUMBER'],
    through: 'import-contacts.ts: StartContactImport.run',
    why: "an import checks its rows in the background: each refusal goes to the import's report",
  },
  {
    codes: ['ERR_INVALID_NAME'],
    route: /^(POST \/contacts|POST \/contact-list-items|PUT \/contact-list-items\/:id)$/,
    why: 'a new contact or list item, or an edited item, named blank takes its number as its name',
  },
  {
    codes: ['ERR_PAIRING_NOT_SUPPORTED', 'ERR_INVALID_PAIRING_PHONE_NUMBER'],
    route: /^DELETE \/chatappsession\/:chatappId$/,
    why: 'a logout takes no body, so it never carries a phone number to pair with',
  },
  {
    codes: ['ERR_TOO_MANY_LOGIN_ATTEMPTS'],
    route: /^POST \/auth\/forgot-password$/,
    why: "reset requests are counted by the login throttle's mechanism under a name and code of their own (ERR_TOO_MANY_RESET_REQUESTS); the login's are only its default",
  },
  { codes: ['ERR_IMPORT_EMPTY'], route: /^POST \/contacts\/import$/, why: 'an empty address book is an import done at once' },
  { codes: ['ERR_IMPORT_NO_FILE'], route: /^POST \/contactsImport$/, why: 'the file branch runs only when a file came' },
  {
    codes: ['ERR_IMPORT_UNKNOWN_COLUMN'],
    through: 'import-rows.ts: listRowsOfTable',
    why: "a contact list's file is read by its headers, with no mapping to name a missing column",
  },
  {
    codes: ['ERR_PAGE_ACCESS_TOKEN_INVALID', 'ERR_PAGE_IN_USE', 'ERR_PAGE_NOT_OWNED'],
    route: /^POST \/chatapp\/$/,
    why: 'it creates chat-application and business numbers, not pages',
  },
  {
    codes: ['ERR_BIZCHAT_NUMBER_IN_USE', 'ERR_BIZCHAT_NUMBER_NOT_OWNED', 'ERR_BIZCHAT_TOKEN_INVALID'],
    route: /^POST \/socialnet\/$/,
    why: 'it creates pages, not business numbers',
  },
  {
    codes: ['ERR_EMPTY_FILE', 'ERR_EMPTY_MESSAGE', 'ERR_QUOTED_MESSAGE_NOT_FOUND'],
    route: /^POST \/messages\/:ticketId\/catalog$/,
    why: "a catalog is a text with the products' stored images: no upload, no quote, never empty",
  },
  { codes: ['ERR_EMPTY_FILE'], route: /^POST \/api\/messages\/send-(button|list)$/, why: 'buttons and lists carry no media' },
  {
    codes: ['ERR_IDEMPOTENCY_KEY_REUSED', 'ERR_IDEMPOTENT_REQUEST_IN_PROGRESS'],
    through: 'send-ticket-message.ts: SendTicketMessage',
    route: /^POST \/messages\/:ticketId\/catalog$/,
    why: "a catalog send passes no idempotency key (only the operators' send reads the header)",
  },
  { codes: ['ERR_FLOW_TOO_LARGE'], route: /^DELETE \/flows\//, why: 'a removal never makes a flow larger' },
  {
    codes: ['ERR_FLOW_INVALID_GRAPH', 'ERR_FLOW_RUN_CHANGED'],
    route: /^POST \/flows\/:flowId\/execute$/,
    why: 'a published flow has its one start node (publishing checks it), and a run started in this transaction has no other writer',
  },
  {
    codes: [
      'ERR_INVALID_QUEUE_OPTION_KEY',
      'ERR_QUEUE_OPTION_ALREADY_EXISTS',
      'ERR_QUEUE_OPTION_CYCLE',
      'ERR_QUEUE_OPTION_QUEUE_MISMATCH',
      'ERR_QUEUE_REQUIRED',
      'ERR_CHATBOT_NOT_FOUND',
      'ERR_QUEUE_OPTION_NOT_FOUND',
    ],
    through: 'chatbots.ts: writeChatbotSteps',
    why: 'chatbot steps carry no key, parent or queue: keys are drawn free, and each step goes under the queue or the step just written',
  },
  { codes: ['ERR_QUEUE_OPTION_NOT_FOUND'], route: /^\S+ \/chatbot/, why: 'chatbot routes find chatbot nodes, whose absence is ERR_CHATBOT_NOT_FOUND' },
  {
    codes: ['ERR_CHATBOT_NOT_FOUND'],
    route: /^\S+ \/queue-options/,
    why: 'queue option routes find option nodes, whose absence is ERR_QUEUE_OPTION_NOT_FOUND',
  },
  { codes: ['ERR_EMPTY_FILE', 'ERR_FILE_TOO_LARGE'], route: /^DELETE \/schedules\/:id\/media-upload$/, why: 'removing the media stores none' },
  { codes: ['ERR_ORDER_OUT_OF_STOCK'], route: /^DELETE \/orders$/, why: 'deleting orders gives stock back; only taking it can run short' },
  { codes: ['ERR_NO_SETTING_FOUND'], route: /^GET \/(settings|companySettings)$/, why: "they read the caller's own company's settings" },
  { codes: ['ERR_INVALID_LOGO_MODE'], route: /^POST \/settings-whitelabel\/login$/, why: 'its target is fixed' },
  { codes: ['ERR_KANBAN_STATUS'], route: /^GET \/ticket\/kanban$/, why: 'the query schema admits only open and pending' },
  { codes: ['ERR_PASSWORD_TOO_LONG'], route: /^POST \/(auth\/signup|companies)$/, why: 'the body schema caps the password at MAX_PASSWORD_LENGTH' },
  { codes: ['ERR_INVALID_DUE_DATE'], route: /^POST \/auth\/signup$/, why: 'sign-up computes the due date from the plan' },
  { codes: ['ERR_NO_OBJSTORE_CONFIG_FOUND'], route: /^POST \/objstore-configs$/, why: 'it reads back the row it just added' },
  { codes: ['ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND'], route: /^POST \/transcription-credentials$/, why: 'it reads back the row it just added' },
  {
    codes: ['ERR_NO_COMPANY_FOUND'],
    route: /^POST \/subscription$/,
    why: "an invoice is its company's (deleting the company deletes it), paid by a user of that company",
  },
  {
    codes: ['ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND', 'ERR_NO_PERMISSION'],
    through: 'dashboard-scope.ts: figureScope',
    route: /^GET \/messages-allMe$/,
    why: 'it counts with no queue or user filter, the only input these refuse',
  },
  {
    codes: ['ERR_NO_PERMISSION'],
    through: 'connection-rules.ts: visibleConnection',
    route: /^GET \/(chatapp\/:chatappId|bizchat-templates)$/,
    why: "only reading any company's connection (the -admin routes) asks for a super user",
  },
];

/** The codes each route can answer but neither declares nor has excused, with the way to each. */
export function undeclared(reach: readonly RouteReach[], declaredOf: (key: string) => Set<string> | null): string[] {
  return reach.flatMap((r) => {
    const declared = declaredOf(r.key);
    if (!declared) return [`${r.key} (${r.file}): no such route at run time`];
    return [...r.codes]
      .filter(
        ([code, way]) =>
          !declared.has(code) &&
          !NEVER.some((n) => n.codes.includes(code) && (!n.through || way.some((step) => step.includes(n.through!))) && (!n.route || n.route.test(r.key))),
      )
      .map(([code, way]) => `${r.key}: ${code} (${way.join(' > ')})`);
  });
}

describe('Architecture: every code a route can answer is declared', () => {
  it('each route declares the codes its handler and the use cases it calls can raise (or they are excused, with why)', async function () {
    this.timeout(60_000);
    const db = await openPgliteDatabase(databaseSchema());
    try {
      const { routes, app } = resolveBackend(
        createContainer({
          config: readConfig({ JWT_SECRET: 'test-secret-test-secret-test-secret-0123', DATA_DIR: '/tmp/unused' }),
          infra: {
            db,
            cache: new InMemoryCache(),
            blobs: new InMemoryBlobStorage(),
            fanout: new InProcessRealtimeFanout(),
            broker: new InProcessBroker(),
            async close() {
              await db.close();
            },
          },
          jwtSecret: 'test-secret-test-secret-test-secret-0123',
          channelQueries: DETACHED_CHANNEL_QUERIES,
          startedAt: new Date(),
          version: '0.0.0',
          log: pino({ level: 'silent' }),
        }),
      );
      const reach = routeReach(app as unknown as Record<string, Record<string, unknown>>);
      const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
      // Every route is found in its file (but the two the registry adds itself: the reference page), and every call traced to its use case.
      expect(routes.map((r) => `${r.method} ${r.path}`).filter((k) => !reach.some((r) => r.key === k))).to.deep.equal(['GET /', 'POST /']);
      expect(reach.filter((r) => r.untraced.length).map((r) => `${r.key}: ${r.untraced.join(', ')}`)).to.deep.equal([]);
      expect(reach.filter((r) => r.codes.size).length, 'the analysis reaches codes at all').to.be.greaterThan(250);
      // The case that showed the gap (issue 37): a row limit checked in the use case an import route calls, two calls away.
      expect([...(reach.find((r) => r.key === 'POST /contacts/import')?.codes.keys() ?? [])]).to.include('ERR_IMPORT_TOO_MANY_ROWS');
      expect(
        undeclared(reach, (key) => {
          const r = byKey.get(key);
          return r ? declaredCodes(r) : null;
        }),
      ).to.deep.equal([]);
    } finally {
      await db.close();
    }
  });

  it('(finds a code reached through a use case and one named in the handler, and honours an excuse only where it applies)', () => {
    const reach: RouteReach[] = [
      {
        key: 'POST /contacts/import',
        file: 'f.ts',
        untraced: [],
        codes: new Map([
          ['ERR_IMPORT_TOO_MANY_ROWS', ['contacts.importAddressBook']],
          ['ERR_IMPORT_EMPTY', ['x']],
        ]),
      },
      { key: 'POST /contactsImport', file: 'f.ts', untraced: [], codes: new Map([['ERR_IMPORT_EMPTY', ['f.ts: ArrowFunction']]]) },
      { key: 'GET /gone', file: 'f.ts', untraced: [], codes: new Map() },
    ];
    expect(undeclared(reach, (key) => (key === 'GET /gone' ? null : new Set<string>()))).to.deep.equal([
      'POST /contacts/import: ERR_IMPORT_TOO_MANY_ROWS (contacts.importAddressBook)',
      'POST /contactsImport: ERR_IMPORT_EMPTY (f.ts: ArrowFunction)',
      'GET /gone (f.ts): no such route at run time',
    ]);
  });
});

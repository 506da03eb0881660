import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const CONSOLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(CONSOLE, '../..');

const OFFICIAL_API = 'the official message API: integrators call it with a connection’s token (the settings screen shows the token and a curl line)';
const COMPANY_API =
  'the company integration API: the platform’s own integrations call it with the platform token; super users do the same through the screens’ routes';
const ONE_RECORD = 'one record that the screen’s list already carries in full, kept fresh by its frames';
const LINEAGE_SHAPE = 'the lineage client’s shape of the company settings, which the settings screen reads and writes through /settings';
const WHOLE_GRAPH = 'the flow editor saves the whole draft with its version (PUT /flows/:flowId/graph), so that a change made elsewhere is caught once';
const PROVIDER = 'called by a provider (WhatsApp Cloud API, Meta, the payment gateway, the channel runtime), never by a browser';

/**
 * The routes no screen calls, each with the reason. Everything else in `spec/routes.tsv` is called
 * by the console, from the screen of the profile allowed to use it.
 */
const NOT_CALLED: Readonly<Record<string, string>> = {
  'POST /api/messages/send': OFFICIAL_API,
  'POST /api/messages/send-button': OFFICIAL_API,
  'POST /api/messages/send-list': OFFICIAL_API,
  'POST /api/messages/send/linkImage': OFFICIAL_API,
  'POST /api/messages/checkNumber': OFFICIAL_API,
  'GET /': PROVIDER,
  'POST /': PROVIDER,
  'GET /webhook/': PROVIDER,
  'POST /webhook/': PROVIDER,
  'POST /api/chatapp-microservice/webhook': PROVIDER,
  'POST /subscription/create/webhook': PROVIDER,
  'POST /subscription/return/<RETURN_TOKEN>/pix': PROVIDER,
  'DELETE /subscription/create/webhook':
    'stops taking the gateway’s notifications: a platform operator’s step when the gateway is changed, done with the platform token rather than from a screen',
  'GET /api/plans': COMPANY_API,
  'GET /api/plans/:id': COMPANY_API,
  'POST /api/plans': COMPANY_API,
  'PUT /api/plans/:id': COMPANY_API,
  'DELETE /api/plans/:id': COMPANY_API,
  'GET /api/companies': COMPANY_API,
  'GET /api/companies/:id': COMPANY_API,
  'GET /api/companiesEmail/:email': COMPANY_API,
  'POST /api/companies': COMPANY_API,
  'PUT /api/companies/:id': COMPANY_API,
  'PUT /api/companies/:id/schedules': COMPANY_API,
  'DELETE /api/companies/:id': COMPANY_API,
  'GET /api/helps': COMPANY_API,
  'GET /api/helps/:id': COMPANY_API,
  'POST /api/helps': COMPANY_API,
  'PUT /api/helps/:id': COMPANY_API,
  'DELETE /api/helps/:id': COMPANY_API,
  'GET /api/partners': COMPANY_API,
  'GET /api/partners/:id': COMPANY_API,
  'POST /api/partners': COMPANY_API,
  'PUT /api/partners/:id': COMPANY_API,
  'DELETE /api/partners/:id': COMPANY_API,
  'GET /api/invoices': COMPANY_API,
  'GET /api/invoices/:id': COMPANY_API,
  'GET /api/invoicesCompany/:companyId': COMPANY_API,
  'POST /api/invoices': COMPANY_API,
  'PUT /api/invoices/:id': COMPANY_API,
  'DELETE /api/invoices/:id': COMPANY_API,
  'GET /api/users/:email': COMPANY_API,
  'GET /api/contacts': COMPANY_API,
  'GET /api/contacts-count': COMPANY_API,
  'GET /api/messagesRange': COMPANY_API,
  'GET /auth/me': 'the session takes the user from the sign-in and from each refresh, which answer the same record',
  'PUT /users/toggleChangeWidht/:userId': 'the lineage client’s ticket-list width; the console’s layout follows the window',
  'GET /companies': 'the platform screen reads GET /companiesPlan: the same companies, paged, with their plans',
  'GET /plans/all': 'the plans screen reads GET /plans, every plan for a super user with every field',
  'GET /plans/:id': ONE_RECORD,
  'POST /settings/privateFile': 'a platform payment certificate that nothing in the platform reads yet',
  'GET /companySettings': LINEAGE_SHAPE,
  'GET /companySettingOne/': LINEAGE_SHAPE,
  'PUT /companySettings/': LINEAGE_SHAPE,
  'GET /contactTags/:contactId': 'a contact’s tags come with the contact (GET /contacts/:contactId, the contacts pages)',
  'GET /tickets/u/:uuid': 'the lineage’s shared links by uuid; the console’s addresses name the ticket’s id',
  'GET /chatapp/filter': 'the connections screen filters the list it reads (GET /chatapp/) in the page',
  'GET /chatapp/:chatappId': ONE_RECORD,
  'GET /queue/user': 'the queues a user is in come with the user (GET /users/list) and with the session',
  'GET /queue/:queueId': ONE_RECORD,
  'GET /queue-options/:queueOptionId': ONE_RECORD,
  'GET /queueIntegration/:integrationId': ONE_RECORD,
  'GET /tags/:tagId': ONE_RECORD,
  'DELETE /tags-contacts/:tagId/:contactId': 'a contact’s tags are set as a whole (POST /tags/sync), which removes one as well',
  'GET /chatbot': 'chatbots are the queues’ option trees under the lineage’s name: the queues screen reads them with the queues',
  'GET /chatbot/:chatbotId': ONE_RECORD,
  'GET /campaigns/list': 'the campaigns screen reads GET /campaigns, paged, with the same rows',
  'GET /contact-lists/:id': ONE_RECORD,
  'GET /contact-list-items/list': 'a list’s numbers are read paged (GET /contact-list-items)',
  'GET /contact-list-items/:id': ONE_RECORD,
  'GET /announcements/:id': ONE_RECORD,
  'GET /files/:fileId': ONE_RECORD,
  'GET /prompt/:promptId': ONE_RECORD,
  'GET /products/:productId': ONE_RECORD,
  'GET /products/import/:id': 'an import is followed through GET /products/import/status and its productImport frames',
  'GET /categories': 'the catalog reads GET /categories/all, every category at once (one level)',
  'GET /order-settings/:id': ONE_RECORD,
  'GET /invoices/:Invoiceid': ONE_RECORD,
  'PUT /invoices/:id': 'a super user’s correction of an invoice: the platform’s integrations make it through the company API (PUT /api/invoices/:id)',
  'POST /version': 'the lineage client’s check of its own version; the console is served by the backend it talks to, from the same build',
  'PUT /contact-wallet/:contactId':
    'the same change as PUT /contact-sellers/assign/:contactId, which the contact form calls (and which lets operators assign too)',
  'GET /dashboard/moments': 'the same answer as GET /usersMoments, which the dashboard’s “Now” panel reads',
  'POST /dashboard/clear-cache':
    'POST /dashboard/refresh-views (the dashboard’s “Update the figures now”) recomputes the figures and clears the same cached answers',
  'POST /flows/:flowId/nodes': WHOLE_GRAPH,
  'PUT /flows/:flowId/nodes/:nodeId': WHOLE_GRAPH,
  'DELETE /flows/:flowId/nodes/:nodeId': WHOLE_GRAPH,
  'POST /flows/:flowId/edges': WHOLE_GRAPH,
  'DELETE /flows/:flowId/edges/:edgeId': WHOLE_GRAPH,
};

/** `METHOD /path` with every parameter written `:x`, so the console’s `{ticketId}` (or `${id}`) and the list’s `:ticketId` meet. */
const key = (method: string, p: string) => `${method.toUpperCase()} ${(p.replace(/\/+$/, '') || '/').replace(/(:\w+|\$\{[^}]+\}|\{\w+\}|<\w+>)/g, ':x')}`;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.gen.ts') ? [full] : [];
  });
}

/**
 * The calls the console's sources make: through the typed client (`api.GET('/path/{id}', …)`) and
 * the few made with `fetch` before there is a session (`fetch(`${base}/auth/login`, { method })`).
 */
function consoleCalls(): Map<string, string[]> {
  const calls = new Map<string, string[]>();
  const add = (k: string, file: string) => calls.set(k, [...(calls.get(k) ?? []), path.relative(CONSOLE, file)]);
  for (const file of sources(path.join(CONSOLE, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bapi\s*\.(GET|POST|PUT|DELETE|PATCH)\(\s*'([^']+)'/g)) add(key(m[1]!, m[2]!), file);
    for (const m of text.matchAll(/\bfetch\(\s*`\$\{[^}]+\}(\/[^`?]*)[^`]*`(\s*,\s*\{[^}]*?method:\s*'(\w+)')?/g)) add(key(m[3] ?? 'GET', m[1]!), file);
  }
  return calls;
}

function specRoutes(): Array<{ key: string; line: string }> {
  const [, ...rows] = readFileSync(path.join(ROOT, 'spec/routes.tsv'), 'utf8').trim().split('\n');
  return rows.map((row) => {
    const [method, p] = row.split('\t');
    return { key: key(method!, p!), line: `${method} ${p}` };
  });
}

describe('console: the routes it calls', () => {
  const calls = consoleCalls();
  const routes = specRoutes();

  it('calls every route of spec/routes.tsv from a screen, but those listed with the reason no screen calls them', () => {
    const uncalled = routes.filter((r) => !calls.has(r.key) && !(r.line in NOT_CALLED)).map((r) => r.line);
    expect(uncalled, 'routes no screen calls (call them, or list them in NOT_CALLED with the reason)').to.deep.equal([]);
  });

  it('lists as not called only routes that exist and that no screen calls', () => {
    const known = new Set(routes.map((r) => r.line));
    expect(
      Object.keys(NOT_CALLED).filter((line) => !known.has(line)),
      'not in spec/routes.tsv',
    ).to.deep.equal([]);
    const called = Object.keys(NOT_CALLED).filter((line) => {
      const [method, p] = line.split(' ');
      return calls.has(key(method!, p!));
    });
    expect(called, 'called after all: take them out of NOT_CALLED').to.deep.equal([]);
  });

  it('calls nothing that is not a route', () => {
    const known = new Set(routes.map((r) => r.key));
    expect([...calls.keys()].filter((k) => !known.has(k))).to.deep.equal([]);
  });
});

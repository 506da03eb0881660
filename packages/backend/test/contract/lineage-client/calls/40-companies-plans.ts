import { COMPANY_TOKEN } from '../../../support/test-backend.js';
import type { CallerApis, ClientCalls, Params } from '../client-call.js';

let made = 0;
/** A company of its own (with its admin), to edit or delete. */
async function makeCompany(api: CallerApis['super']): Promise<number> {
  made += 1;
  const res = await api.post('/companies', { name: `Empresa Temp ${made}`, email: `temp${made}@empresas.test`, password: 'company-pass-1', planId: 1 });
  if (res.status !== 201) throw new Error(`POST /companies → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.company.id as number;
}

/** A company as the company manager's form holds it when a row is selected (components/CompaniesManager). */
async function selectedRecord(api: CallerApis['super'], companyId: number): Promise<Params> {
  const rows = (await api.get('/companies/list')).body as Array<Record<string, any>>;
  const row = rows.find((r) => r.id === companyId)!;
  return {
    record: JSON.stringify({
      id: row.id,
      name: row.name || '',
      phone: row.phone || '',
      email: row.email || '',
      planId: row.planId || '',
      status: row.status !== false,
      dueDate: row.dueDate || '',
      recurrence: row.recurrence || '',
      password: '',
      document: row.document || '',
      paymentMethod: row.paymentMethod || '',
    }),
  };
}

/**
 * The super user's companies and plans: the companies page and its modal (pages/Companies,
 * components/CompaniesModal), the company and plan managers of the settings page
 * (components/CompaniesManager, components/PlansManager), and the invoices page (pages/Financeiro).
 */
export default {
  area: 'companies and plans',
  prepare: async (_p, api) => {
    // An invoice for the invoices page, billed through the company integration API.
    const res = await api.public.post(
      '/api/invoices',
      { companyId: _p.companyId, detail: 'Plano Profissional, março', value: 199.9, dueDate: '2030-03-10' },
      { authorization: `Bearer ${COMPANY_TOKEN}` },
    );
    if (res.status !== 201) throw new Error(`POST /api/invoices → ${res.status} ${JSON.stringify(res.body)}`);
    return {};
  },
  calls: [
    {
      page: 'pages/Companies',
      method: 'GET',
      path: '/companiesPlan',
      as: 'super',
      query: { searchParam: '', pageNumber: 1 },
      reads: [
        'companies[].id',
        'companies[].status',
        'companies[].name',
        'companies[].email',
        'companies[].createdAt',
        'companies[].dueDate',
        'companies[].recurrence',
        'companies[].lastLogin',
        'companies[].plan',
        'hasMore',
      ],
    },
    {
      page: 'components/CompaniesModal (open)',
      method: 'GET',
      path: '/companies/listPlan/:companyId',
      as: 'super',
      reads: ['id', 'name', 'email', 'status', 'plan.name'],
    },
    {
      page: 'components/CompaniesModal (create)',
      method: 'POST',
      path: '/companies',
      as: 'super',
      body: {
        name: 'Empresa Rápida',
        email: 'rapida@empresas.test',
        passwordDefault: 'quick-pass-123',
        numberAttendants: 1,
        numberConections: 1,
        status: false,
      },
      reads: ['company.id'],
      note: "The quick form has no plan: the company gets the first plan; `passwordDefault` is its admin's password.",
    },
    {
      page: 'components/CompaniesModal (edit)',
      method: 'PUT',
      path: '/companies/:editedCompanyId',
      as: 'super',
      setup: async (_p, api) => {
        const editedCompanyId = await makeCompany(api.super);
        const opened = await api.super.get(`/companies/listPlan/${editedCompanyId}`);
        return { editedCompanyId, opened: JSON.stringify(opened.body) };
      },
      body: (p: Params) => {
        const blankForm = { name: '', email: '', passwordDefault: '', numberAttendants: 1, numberConections: 1, status: false };
        return { ...blankForm, ...JSON.parse(String(p.opened)), name: 'Empresa Editada' };
      },
      reads: ['id', 'name'],
      note: 'The modal sends the opened record (with its `plan` and `schedules`) merged over its blank form.',
    },
    {
      page: 'pages/Companies (delete)',
      method: 'DELETE',
      path: '/companies/:doomedCompanyId',
      as: 'super',
      setup: async (_p, api) => ({ doomedCompanyId: await makeCompany(api.super) }),
    },
    {
      page: 'components/CompaniesManager',
      method: 'GET',
      path: '/companies/list',
      as: 'super',
      returns: 'array',
      reads: [
        '[].id',
        '[].name',
        '[].email',
        '[].phone',
        '[].planId',
        '[].plan.name',
        '[].plan.amount',
        '[].status',
        '[].createdAt',
        '[].dueDate',
        '[].recurrence',
        '[].lastLogin',
        '[].document',
        '[].paymentMethod',
      ],
    },
    {
      page: 'components/CompaniesManager (plans select)',
      method: 'GET',
      path: '/plans/all',
      as: 'super',
      returns: 'array',
      reads: ['[].id', '[].name'],
    },
    {
      page: 'components/CompaniesManager (create)',
      method: 'POST',
      path: '/companies',
      as: 'super',
      body: (p: Params) => ({
        name: 'Empresa Completa',
        email: 'completa@empresas.test',
        phone: '',
        planId: p.planId,
        status: true,
        dueDate: '2030-12-31',
        recurrence: 'MENSAL',
        password: 'complete-pass-1',
        document: '',
        paymentMethod: '',
        campaignsEnabled: true,
      }),
      reads: ['company.id'],
    },
    {
      page: 'components/CompaniesManager (create, no due date)',
      method: 'POST',
      path: '/companies',
      as: 'super',
      body: (p: Params) => ({
        name: 'Empresa Sem Data',
        email: 'semdata@empresas.test',
        phone: '',
        planId: p.planId,
        status: true,
        dueDate: null,
        recurrence: '',
        password: 'nodate-pass-1',
        document: '',
        paymentMethod: '',
      }),
      note: 'Empty fields come as `""` (the due date as null when not valid).',
    },
    {
      page: 'components/CompaniesManager (edit)',
      method: 'PUT',
      path: '/companies/:editedCompanyId',
      as: 'super',
      setup: async (_p, api) => {
        const editedCompanyId = await makeCompany(api.super);
        return { editedCompanyId, ...(await selectedRecord(api.super, editedCompanyId)) };
      },
      body: (p: Params) => ({ ...JSON.parse(String(p.record)), phone: '5511940001234', recurrence: 'ANUAL', dueDate: '2031-01-31' }),
      reads: ['id', 'phone', 'recurrence', 'dueDate'],
    },
    {
      page: 'components/CompaniesManager (delete)',
      method: 'DELETE',
      path: '/companies/:doomedCompanyId',
      as: 'super',
      setup: async (_p, api) => ({ doomedCompanyId: await makeCompany(api.super) }),
    },
    {
      page: 'components/PlansManager',
      method: 'GET',
      path: '/plans/all',
      as: 'super',
      returns: 'array',
      reads: [
        '[].id',
        '[].name',
        '[].users',
        '[].connections',
        '[].queues',
        '[].amount',
        '[].isPublic',
        '[].useCampaigns',
        '[].useSchedules',
        '[].useInternalChat',
        '[].useExternalApi',
        '[].useKanban',
        '[].useOpenAi',
        '[].useIntegrations',
      ],
    },
    {
      page: 'components/PlansManager (create)',
      method: 'POST',
      path: '/plans',
      as: 'super',
      body: {
        name: 'Plano Contrato',
        users: 5,
        connections: 2,
        queues: 4,
        amount: '149.90',
        useChatapp: true,
        useSocialnet: true,
        useCampaigns: true,
        useSchedules: true,
        useInternalChat: true,
        useExternalApi: true,
        useKanban: true,
        useOpenAi: true,
        useIntegrations: true,
        isPublic: true,
      },
      reads: ['id', 'name'],
      note:
        'The form also sends the channel flags (`useWhatsapp`, `useFacebook`, `useInstagram` in the lineage: `useChatapp`, `useSocialnet`); ' +
        'plans do not limit channels here, so they are ignored.',
    },
    {
      page: 'components/PlansManager (edit)',
      method: 'PUT',
      path: '/plans/:editedPlanId',
      as: 'super',
      setup: async (_p, api) => {
        const created = await api.super.post('/plans', { name: 'Plano Para Editar', users: 3, connections: 1, queues: 2, amount: '99.00' });
        if (created.status !== 201) throw new Error(`POST /plans → ${created.status} ${JSON.stringify(created.body)}`);
        return { editedPlanId: created.body.id as number, opened: JSON.stringify(created.body) };
      },
      body: (p: Params) => ({ ...JSON.parse(String(p.opened)), users: 6, amount: 120 }),
      reads: ['id', 'users', 'amount'],
      note: 'The form sends the selected row back whole, with the numbers it edited.',
    },
    {
      page: 'components/PlansManager (delete)',
      method: 'DELETE',
      path: '/plans/:doomedPlanId',
      as: 'super',
      setup: async (_p, api) => {
        const created = await api.super.post('/plans', { name: 'Plano Para Apagar', users: 1, connections: 1, queues: 1, amount: '10.00' });
        if (created.status !== 201) throw new Error(`POST /plans → ${created.status} ${JSON.stringify(created.body)}`);
        return { doomedPlanId: created.body.id as number };
      },
    },
    {
      page: 'pages/Financeiro',
      method: 'GET',
      path: '/invoices',
      query: { searchParam: '', pageNumber: 1 },
      reads: ['invoices[].id', 'invoices[].detail', 'invoices[].dueDate', 'invoices[].value', 'invoices[].status', 'hasMore'],
    },
  ],
} satisfies ClientCalls;

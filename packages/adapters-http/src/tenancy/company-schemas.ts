import { z } from 'zod';
import { userViewSchema } from '../identity/user-schemas.js';
import { planViewExample, planViewSchema } from './plan-schemas.js';

/** The JSON views of the tenancy feature's companies, shared by the company and company-API routes. */

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

const time = (which: string, example: string) => z.string().meta({ description: `HH:MM, ${which}; empty when the range is unused`, example });

export const businessHoursSchema = z
  .object({
    weekday: z.string().meta({ description: 'Day name as the editor shows it', example: 'Segunda-feira' }),
    weekdayEn: z.enum(weekdays),
    startTimeA: time('start of the first range', '08:00'),
    endTimeA: time('end of the first range', '12:00'),
    startTimeB: time('start of the second range', '13:00'),
    endTimeB: time('end of the second range', '18:00'),
  })
  .meta({
    id: 'BusinessHours',
    description: "A day of a company's business hours: up to two ranges, as the lineage's hours editor reads and sends them",
    example: { weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' },
  });

const names = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'];
const exampleWeek = weekdays.map((weekdayEn, i) => ({
  weekday: names[i]!,
  weekdayEn,
  startTimeA: i === 0 || i === 6 ? '' : '08:00',
  endTimeA: i === 0 || i === 6 ? '' : '12:00',
  startTimeB: i === 0 || i === 6 ? '' : '13:00',
  endTimeB: i === 0 || i === 6 ? '' : '18:00',
}));

export const companyViewExample = {
  id: 3,
  name: 'Acme Atendimento',
  email: 'contato@acme.com.br',
  phone: '+55 11 4000-1234',
  document: '11222333000181',
  status: true,
  planId: 2,
  dueDate: '2025-02-28',
  recurrence: 'MENSAL',
  paymentMethod: null,
  schedules: exampleWeek,
  createdAt: '2025-01-02T09:30:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
};

/** `toCompanyView`. */
export const companyViewSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    document: z.string().nullable().meta({ description: 'CNPJ (14 digits) or CPF (11 digits), digits only' }),
    status: z.boolean().meta({ description: 'Inactive companies cannot log in (super users excepted)' }),
    planId: z.number().int().positive(),
    dueDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable()
      .meta({ description: 'Day (YYYY-MM-DD) the current period is paid until' }),
    recurrence: z.string().meta({ description: 'Billing period, one of the `Recurrence` values', example: 'MENSAL' }),
    paymentMethod: z.string().nullable(),
    schedules: z.array(businessHoursSchema).meta({ description: 'Business hours, one entry per weekday' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Company', description: 'A tenant of the platform', example: companyViewExample });

/** `ListCompanies`: one page. */
export const companyPageSchema = z
  .object({
    companies: z.array(companyViewSchema),
    count: z.number().int().nonnegative().meta({ description: 'Companies matching the search, all pages' }),
    hasMore: z.boolean().meta({ description: 'Whether a next page exists' }),
  })
  .meta({ id: 'CompanyPage', description: 'A page of companies', example: { companies: [companyViewExample], count: 1, hasMore: false } });

export const companyWithPlanExample = { ...companyViewExample, plan: planViewExample };

/** `ShowCompanyWithPlan` / `ListCompaniesWithPlans`. */
export const companyWithPlanSchema = companyViewSchema
  .extend({
    plan: planViewSchema.nullable().meta({ description: "The company's plan (null if it was removed)" }),
  })
  .meta({ id: 'CompanyWithPlan', description: 'A company with its plan, so the frontend knows its features and limits', example: companyWithPlanExample });

const companyRowExample = { ...companyWithPlanExample, lastLogin: '2025-01-31T12:00:00.000Z' };

/** `ListAllCompanies` / `ListCompaniesWithPlans`: a company as the super user's lists show it. */
export const companyRowSchema = companyWithPlanSchema
  .extend({
    lastLogin: z.iso.datetime().nullable().meta({ description: 'When one of its users last logged in (null: never)' }),
  })
  .meta({ id: 'CompanyRow', description: 'A company with its plan and last login', example: companyRowExample });

export const companyRowListSchema = z.array(companyRowSchema).meta({
  id: 'CompanyRowList',
  description: 'Every company with its plan',
  example: [companyRowExample],
});

export const companyRowPageSchema = z
  .object({
    companies: z.array(companyRowSchema),
    count: z.number().int().nonnegative().meta({ description: 'Companies matching the search, all pages' }),
    hasMore: z.boolean().meta({ description: 'Whether a next page exists' }),
  })
  .meta({ id: 'CompanyRowPage', description: 'A page of companies with their plans', example: { companies: [companyRowExample], count: 1, hasMore: false } });

/** `CompanyOnboarding.onboard`: sign-up and company creation. */
export const onboardedCompanySchema = z
  .object({
    company: companyViewSchema,
    user: userViewSchema,
  })
  .meta({
    id: 'OnboardedCompany',
    description: 'A new company (`company`) and its first admin (`user`)',
    example: {
      company: companyViewExample,
      user: {
        id: 12,
        companyId: 3,
        name: 'João Lima',
        email: 'joao@acme.com.br',
        profile: 'admin',
        mustChangePassword: false,
        online: false,
        profileImage: null,
        allTicket: 'enable',
        defaultTicketsManagerWidth: 550,
        defaultTheme: 'light',
        defaultMenu: 'open',
        startWork: null,
        endWork: null,
        farewellMessage: null,
        chatappId: null,
        allHistoric: 'disabled',
        allUserChat: 'disabled',
        userClosePendingTicket: 'enabled',
        showDashboard: 'disabled',
        allowRealTime: 'disabled',
        allowConnections: 'disabled',
        allowGroup: false,
        super: false,
        lastLoginAt: null,
        createdAt: '2025-01-31T12:00:00.000Z',
        updatedAt: '2025-01-31T12:00:00.000Z',
      },
    },
  });

/** `GetCompanyDiskUsage`. */
export const companyDiskUsageSchema = z
  .object({
    companyId: z.number().int().positive(),
    publicBytes: z.number().int().nonnegative().meta({ description: 'Bytes of public uploads (avatars, media)' }),
    privateBytes: z.number().int().nonnegative().meta({ description: 'Bytes of private uploads' }),
    totalBytes: z.number().int().nonnegative(),
  })
  .meta({
    id: 'CompanyDiskUsage',
    description: 'Bytes of uploads stored for a company',
    example: { companyId: 3, publicBytes: 1_048_576, privateBytes: 20_480, totalBytes: 1_069_056 },
  });

/** `LookupCnpj`: what the public registry knows of a CNPJ. */
export const cnpjRecordSchema = z
  .object({
    cnpj: z
      .string()
      .regex(/^\d{14}$/)
      .meta({ description: 'The 14 digits' }),
    name: z.string().meta({ description: 'Legal name (razão social)' }),
    tradeName: z.string().nullable().meta({ description: 'Trade name (nome fantasia)' }),
    status: z.string().nullable().meta({ description: 'Registration status, as the registry words it' }),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: z.record(z.string(), z.string().nullable()).meta({
      description: 'Address parts: `street`, `number`, `district`, `city`, `state`, `zip` (null when unknown)',
    }),
  })
  .meta({
    id: 'CnpjRecord',
    description: 'A company as the public CNPJ registry knows it',
    example: {
      cnpj: '11222333000181',
      name: 'ACME ATENDIMENTO LTDA',
      tradeName: 'Acme',
      status: 'ATIVA',
      email: 'contato@acme.com.br',
      phone: '1140001234',
      address: { street: 'Avenida Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310100' },
    },
  });

import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { email, id } from '../http/schemas.js';
import { cnpjRecordSchema, onboardedCompanySchema } from '../tenancy/company-schemas.js';

/**
 * The public onboarding routes under `/auth`: a company signing itself up with its first admin, and
 * the CNPJ lookup its form uses. Like core's `onboarding/`, they sit above tenancy, whose company schemas they answer with.
 */
export function signupRoutes(app: Pick<Application, 'tenancy'>) {
  const tag = 'Auth';
  return [
    route({
      method: 'POST',
      path: '/auth/signup',
      auth: 'none',
      tag,
      summary: 'Create a company on a public plan with its admin',
      status: 201,
      body: z
        .object({
          companyName: z.string().trim().min(2).max(120).meta({ description: "The new company's name", example: 'Loja Exemplo' }),
          name: z.string().trim().min(2).max(120).meta({ description: "The first admin's name", example: 'Ana Souza' }),
          email: email.meta({
            description: "The first admin's login e-mail, also the company's; stored in lower case and must not belong to any user yet",
            example: 'ana@lojaexemplo.com.br',
          }),
          password: z.string().min(8).max(128).meta({ description: "The first admin's password", example: 'correct-horse-42' }),
          phone: z
            .string()
            .trim()
            .max(40)
            .optional()
            .meta({ description: "The company's phone, as typed; absent or blank: none", example: '+55 11 98765-4321' }),
          document: z.string().trim().max(20).optional().meta({
            description: 'A CPF (11 digits) or a CNPJ (14 digits with valid check digits), punctuation allowed and stored as digits; absent or blank: none',
            example: '11.222.333/0001-81',
          }),
          planId: id.meta({ description: 'A public plan (see `GET /plans/list`); a trial plan sets the due date at the end of its trial', example: 1 }),
        })
        .meta({
          example: {
            companyName: 'Loja Exemplo',
            name: 'Ana Souza',
            email: 'ana@lojaexemplo.com.br',
            password: 'correct-horse-42',
            phone: '+55 11 98765-4321',
            document: '11.222.333/0001-81',
            planId: 1,
          },
        }),
      description:
        'Public self-service sign-up: a new company on a public plan (a trial plan sets the due date at the end of the trial) ' +
        "with its first admin, whose e-mail is also the company's. Super users can turn it off with the platform setting `userCreation`.",
      response: onboardedCompanySchema,
      errors: [
        { status: 403, codes: ['ERR_SIGNUP_DISABLED'] },
        { status: 404, codes: ['ERR_NO_PLAN_FOUND'] },
        { status: 409, codes: ['ERR_EMAIL_ALREADY_EXISTS'] },
        { status: 422, codes: ['ERR_INVALID_COMPANY_NAME', 'ERR_INVALID_NAME', 'ERR_PASSWORD_TOO_SHORT', 'ERR_INVALID_EMAIL', 'ERR_INVALID_DOCUMENT'] },
      ],
      handler: async ({ body }) => app.tenancy.signup.execute(body),
    }),
    route({
      method: 'GET',
      path: '/auth/consulta-cnpj/:cnpj',
      auth: 'none',
      tag,
      summary: 'Validate a CNPJ and look it up in the registry',
      description: 'Public. The check digits are validated offline first (`ERR_INVALID_CNPJ`), so a typo never reaches the registry.',
      params: z.object({
        cnpj: z.string().max(30).meta({ description: 'The CNPJ, with or without its punctuation (`.`, `/`, `-`)', example: '11222333000181' }),
      }),
      response: cnpjRecordSchema,
      errors: [
        { status: 404, codes: ['ERR_CNPJ_NOT_FOUND'] },
        { status: 422, codes: ['ERR_INVALID_CNPJ'] },
        { status: 503, codes: ['ERR_CNPJ_REGISTRY_UNAVAILABLE'] },
      ],
      handler: async ({ params }) => app.tenancy.lookupCnpj.execute({ cnpj: params.cnpj }),
    }),
  ];
}

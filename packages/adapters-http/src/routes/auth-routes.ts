import type { Application } from '@servicedesk/core';
import type { Context } from 'koa';
import { z } from 'zod';
import { route } from '../http/route.js';
import { email, id, password } from '../http/schemas.js';

export const REFRESH_COOKIE = 'jrt';

function setRefreshCookie(ctx: Context, token: string, expires: Date) {
  ctx.cookies.set(REFRESH_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/auth', expires, overwrite: true });
}

function clearRefreshCookie(ctx: Context) {
  ctx.cookies.set(REFRESH_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/auth', expires: new Date(0), overwrite: true });
}

/** Auth: login, refresh rotation, logout, the current user, sign-up and the CNPJ check. */
export function authRoutes(app: Application) {
  const tag = 'Auth';
  return [
    route({
      method: 'POST', path: '/auth/login', auth: 'none', tag, summary: 'Log in with e-mail and password',
      body: z.object({ email: z.string().trim().min(1).max(254), password }),
      handler: async ({ body, ctx }) => {
        const result = await app.login.execute({ email: body.email, password: body.password, ip: ctx.ip });
        setRefreshCookie(ctx, result.refreshToken, result.refreshExpiresAt);
        return { token: result.token, user: result.user, mustChangePassword: result.user.mustChangePassword };
      },
    }),
    route({
      method: 'POST', path: '/auth/refresh_token', auth: 'none', tag, summary: 'Rotate the refresh cookie and get a new access token',
      handler: async ({ ctx }) => {
        try {
          const result = await app.refreshToken.execute({ refreshToken: ctx.cookies.get(REFRESH_COOKIE) });
          setRefreshCookie(ctx, result.refreshToken, result.refreshExpiresAt);
          return { token: result.token, user: result.user };
        } catch (err) {
          clearRefreshCookie(ctx);
          throw err;
        }
      },
    }),
    route({
      method: 'DELETE', path: '/auth/logout', auth: 'isAuth', tag, summary: 'End the current session', duringPasswordChange: true,
      handler: async ({ actor, ctx }) => {
        await app.logout.execute({ actor, refreshToken: ctx.cookies.get(REFRESH_COOKIE) });
        clearRefreshCookie(ctx);
        return { message: 'Logged out' };
      },
    }),
    route({
      method: 'GET', path: '/auth/me', auth: 'isAuth', tag, summary: 'The signed-in user',
      handler: async ({ actor }) => app.getCurrentUser.execute({ actor }),
    }),
    route({
      method: 'POST', path: '/auth/signup', auth: 'none', tag, summary: 'Create a company on a public plan with its admin', status: 201,
      body: z.object({
        companyName: z.string().trim().min(2).max(120),
        name: z.string().trim().min(2).max(120),
        email,
        password: z.string().min(8).max(128),
        phone: z.string().trim().max(40).optional(),
        document: z.string().trim().max(20).optional(),
        planId: id,
      }),
      handler: async ({ body }) => app.signup.execute(body),
    }),
    route({
      method: 'GET', path: '/auth/consulta-cnpj/:cnpj', auth: 'none', tag, summary: 'Validate a CNPJ and look it up in the registry',
      params: z.object({ cnpj: z.string().max(30) }),
      handler: async ({ params }) => app.lookupCnpj.execute({ cnpj: params.cnpj }),
    }),
  ];
}

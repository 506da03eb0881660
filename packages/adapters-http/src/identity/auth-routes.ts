import type { Application } from '@servicedesk/core';
import type { Context } from 'koa';
import { z } from 'zod';
import { route } from '../http/route.js';
import { password } from '../http/schemas.js';
import { loginResultSchema, refreshResultSchema, userDetailsSchema } from './user-schemas.js';

export const REFRESH_COOKIE = 'jrt';

function setRefreshCookie(ctx: Context, token: string, expires: Date) {
  ctx.cookies.set(REFRESH_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/auth', expires, overwrite: true });
}

function clearRefreshCookie(ctx: Context) {
  ctx.cookies.set(REFRESH_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/auth', expires: new Date(0), overwrite: true });
}

/** Auth: login, refresh rotation, logout, the current user and the forgotten password (sign-up: onboarding/signup-routes.ts). */
export function authRoutes(app: Pick<Application, 'identity'>) {
  const tag = 'Auth';
  return [
    route({
      method: 'POST',
      path: '/auth/login',
      auth: 'none',
      tag,
      summary: 'Log in with e-mail and password',
      description:
        'Public. Answers an access token and the user (with their queues and company), and sets the refresh token in the httpOnly `jrt` cookie (path `/auth`). ' +
        "Attempts are counted per e-mail and address before the password is checked (a success clears the e-mail's count); " +
        'past five per e-mail or 30 per address in 15 minutes they answer 429. Users of an inactive company cannot log in (super users excepted).',
      body: z
        .object({
          email: z.string().trim().min(1).max(254).meta({ description: "The user's e-mail, matched ignoring case", example: 'ana@lojaexemplo.com.br' }),
          password: password.meta({ description: "The user's password", example: 'correct-horse-42' }),
        })
        .meta({ example: { email: 'ana@lojaexemplo.com.br', password: 'correct-horse-42' } }),
      response: loginResultSchema,
      errors: [
        { status: 401, codes: ['ERR_INVALID_CREDENTIALS'] },
        { status: 403, codes: ['ERR_COMPANY_INACTIVE', 'ERR_COMPANY_SUSPENDED'] },
        { status: 429, codes: ['ERR_TOO_MANY_LOGIN_ATTEMPTS'] },
      ],
      handler: async ({ body, ctx }) => {
        const result = await app.identity.login.execute({ email: body.email, password: body.password, ip: ctx.ip });
        setRefreshCookie(ctx, result.refreshToken, result.refreshExpiresAt);
        return { token: result.token, user: result.user, mustChangePassword: result.user.mustChangePassword };
      },
    }),
    route({
      method: 'POST',
      path: '/auth/refresh_token',
      auth: 'none',
      tag,
      summary: 'Rotate the refresh cookie and get a new access token',
      description:
        'Public; reads the `jrt` cookie, replaces it with a rotated one and answers a new access token. ' +
        'The token rotated away last still answers the same new pair for 30 s (two tabs refreshing at once); presenting it later, ' +
        'or an older one, revokes every session of the user (`ERR_REFRESH_TOKEN_REUSED`). On any failure the cookie is cleared.',
      response: refreshResultSchema,
      errors: [
        { status: 401, codes: ['ERR_SESSION_EXPIRED', 'ERR_REFRESH_TOKEN_REUSED'] },
        { status: 403, codes: ['ERR_COMPANY_SUSPENDED'] },
      ],
      handler: async ({ ctx }) => {
        try {
          const result = await app.identity.refreshToken.execute({ refreshToken: ctx.cookies.get(REFRESH_COOKIE) });
          setRefreshCookie(ctx, result.refreshToken, result.refreshExpiresAt);
          return { token: result.token, user: result.user };
        } catch (err) {
          clearRefreshCookie(ctx);
          throw err;
        }
      },
    }),
    route({
      method: 'DELETE',
      path: '/auth/logout',
      auth: 'isAuth',
      tag,
      summary: 'End the current session',
      duringPasswordChange: true,
      description:
        'Any signed-in user, also before the default password is changed. Revokes the refresh session of the `jrt` cookie, ' +
        'clears the cookie and marks the user offline.',
      response: z
        .object({ message: z.string().meta({ example: 'Logged out' }) })
        .meta({ id: 'LoggedOut', description: 'The session ended', example: { message: 'Logged out' } }),
      handler: async ({ actor, ctx }) => {
        await app.identity.logout.execute({ actor, refreshToken: ctx.cookies.get(REFRESH_COOKIE) });
        clearRefreshCookie(ctx);
        return { message: 'Logged out' };
      },
    }),
    route({
      method: 'GET',
      path: '/auth/me',
      auth: 'isAuth',
      tag,
      summary: 'The signed-in user',
      description: 'Any signed-in user: their own record with their queues and company, as login answers it.',
      response: userDetailsSchema,
      errors: [{ status: 404, codes: ['ERR_NO_USER_FOUND'] }],
      handler: async ({ actor }) => app.identity.getCurrentUser.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/auth/forgot-password',
      auth: 'none',
      tag,
      summary: 'Ask for a password-reset link by e-mail',
      status: 202,
      description:
        'Public. Answers 202 the same way whether or not the e-mail belongs to a user (nobody learns which addresses have accounts); ' +
        'when it does, a link to `<CONSOLE_URL>/app/reset-password?token=…` that works once for 30 minutes is e-mailed to it (a newer request replaces it), ' +
        'in the first of English, Portuguese (Brazil) or Spanish that `Accept-Language` names. ' +
        'Requests are counted per e-mail and per address: past three per e-mail or 20 per address in an hour they answer 429. ' +
        'Without SMTP set up (`SMTP_HOST`) it answers 503 `ERR_MAIL_NOT_CONFIGURED`: an administrator sets the password on the users screen instead.',
      body: z
        .object({
          email: z
            .string()
            .trim()
            .min(1)
            .max(254)
            .meta({ description: 'The e-mail the account signs in with, matched ignoring case', example: 'ana@lojaexemplo.com.br' }),
        })
        .meta({ example: { email: 'ana@lojaexemplo.com.br' } }),
      response: z.object({ message: z.string().meta({ example: 'If this e-mail belongs to an account, a reset link is on its way' }) }).meta({
        id: 'PasswordResetRequested',
        description: 'The request was taken (the same answer for any e-mail)',
        example: { message: 'If this e-mail belongs to an account, a reset link is on its way' },
      }),
      errors: [
        { status: 429, codes: ['ERR_TOO_MANY_RESET_REQUESTS'] },
        { status: 503, codes: ['ERR_MAIL_NOT_CONFIGURED'] },
      ],
      handler: async ({ body, ctx }) => {
        await app.identity.requestPasswordReset.execute({ email: body.email, ip: ctx.ip, acceptLanguage: ctx.get('accept-language') || undefined });
        return { message: 'If this e-mail belongs to an account, a reset link is on its way' };
      },
    }),
    route({
      method: 'POST',
      path: '/auth/reset-password',
      auth: 'none',
      tag,
      summary: 'Set a new password with an e-mailed reset token',
      description:
        'Public. The token of a link `POST /auth/forgot-password` e-mailed, used once: the password follows the rules of every password ' +
        '(checked before the token is used), `mustChangePassword` is cleared and every session of the user ends, as a password change does. ' +
        'Answers the e-mail to sign in with.',
      body: z
        .object({
          token: z.string().min(1).max(200).meta({ description: 'The `token` of the reset link', example: 'q3V0c2VjcmV0LXRva2VuLWV4YW1wbGUtMzItYnl0ZXM' }),
          password: password.meta({ description: 'The new password (8 to 128 characters)', example: 'correct-horse-42' }),
        })
        .meta({ example: { token: 'q3V0c2VjcmV0LXRva2VuLWV4YW1wbGUtMzItYnl0ZXM', password: 'correct-horse-42' } }),
      response: z
        .object({ email: z.string().meta({ description: 'The e-mail of the account whose password was set', example: 'ana@lojaexemplo.com.br' }) })
        .meta({ id: 'PasswordReset', description: 'The password was set; sign in with it', example: { email: 'ana@lojaexemplo.com.br' } }),
      errors: [{ status: 422, codes: ['ERR_PASSWORD_TOO_SHORT', 'ERR_PASSWORD_TOO_LONG', 'ERR_RESET_TOKEN_INVALID', 'ERR_RESET_TOKEN_EXPIRED'] }],
      handler: async ({ body }) => app.identity.resetPassword.execute({ token: body.token, password: body.password }),
    }),
  ];
}

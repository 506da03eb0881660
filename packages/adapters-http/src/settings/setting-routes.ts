import { MAX_PRIVATE_FILE_BYTES, MAX_WHITELABEL_BYTES, settingDefinition, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id } from '../http/schemas.js';
import {
  bareSettingValueSchema,
  companySettingOneSchema,
  companySettingsObjectSchema,
  privateSettingFileSchema,
  settingListSchema,
  settingViewSchema,
} from './setting-schemas.js';

const noSetting = { status: 404, codes: ['ERR_NO_SETTING_FOUND'] } as const;
const superOnly = { status: 403, codes: ['ERR_NO_PERMISSION'] } as const;
const badValue = { status: 422, codes: ['ERR_SETTING_VALUE_NOT_ALLOWED', 'ERR_SETTING_VALUE_TOO_LONG', 'ERR_SETTING_SET_BY_UPLOAD'] } as const;
const settingEvent = "Emits the realtime event `settings` with `{ action: 'update', setting }` to the company.";
const imageErrors = [superOnly, { status: 413, codes: ['ERR_FILE_TOO_LARGE'] }, { status: 422, codes: ['ERR_NO_FILE', 'ERR_FILE_TYPE_NOT_ALLOWED'] }] as const;

const settingKey = (description: string, example: string) => z.object({ settingKey: z.string().min(1).max(60).meta({ description, example }) });
const companyKey = settingKey('A key of the company catalog (`userRating`, `timezone`…), case-sensitive', 'userRating');
const anyKey = settingKey('A key of the company catalog, or a platform key (`userCreation`, `appName`, colours, logos)', 'userRating');
const globalKey = settingKey('A key of the platform catalog (`userCreation`, `appName`, `primaryColorLight`…), case-sensitive', 'appName');
const publicKey = settingKey(
  'A public platform key: `userCreation` (or `allowSignup`), `appName`, `primaryColorLight`, `primaryColorDark`, `appLogoLight`, `appLogoDark`, `appLogoFavicon`, `loginBackground`',
  'primaryColorLight',
);
const settingValue = z
  .union([z.string().max(4000), z.number(), z.boolean()])
  .transform(String)
  .meta({
    description:
      "The new value, stored as text (a number or boolean is turned into text); it must fit the key's rule: `enabled`/`disabled` switches, " +
      '`true`/`false` flags, whole numbers in range, `#rrggbb` colours, an IANA time zone, text up to the key\'s length; `""` on a file key removes the file',
    example: 'enabled',
  });
const value = z.object({ value: settingValue });
/** A file-only form: no field but the file. */
const fileOnly = z.object({}).meta({ description: 'No form field besides `file`', example: {} });

/** A JSON string as the body (the lineage's client reads `data` as the value itself). */
function bare(ctx: { type: string }, text: string): string {
  ctx.type = 'application/json';
  return JSON.stringify(text);
}

/**
 * Settings. `/settings` and `/companySettings` are the caller's company settings (two shapes of
 * the same allow-listed keys); `/setting` is platform-wide; `/public-settings` feeds the login page.
 */
export function settingRoutes(app: Pick<Application, 'settings'>) {
  const tag = 'Settings';
  return [
    route({
      method: 'GET',
      path: '/settings',
      auth: 'isAuth',
      tag,
      summary: "The company's settings as a list, with the public platform ones",
      description:
        'Any signed-in user: every company setting of the catalog, its stored value or its default, followed by the public ' +
        'platform settings (white label and `userCreation`, as `/public-settings` answers them) that the settings page shows.',
      response: settingListSchema,
      handler: async ({ actor }) => [...(await app.settings.companySettings.list({ actor })), ...(await app.settings.globalSettings.publicList())],
    }),
    route({
      method: 'GET',
      path: '/settings/:settingKey',
      auth: 'isAuth',
      tag,
      summary: 'One company setting',
      params: companyKey,
      description: 'Any signed-in user: one key of the company catalog, stored value or default.',
      response: settingViewSchema,
      errors: [noSetting],
      handler: async ({ actor, params }) => app.settings.companySettings.one({ actor, key: params.settingKey }),
    }),
    route({
      method: 'PUT',
      path: '/settings/:settingKey',
      auth: 'isAuth',
      tag,
      summary: 'Change a company setting (admin) or a platform one (super)',
      params: anyKey,
      body: value.meta({ example: { value: 'enabled' } }),
      description:
        "A company key: admins, for their company; the value is checked against the key's rule (allowed values, length, range). " +
        settingEvent +
        ' A platform key (`userCreation`, white label; the body may repeat the `key`): super users, as `PUT /setting/:settingKey`; ' +
        'a logo key takes only `""`, which removes the logo.',
      response: settingViewSchema,
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION'] }, noSetting, badValue],
      handler: async ({ actor, params, body }) =>
        settingDefinition(params.settingKey, 'global')
          ? app.settings.globalSettings.update({ actor, key: params.settingKey, value: body.value })
          : app.settings.updateCompanySetting.execute({ actor, key: params.settingKey, value: body.value }),
    }),
    route({
      method: 'GET',
      path: '/setting/:settingKey',
      auth: 'isAuth',
      tag,
      summary: 'One platform-wide setting',
      params: globalKey,
      description: 'Any signed-in user: one key of the platform catalog (private file settings are never shown).',
      response: settingViewSchema,
      errors: [noSetting],
      handler: async ({ params }) => app.settings.globalSettings.get({ key: params.settingKey, publicOnly: false }),
    }),
    route({
      method: 'PUT',
      path: '/setting/:settingKey',
      auth: 'isAuth',
      tag,
      summary: 'Change a platform-wide setting (super)',
      params: globalKey,
      body: value.meta({ example: { value: 'Acme Atendimento' } }),
      description: "Super users only; the value is checked against the key's rule. File settings are set by upload instead.",
      response: settingViewSchema,
      errors: [superOnly, noSetting, badValue],
      handler: async ({ actor, params, body }) => app.settings.globalSettings.update({ actor, key: params.settingKey, value: body.value }),
    }),
    route({
      method: 'GET',
      path: '/public-settings/:settingKey',
      auth: 'none',
      tag,
      summary: 'A login-page setting (white label, sign-up): the bare value',
      params: publicKey,
      description:
        'Public: only the platform keys marked public (app name, colours, logos, login background, `userCreation`, also asked as ' +
        '`allowSignup`). Answers the value itself as a JSON string (`"#2563eb"`); an unset logo is `""`, so the page falls back to its own. ' +
        'A logo is its path under `/public/`. Query parameters (the lineage sends `token`) are ignored.',
      response: bareSettingValueSchema,
      errors: [noSetting],
      handler: async ({ params, ctx }) => bare(ctx, (await app.settings.globalSettings.get({ key: params.settingKey, publicOnly: true })).value),
    }),
    route({
      method: 'POST',
      path: '/settings-whitelabel/logo',
      auth: 'isAuth',
      tag,
      summary: 'Upload a logo: field `file`, field `mode` Light|Dark|Favicon (super)',
      multipart: { fileFields: ['file'], maxFileBytes: MAX_WHITELABEL_BYTES, maxFiles: 1 },
      body: z
        .object({
          mode: z
            .string()
            .max(20)
            .meta({ description: 'Which logo: `Light`, `Dark` or `Favicon` (any case); anything else is 422 `ERR_INVALID_LOGO_MODE`', example: 'Light' }),
        })
        .meta({ example: { mode: 'Light' } }),
      description:
        'Super users only. PNG, JPEG or WebP up to 2 MiB (the favicon: PNG or ICO); stored publicly, its path under `/public/` becomes ' +
        'the value of `appLogoLight`, `appLogoDark` or `appLogoFavicon` and is the answer (a JSON string, as the white-label page reads it); ' +
        'the previous image is removed. Other form fields (`typeArch`) are ignored.',
      response: bareSettingValueSchema,
      errors: [...imageErrors, { status: 422, codes: ['ERR_INVALID_LOGO_MODE'] }],
      handler: async ({ actor, body, multipart, ctx }) =>
        bare(ctx, (await app.settings.uploadWhitelabelImage.execute({ actor, target: 'logo', mode: body.mode, file: multipart.files.file?.[0] })).value),
    }),
    route({
      method: 'POST',
      path: '/settings-whitelabel/login',
      auth: 'isAuth',
      tag,
      summary: 'Upload the login background: field `file` (super)',
      multipart: { fileFields: ['file'], maxFileBytes: MAX_WHITELABEL_BYTES, maxFiles: 1 },
      body: fileOnly,
      description: 'Super users only. PNG, JPEG or WebP up to 2 MiB; stored publicly, its path under `/public/` becomes the value of `loginBackground`.',
      response: settingViewSchema,
      errors: imageErrors,
      handler: async ({ actor, multipart }) => app.settings.uploadWhitelabelImage.execute({ actor, target: 'login', file: multipart.files.file?.[0] }),
    }),
    route({
      method: 'POST',
      path: '/settings/privateFile',
      auth: 'isAuth',
      tag,
      summary: 'Upload a private file for a setting: fields `file`, `settingKey` (super)',
      multipart: { fileFields: ['file'], maxFileBytes: MAX_PRIVATE_FILE_BYTES, maxFiles: 1 },
      body: z
        .object({
          settingKey: z
            .string()
            .min(1)
            .max(60)
            .meta({ description: 'The private file setting the file is for (`paymentCertificate`)', example: 'paymentCertificate' }),
        })
        .meta({ example: { settingKey: 'paymentCertificate' } }),
      description:
        'Super users only. Any file up to 5 MiB for a private file setting (a payment certificate); it is kept out of public storage ' +
        'and its location is never answered.',
      response: privateSettingFileSchema,
      errors: [superOnly, noSetting, { status: 413, codes: ['ERR_FILE_TOO_LARGE'] }, { status: 422, codes: ['ERR_NO_FILE'] }],
      handler: async ({ actor, body, multipart }) =>
        app.settings.uploadPrivateSettingFile.execute({ actor, settingKey: body.settingKey, file: multipart.files.file?.[0] }),
    }),
    route({
      method: 'GET',
      path: '/companySettings',
      auth: 'isAuth',
      tag,
      summary: "The company's settings as one object",
      description: 'Any signed-in user: the same values as `GET /settings`, as one object keyed by setting.',
      response: companySettingsObjectSchema,
      handler: async ({ actor }) => app.settings.companySettings.asObject({ actor }),
    }),
    route({
      method: 'GET',
      path: '/companySettings/:companyId',
      auth: 'isAuth',
      tag,
      summary: "A company's settings (own, or any for super)",
      params: z.object({ companyId: id.meta({ description: "The company's id: the caller's own, or any for super users", example: 3 }) }),
      description: 'Any user for their own company; super users for any company. Another company answers 404.',
      response: companySettingsObjectSchema,
      errors: [noSetting],
      handler: async ({ actor, params }) => app.settings.companySettings.asObject({ actor, companyId: params.companyId }),
    }),
    route({
      method: 'GET',
      path: '/companySettingOne/',
      auth: 'isAuth',
      tag,
      summary: 'One company setting, by `column`',
      query: z.object({ column: z.string().min(1).max(60).meta({ description: 'A key of the company catalog, case-sensitive', example: 'userRating' }) }),
      description: 'Any signed-in user: `{ <column>: <value> }` for one key of the company catalog (a boolean for the yes/no keys).',
      response: companySettingOneSchema,
      errors: [noSetting],
      handler: async ({ actor, query }) => app.settings.companySettings.oneAsObject({ actor, key: query.column }),
    }),
    route({
      method: 'PUT',
      path: '/companySettings/',
      auth: 'isAuth',
      tag,
      summary: 'Change one company setting: `{column, data}` (admin)',
      body: z
        .object({
          column: z.string().min(1).max(60).meta({ description: 'A key of the company catalog, case-sensitive', example: 'timezone' }),
          data: settingValue,
        })
        .meta({ example: { column: 'timezone', data: 'America/Sao_Paulo' } }),
      description: 'Admins, for their company: the same as `PUT /settings/:settingKey` with the key in `column` and the value in `data`. ' + settingEvent,
      response: settingViewSchema,
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION'] }, noSetting, badValue],
      handler: async ({ actor, body }) => app.settings.updateCompanySetting.execute({ actor, key: body.column, value: body.data }),
    }),
  ];
}

import { MAX_PRIVATE_FILE_BYTES, MAX_WHITELABEL_BYTES, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id } from '../http/schemas.js';

const key = z.object({ settingKey: z.string().min(1).max(60) });
const value = z.object({ value: z.union([z.string().max(4000), z.number(), z.boolean()]).transform(String) });

/**
 * Settings. `/settings` and `/companySettings` are the caller's company settings (two shapes of
 * the same allow-listed keys); `/setting` is platform-wide; `/public-settings` feeds the login page.
 */
export function settingRoutes(app: Application) {
  const tag = 'Settings';
  return [
    route({
      method: 'GET', path: '/settings', auth: 'isAuth', tag, summary: "The company's settings as a list",
      handler: async ({ actor }) => app.companySettings.list({ actor }),
    }),
    route({
      method: 'GET', path: '/settings/:settingKey', auth: 'isAuth', tag, summary: 'One company setting', params: key,
      handler: async ({ actor, params }) => app.companySettings.one({ actor, key: params.settingKey }),
    }),
    route({
      method: 'PUT', path: '/settings/:settingKey', auth: 'isAuth', tag, summary: 'Change a company setting (admin)', params: key, body: value,
      handler: async ({ actor, params, body }) => app.updateCompanySetting.execute({ actor, key: params.settingKey, value: body.value }),
    }),
    route({
      method: 'GET', path: '/setting/:settingKey', auth: 'isAuth', tag, summary: 'One platform-wide setting', params: key,
      handler: async ({ params }) => app.globalSettings.get({ key: params.settingKey, publicOnly: false }),
    }),
    route({
      method: 'PUT', path: '/setting/:settingKey', auth: 'isAuth', tag, summary: 'Change a platform-wide setting (super)', params: key, body: value,
      handler: async ({ actor, params, body }) => app.globalSettings.update({ actor, key: params.settingKey, value: body.value }),
    }),
    route({
      method: 'GET', path: '/public-settings/:settingKey', auth: 'none', tag, summary: 'A login-page setting (white label, sign-up)', params: key,
      handler: async ({ params }) => app.globalSettings.get({ key: params.settingKey, publicOnly: true }),
    }),
    route({
      method: 'POST', path: '/settings-whitelabel/logo', auth: 'isAuth', tag, summary: 'Upload a logo: field `file`, field `mode` Light|Dark|Favicon (super)',
      multipart: { fileFields: ['file'], maxFileBytes: MAX_WHITELABEL_BYTES, maxFiles: 1 }, body: z.object({ mode: z.string().max(20) }),
      handler: async ({ actor, body, multipart }) => app.uploadWhitelabelImage.execute({ actor, target: 'logo', mode: body.mode, file: multipart.files.file?.[0] }),
    }),
    route({
      method: 'POST', path: '/settings-whitelabel/login', auth: 'isAuth', tag, summary: 'Upload the login background: field `file` (super)',
      multipart: { fileFields: ['file'], maxFileBytes: MAX_WHITELABEL_BYTES, maxFiles: 1 },
      handler: async ({ actor, multipart }) => app.uploadWhitelabelImage.execute({ actor, target: 'login', file: multipart.files.file?.[0] }),
    }),
    route({
      method: 'POST', path: '/settings/privateFile', auth: 'isAuth', tag, summary: 'Upload a private file for a setting: fields `file`, `settingKey` (super)',
      multipart: { fileFields: ['file'], maxFileBytes: MAX_PRIVATE_FILE_BYTES, maxFiles: 1 }, body: z.object({ settingKey: z.string().min(1).max(60) }),
      handler: async ({ actor, body, multipart }) => app.uploadPrivateSettingFile.execute({ actor, settingKey: body.settingKey, file: multipart.files.file?.[0] }),
    }),
    route({
      method: 'GET', path: '/companySettings', auth: 'isAuth', tag, summary: "The company's settings as one object",
      handler: async ({ actor }) => app.companySettings.asObject({ actor }),
    }),
    route({
      method: 'GET', path: '/companySettings/:companyId', auth: 'isAuth', tag, summary: "A company's settings (own, or any for super)",
      params: z.object({ companyId: id }),
      handler: async ({ actor, params }) => app.companySettings.asObject({ actor, companyId: params.companyId }),
    }),
    route({
      method: 'GET', path: '/companySettingOne/', auth: 'isAuth', tag, summary: 'One company setting, by `column`',
      query: z.object({ column: z.string().min(1).max(60) }),
      handler: async ({ actor, query }) => {
        const setting = await app.companySettings.one({ actor, key: query.column });
        return { [setting.key]: setting.value };
      },
    }),
    route({
      method: 'PUT', path: '/companySettings/', auth: 'isAuth', tag, summary: 'Change one company setting: `{column, data}` (admin)',
      body: z.object({ column: z.string().min(1).max(60), data: value.shape.value }),
      handler: async ({ actor, body }) => app.updateCompanySetting.execute({ actor, key: body.column, value: body.data }),
    }),
  ];
}

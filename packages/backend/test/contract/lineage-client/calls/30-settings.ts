import type { ClientCall, ClientCalls, Params } from '../client-call.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/**
 * Each option of the settings page saves its own key with `{ column, data }` (components/Settings/Options).
 * The values sent are the defaults, so that the shared company behaves as before for the other areas.
 */
const OPTIONS: ReadonlyArray<[string, string | boolean]> = [
  ['userRating', 'disabled'],
  ['scheduleType', 'disabled'],
  ['chatBotType', 'text'],
  ['lgpdMessage', ''],
  ['transferMessage', ''],
  ['greetingAcceptedMessage', ''],
  ['AcceptCallWhatsappMessage', ''],
  ['sendQueuePositionMessage', ''],
  ['lgpdLink', ''],
  ['lgpdDeleteMessage', 'disabled'],
  ['lgpdConsent', 'disabled'],
  ['lgpdHideNumber', 'disabled'],
  ['sendGreetingAccepted', 'disabled'],
  ['userRandom', 'disabled'],
  ['sendMsgTransfTicket', 'disabled'],
  ['sendSignMessage', 'enabled'],
  ['sendGreetingMessageOneQueues', 'enabled'],
  ['sendQueuePosition', 'disabled'],
  ['sendFarewellWaitingTicket', 'disabled'],
  ['acceptAudioMessageContact', 'enabled'],
  ['enableLGPD', 'disabled'],
  ['requiredTag', 'disabled'],
  // Yes/no selects: the client sends (and compares) JSON booleans.
  ['showNotificationPending', true],
  ['closeTicketOnTransfer', false],
  ['DirectTicketsToWallets', false],
];

const optionCalls: ClientCall[] = OPTIONS.map(([column, data]) => ({
  page: `components/Settings/Options (${column})`,
  method: 'PUT',
  path: '/companySettings',
  body: { column, data },
}));

/** The week as the hours editor sends it (components/SchedulesForm inside pages/SettingsCustom). */
const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekdayEn, i) => ({
  weekday: weekdayEn,
  weekdayEn,
  startTimeA: i < 5 ? '08:00' : '',
  endTimeA: i < 5 ? '12:00' : '',
  startTimeB: i < 5 ? '13:00' : '',
  endTimeB: i < 5 ? '18:00' : '',
}));

/** The settings page (pages/SettingsCustom: options, hours, white label) and the one-setting reads of other screens. */
export default {
  area: 'settings',
  calls: [
    { page: 'pages/SettingsCustom', method: 'GET', path: '/companies/:companyId', reads: ['id', 'schedules'] },
    {
      page: 'pages/SettingsCustom',
      method: 'GET',
      path: '/companySettings/:companyId',
      reads: ['scheduleType', 'userRating', 'chatBotType', 'sendSignMessage', 'closeTicketOnTransfer', 'showNotificationPending', 'DirectTicketsToWallets'],
      note: 'One object; the yes/no options are JSON booleans (their selects hold `true`/`false`).',
    },
    {
      page: 'pages/SettingsCustom',
      method: 'GET',
      path: '/settings',
      returns: 'array',
      reads: ['[].key', '[].value'],
      note: 'Passed to the options (`userCreation`) and to the white label tab (colours, logos, name), found by `key`.',
    },
    {
      page: 'pages/SettingsCustom (super)',
      method: 'GET',
      path: '/settings',
      as: 'super',
      returns: 'array',
      reads: ['[].key', '[].value'],
    },
    {
      page: 'pages/SettingsCustom (hours)',
      method: 'PUT',
      path: '/companies/:companyId/schedules',
      body: (p: Params) => ({ id: p.companyId, schedules: week }),
      reads: ['id', 'schedules[].weekdayEn', 'schedules[].startTimeA', 'schedules[].endTimeA', 'schedules[].startTimeB', 'schedules[].endTimeB'],
      note: 'The editor sends each day with two ranges (`A`, `B`) and reads them back the same way.',
    },
    {
      page: 'components/Settings/Options (userCreation)',
      method: 'PUT',
      path: '/settings/userCreation',
      as: 'super',
      body: { key: 'userCreation', value: 'enabled' },
      note: 'A platform setting, saved by the super user through the company settings path.',
    },
    ...optionCalls,
    {
      page: 'components/Settings/Whitelabel (colour)',
      method: 'PUT',
      path: '/settings/primaryColorLight',
      as: 'super',
      body: { key: 'primaryColorLight', value: '#2563eb' },
    },
    {
      page: 'components/Settings/Whitelabel (colour)',
      method: 'PUT',
      path: '/settings/primaryColorDark',
      as: 'super',
      body: { key: 'primaryColorDark', value: '#60a5fa' },
    },
    {
      page: 'components/Settings/Whitelabel (name)',
      method: 'PUT',
      path: '/settings/appName',
      as: 'super',
      body: { key: 'appName', value: 'Service Desk' },
    },
    {
      page: 'components/Settings/Whitelabel (logo)',
      method: 'POST',
      path: '/settings-whitelabel/logo',
      as: 'super',
      form: { fields: { typeArch: 'logo', mode: 'Light' }, files: [{ field: 'file', name: 'logo.png', type: 'image/png', content: PNG }] },
      returns: 'string',
      note: 'The client keeps the answer as the setting value and shows `<backend>/public/<answer>`.',
    },
    {
      page: 'components/Settings/Whitelabel (remove logo)',
      method: 'PUT',
      path: '/settings/appLogoLight',
      as: 'super',
      body: { key: 'appLogoLight', value: '' },
      note: 'The delete button saves an empty value: the logo goes, the pages fall back to their bundled one.',
    },
    {
      page: 'hooks/useAuth (getCurrentUserInfo, white label tab)',
      method: 'GET',
      path: '/auth/me',
      as: 'super',
      reads: ['super'],
    },
    {
      page: 'components/NotificationsPopOver',
      method: 'GET',
      path: '/companySettingOne',
      as: 'user',
      query: { column: 'showNotificationPending' },
      reads: ['showNotificationPending'],
      note: 'Compared with `true`: a JSON boolean.',
    },
    {
      page: 'components/TicketActionButtonsCustom',
      method: 'GET',
      path: '/companySettingOne',
      as: 'user',
      query: { column: 'requiredTag' },
      reads: ['requiredTag'],
    },
    {
      page: 'components/WhatsAppModal (connection form)',
      method: 'GET',
      path: '/companySettingOne',
      query: { column: 'scheduleType' },
      reads: ['scheduleType'],
    },
    {
      page: 'components/WhatsAppModal (connection form)',
      method: 'GET',
      path: '/companySettingOne',
      query: { column: 'userRating' },
      reads: ['userRating'],
    },
  ],
} satisfies ClientCalls;

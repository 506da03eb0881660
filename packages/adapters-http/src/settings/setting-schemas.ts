import { z } from 'zod';

/** The JSON views of the settings feature. */

export const settingViewSchema = z
  .object({
    key: z.string().meta({ description: 'An allow-listed setting key', example: 'userRating' }),
    value: z.string().meta({ description: "The stored value, or the key's default; always a string", example: 'enabled' }),
  })
  .meta({ id: 'Setting', description: 'One setting and its value', example: { key: 'userRating', value: 'enabled' } });

export const settingListSchema = z.array(settingViewSchema).meta({
  id: 'SettingList',
  description: 'Every company setting of the catalog, stored value or default',
  example: [
    { key: 'userRating', value: 'disabled' },
    { key: 'scheduleType', value: 'company' },
    { key: 'timezone', value: 'America/Sao_Paulo' },
  ],
});

export const companySettingsObjectSchema = z.record(z.string(), z.union([z.string(), z.boolean()])).meta({
  id: 'CompanySettingsObject',
  description:
    'The company settings as one object: `companyId` (as a string) and a property per catalog key, a string value ' +
    '(a boolean for the yes/no keys `closeTicketOnTransfer`, `showNotificationPending`, `DirectTicketsToWallets`)',
  example: { companyId: '3', userRating: 'disabled', scheduleType: 'company', timezone: 'America/Sao_Paulo', closeTicketOnTransfer: false },
});

export const companySettingOneSchema = z.record(z.string(), z.union([z.string(), z.boolean()])).meta({
  id: 'CompanySettingOne',
  description: 'One company setting as `{ key: value }` (a boolean for the yes/no keys)',
  example: { userRating: 'disabled' },
});

export const bareSettingValueSchema = z.string().meta({
  id: 'BareSettingValue',
  description: 'The value itself, as a JSON string',
  example: '#2563eb',
});

export const privateSettingFileSchema = z
  .object({
    key: z.string().meta({ example: 'paymentCertificate' }),
    stored: z.literal(true),
    size: z.number().int().positive().meta({ description: 'Bytes stored' }),
  })
  .meta({
    id: 'PrivateSettingFile',
    description: 'A private file stored for a platform setting (its location is never shown)',
    example: { key: 'paymentCertificate', stored: true, size: 2048 },
  });

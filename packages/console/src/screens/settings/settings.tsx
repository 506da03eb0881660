import type { SettingDefinition } from '@servicedesk/core/settings/catalog';
import { useQuery } from '@tanstack/react-query';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { admins } from '../nav.js';
import { BusinessHours } from './business-hours.js';
import { companySettingsBySubject, controlOf } from './catalog.js';
import { MessageApi } from './message-api.js';
import { strings } from './strings.js';
import { SettingField } from './setting-field.js';
import { PlatformSettings, WhiteLabel } from './white-label.js';
import '../../ui/admin.css';
import './settings.css';

type Setting = Schema<'Setting'>;

/** Every company setting with the public platform ones (`GET /settings`); settings frames refetch it. */
export function useSettingList() {
  const { api } = useServices();
  return useQuery({ queryKey: keys.settingList, queryFn: () => must(api.GET('/settings')) });
}

/** The value of one key in the list, or its catalog default while the list loads. */
export function valueIn(list: readonly Setting[] | undefined, def: Pick<SettingDefinition, 'key' | 'defaultValue'>): string {
  return list?.find((s) => s.key === def.key)?.value ?? def.defaultValue;
}

/**
 * `/settings`, for the company's admins: every company setting of the catalog by subject, each
 * saved on change (`PUT /settings/:settingKey`); the business hours; each connection's message API
 * token; and, for the platform's super users, the white label's images. An operator is told the
 * screen is for admins (the server refuses their changes anyway).
 */
export function Settings() {
  const { t } = useScreenStrings('settings', strings);
  const session = useSession();
  if (!session || !admins(session.user)) {
    return (
      <section className="admin-screen" aria-labelledby="settings-title">
        <h1 id="settings-title">{t('title')}</h1>
        <p className="placeholder">{t('adminsOnly')}</p>
      </section>
    );
  }
  return <SettingsScreen companyId={session.user.companyId} isSuper={session.user.super === true} />;
}

function SettingsScreen({ companyId, isSuper }: { companyId: number; isSuper: boolean }) {
  const { t } = useScreenStrings('settings', strings);
  const list = useSettingList();
  const groups = companySettingsBySubject();
  return (
    <section className="admin-screen settings-screen" aria-labelledby="settings-title">
      <header className="admin-header">
        <h1 id="settings-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </header>
      {list.error && <FormError text={errorText(t, list.error)} />}
      {groups.map((group) => (
        <section key={group.subject} className="settings-group" aria-labelledby={`settings-${group.subject}`}>
          <h2 id={`settings-${group.subject}`}>{t(`subjects.${group.subject}`)}</h2>
          <div className="settings-grid">
            {group.settings.map((def) => {
              const control = controlOf(def);
              return control && <SettingField key={def.key} def={def} control={control} value={valueIn(list.data, def)} loaded={list.isSuccess} />;
            })}
          </div>
          {group.subject === 'hours' && (
            <BusinessHours
              companyId={companyId}
              zone={list.data?.find((s) => s.key === 'timezone')?.value || undefined}
              scheduleType={list.data?.find((s) => s.key === 'scheduleType')?.value}
            />
          )}
        </section>
      ))}
      <MessageApi />
      {isSuper && <PlatformSettings />}
      {isSuper && <WhiteLabel settings={list.data} />}
    </section>
  );
}

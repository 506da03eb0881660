import type { SettingDefinition } from '@servicedesk/core/settings/catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { Field } from '../../ui/form.js';
import { ACTED_ON, type Control } from './catalog.js';
import { strings } from './strings.js';

type Setting = Schema<'Setting'>;

/** The zones this browser knows, with the stored one even if it does not. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

/**
 * One setting: its label, its explanation and its control, saved at once when it changes (a switch
 * or a list as soon as it is set, a number or a text when the field is left); "Saved" or the
 * server's refusal beside it. A text being typed keeps what was typed, even when another admin's
 * change arrives meanwhile; otherwise the stored value is shown.
 */
export function SettingField({
  def,
  control,
  value,
  loaded,
  platform = false,
}: {
  def: SettingDefinition;
  control: Control;
  value: string;
  loaded: boolean;
  /** A platform-wide key, saved by `PUT /setting/:settingKey` (super users) rather than the company's route. */
  platform?: boolean;
}) {
  const { t, i18n } = useScreenStrings('settings', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (next: string) => {
      const options = { params: { path: { settingKey: def.key } }, body: { value: next } };
      return platform ? must(api.PUT('/setting/{settingKey}', options)) : must(api.PUT('/settings/{settingKey}', options));
    },
    onSuccess: (saved) => {
      client.setQueryData<Setting[]>(keys.settingList, (list) => list?.map((s) => (s.key === saved.key ? { ...s, value: saved.value } : s)));
      if (platform) client.setQueryData<Setting>(keys.setting(saved.key), saved);
      setDraft(null);
      // The other screens' reads of this key (`keys.setting(key)`) follow.
      void client.invalidateQueries({ queryKey: ['setting'] });
    },
    // A refused switch or choice shows the stored value again; a refused text or number keeps what was typed.
    onError: () => {
      if (control.kind !== 'number' && control.kind !== 'text' && control.kind !== 'color') setDraft(null);
    },
  });
  /** Saves `next` unless it is what is stored; shown at once while it is saved. */
  const commit = (next: string) => {
    if (save.isPending) return;
    if (next === value && !save.error) {
      setDraft(null);
      return;
    }
    setDraft(next);
    save.mutate(next);
  };
  /** Typing in a text or a number: "Saved" no longer describes what is shown. */
  const edit = (next: string) => {
    if (save.isSuccess) save.reset();
    setDraft(next);
  };
  const known = i18n.exists(`keys.${def.key}.label`, { ns: 'settings' });
  const label = known ? t(`keys.${def.key}.label`) : def.key;
  const help = [
    known ? t(`keys.${def.key}.help`) : t('otherHelp', { key: def.key }),
    control.kind === 'number' ? t('numberHint', { min: control.min, max: control.max }) : null,
    control.kind === 'text' ? t('textHint', { max: control.max }) : null,
    control.kind === 'color' ? t('colorHint') : null,
    ACTED_ON.has(def.key) ? null : t('notActed'),
  ]
    .filter(Boolean)
    .join(' ');
  const error = save.error ? errorText(t, save.error) : undefined;
  const shown = draft ?? value;
  const status = save.isPending ? t('saving') : save.isSuccess ? t('saved') : '';

  return (
    <div className={`setting setting-${control.kind}`} data-testid={`setting-${def.key}`}>
      <Field label={label} error={error} hint={help}>
        {(p) => {
          switch (control.kind) {
            case 'switch':
              return (
                <input
                  {...p}
                  type="checkbox"
                  role="switch"
                  aria-checked={shown === control.on}
                  checked={shown === control.on}
                  disabled={!loaded || save.isPending}
                  onChange={(e) => commit(e.target.checked ? control.on : control.off)}
                />
              );
            case 'select':
              return (
                <select {...p} value={shown} disabled={!loaded || save.isPending} onChange={(e) => commit(e.target.value)}>
                  {control.values.map((v) => (
                    <option key={v} value={v}>
                      {t(`values.${def.key}.${v}`, { defaultValue: v })}
                    </option>
                  ))}
                </select>
              );
            case 'timezone':
              return (
                <select {...p} value={shown} disabled={!loaded || save.isPending} onChange={(e) => commit(e.target.value)}>
                  {timeZones(shown).map((z) => (
                    <option key={z} value={z}>
                      {z.replaceAll('_', ' ')}
                    </option>
                  ))}
                </select>
              );
            case 'number':
              return (
                <input
                  {...p}
                  type="number"
                  inputMode="numeric"
                  min={control.min}
                  max={control.max}
                  step={1}
                  value={shown}
                  disabled={!loaded}
                  onChange={(e) => edit(e.target.value)}
                  onBlur={() => draft !== null && commit(draft)}
                  onKeyDown={(e) => e.key === 'Enter' && draft !== null && commit(draft)}
                />
              );
            case 'color':
              // Typed as #rrggbb (what the server takes), with the colour shown beside it.
              return (
                <span className="setting-color">
                  <span className="swatch" style={{ background: /^#[0-9a-fA-F]{6}$/.test(shown) ? shown : 'transparent' }} aria-hidden="true" />
                  <input
                    {...p}
                    value={shown}
                    disabled={!loaded}
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={7}
                    onChange={(e) => edit(e.target.value)}
                    onBlur={() => draft !== null && commit(draft)}
                    onKeyDown={(e) => e.key === 'Enter' && draft !== null && commit(draft)}
                  />
                </span>
              );
            case 'text':
              return control.long ? (
                <textarea
                  {...p}
                  rows={2}
                  value={shown}
                  disabled={!loaded}
                  onChange={(e) => edit(e.target.value)}
                  onBlur={() => draft !== null && commit(draft)}
                />
              ) : (
                <input
                  {...p}
                  value={shown}
                  disabled={!loaded}
                  autoComplete="off"
                  onChange={(e) => edit(e.target.value)}
                  onBlur={() => draft !== null && commit(draft)}
                  onKeyDown={(e) => e.key === 'Enter' && draft !== null && commit(draft)}
                />
              );
          }
        }}
      </Field>
      <span className="setting-status small-text" role="status">
        {status}
      </span>
    </div>
  );
}

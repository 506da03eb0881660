import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { Field, FormError } from '../../ui/form.js';
import { controlOf, platformSettings } from './catalog.js';
import { SettingField } from './setting-field.js';
import { strings } from './strings.js';

type Setting = Schema<'Setting'>;

/** The white label's images: the platform setting each is kept in, and how it is uploaded. */
const IMAGES = [
  { key: 'appLogoLight', mode: 'Light', accept: 'image/png,image/jpeg,image/webp' },
  { key: 'appLogoDark', mode: 'Dark', accept: 'image/png,image/jpeg,image/webp' },
  { key: 'appLogoFavicon', mode: 'Favicon', accept: 'image/png,image/x-icon,image/vnd.microsoft.icon,.ico' },
  { key: 'loginBackground', mode: null, accept: 'image/png,image/jpeg,image/webp' },
] as const;
type Image = (typeof IMAGES)[number];

/**
 * The platform-wide settings, for its super users: each key of the backend's global catalog but the
 * files (the sign-up switch `userCreation`, the platform's name, its colours), read one by one
 * (`GET /setting/:settingKey`) and saved as soon as it changes (`PUT /setting/:settingKey`, which
 * refuses anyone else), each with its own control and allowed values. Another super user's change
 * reaches these reads through the `company` frame's `setting` action.
 */
export function PlatformSettings() {
  const { t } = useScreenStrings('settings', strings);
  const { api } = useServices();
  const defs = platformSettings();
  const reads = useQueries({
    queries: defs.map((def) => ({
      queryKey: keys.setting(def.key),
      queryFn: () => must(api.GET('/setting/{settingKey}', { params: { path: { settingKey: def.key } } })),
    })),
  });
  const failed = reads.find((r) => r.error)?.error;
  return (
    <section className="settings-group" aria-labelledby="settings-platform">
      <h2 id="settings-platform">{t('subjects.platform')}</h2>
      <p className="muted">{t('platform.intro')}</p>
      {failed && <FormError text={errorText(t, failed)} />}
      <div className="settings-grid">
        {defs.map((def, i) => {
          const control = controlOf(def);
          const read = reads[i]!;
          return (
            control && (
              <SettingField key={def.key} def={def} control={control} value={String(read.data?.value ?? def.defaultValue)} loaded={read.isSuccess} platform />
            )
          );
        })}
      </div>
    </section>
  );
}

/**
 * The platform's white-label images, for its super users (the upload routes refuse anyone else):
 * each shown as stored (`<backend>/public/<path>`, the path being the setting's value in
 * `GET /settings`), a chosen file previewed before it is uploaded, the server's refusal (type,
 * size) at the field. Platform settings publish no frame, so another super user's upload shows on
 * the next read of the list.
 */
export function WhiteLabel({ settings }: { settings: readonly Setting[] | undefined }) {
  const { t } = useScreenStrings('settings', strings);
  return (
    <section className="settings-group" aria-labelledby="settings-whiteLabel">
      <h2 id="settings-whiteLabel">{t('subjects.whiteLabel')}</h2>
      <p className="muted">{t('whiteLabel.intro')}</p>
      <div className="settings-images">
        {IMAGES.map((image) => (
          <ImageField key={image.key} image={image} stored={settings?.find((s) => s.key === image.key)?.value ?? ''} />
        ))}
      </div>
    </section>
  );
}

function ImageField({ image, stored }: { image: Image; stored: string }) {
  const { t } = useScreenStrings('settings', strings);
  const { api, config } = useServices();
  const client = useQueryClient();
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => () => void (chosen && URL.revokeObjectURL(chosen.url)), [chosen]);
  const upload = useMutation({
    mutationFn: async (file: File): Promise<string> => {
      const form = new FormData();
      form.set('file', file, file.name);
      const asForm = { bodySerializer: (b: unknown) => b as FormData };
      if (image.mode === null) return (await must(api.POST('/settings-whitelabel/login', { body: form as never, ...asForm }))).value;
      form.set('mode', image.mode);
      return must(api.POST('/settings-whitelabel/logo', { body: form as never, ...asForm }));
    },
    onSuccess: (path) => {
      client.setQueryData<Setting[]>(keys.settingList, (list) => list?.map((s) => (s.key === image.key ? { ...s, value: path } : s)));
      setChosen(null);
    },
  });
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    upload.reset();
    setChosen({ file, url: URL.createObjectURL(file) });
  };
  const name = t(`whiteLabel.${image.key}`);
  const error = upload.error ? errorText(t, upload.error) : undefined;
  return (
    <div className="settings-image" data-testid={`image-${image.key}`}>
      <Field label={name} error={error} hint={image.key === 'appLogoFavicon' ? t('whiteLabel.faviconHint') : t('whiteLabel.hint')}>
        {(p) => <input {...p} type="file" accept={image.accept} onChange={choose} disabled={upload.isPending} />}
      </Field>
      {chosen ? (
        <>
          <img className="settings-preview" src={chosen.url} alt={t('whiteLabel.chosen', { name })} />
          <div className="settings-actions">
            <button type="button" className="primary" disabled={upload.isPending} onClick={() => upload.mutate(chosen.file)}>
              {t('whiteLabel.upload')}
            </button>
            <button type="button" disabled={upload.isPending} onClick={() => setChosen(null)}>
              {t('whiteLabel.cancel')}
            </button>
          </div>
        </>
      ) : stored ? (
        <img className="settings-preview" src={`${config.backendUrl}/public/${stored}`} alt={t('whiteLabel.current', { name })} />
      ) : (
        <p className="muted small-text">{t('whiteLabel.noImage')}</p>
      )}
      <span className="small-text" role="status">
        {upload.isPending ? t('whiteLabel.uploading') : upload.isSuccess ? t('whiteLabel.uploaded') : ''}
      </span>
    </div>
  );
}

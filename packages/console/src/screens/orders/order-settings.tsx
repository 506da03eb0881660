import { MESSAGE_STATUSES } from '@servicedesk/core/orders/order-setting';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { CONVERSATION_VARIABLES, ORDER_VARIABLES, previewStatusMessage } from './preview.js';
import { strings } from './strings.js';

type Setting = Schema<'OrderSetting'>;
type MessageStatus = (typeof MESSAGE_STATUSES)[number];

const FIELD_OF = {
  ERR_ORDER_SETTING_INVALID_CURRENCY: 'currency',
  ERR_ORDER_SETTING_EXISTS: 'connectionId',
  ERR_NO_CONNECTION_FOUND: 'connectionId',
} as const;
type SettingField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** Example lines for the preview, in minor units. */
const EXAMPLE_LINES = [
  { name: 'Vaso 20 cm', unitPrice: 4990, quantity: 2 },
  { name: 'Prato', unitPrice: 1500, quantity: 1 },
];

/**
 * The order settings (`/order-settings`): the company's default row and one per connection, each
 * with its currency, payment instructions and the text each status sends the contact (empty: none).
 * Every user reads them (the order form takes the currency); admins change them. No frame follows
 * them: the list is read when shown and after each change.
 */
export function OrderSettings({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useScreenStrings('orders', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const settings = useQuery({ queryKey: [...keys.orders, 'settings'], queryFn: () => must(api.GET('/order-settings')) });
  const [editing, setEditing] = useState<Setting | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  const remove = useMutation({
    mutationFn: (s: Setting) => must(api.DELETE('/order-settings/{id}', { params: { path: { id: s.id } } })),
    onSuccess: () => {
      setNotice(t('settings.deleted'));
      void client.invalidateQueries({ queryKey: keys.orders });
    },
  });
  const place = (s: Setting) => (s.connectionId === null ? t('settings.default') : (s.connection?.name ?? `#${s.connectionId}`));

  return (
    <section className="order-settings" aria-labelledby="order-settings-title">
      <h2 id="order-settings-title">{t('settings.title')}</h2>
      <p className="muted">{t('settings.intro')}</p>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {isAdmin ? (
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          {t('settings.add')}
        </button>
      ) : (
        <p className="muted small-text">{t('settings.readOnly')}</p>
      )}
      {settings.error && <FormError text={errorText(t, settings.error)} />}
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      {settings.isSuccess && settings.data.length === 0 && <p className="placeholder">{t('settings.none')}</p>}
      <ul className="cards">
        {(settings.data ?? []).map((s) => (
          <li key={s.id} className="card" data-testid={`order-setting-${s.id}`}>
            <h3>{place(s)}</h3>
            <p>{t('settings.currencyIs', { currency: s.currency })}</p>
            <p className="muted small-text">
              {t('settings.messagesSet', { count: MESSAGE_STATUSES.filter((st) => s.statusMessages[st].trim()).length, total: MESSAGE_STATUSES.length })}
            </p>
            {isAdmin && (
              <div className="row-actions">
                <button type="button" className="small" aria-label={t('settings.editLabel', { place: place(s) })} onClick={() => setEditing(s)}>
                  {t('settings.edit')}
                </button>
                <ConfirmButton
                  className="small"
                  label={t('settings.delete')}
                  title={t('settings.deleteTitle', { place: place(s) })}
                  description={t('settings.deleteBody')}
                  confirmLabel={t('settings.delete')}
                  disabled={remove.isPending}
                  onConfirm={() => remove.mutate(s)}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
      {editing && (
        <SettingDialog
          setting={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('settings.saved'));
          }}
        />
      )}
    </section>
  );
}

function SettingDialog({ setting, close }: { setting: Setting | null; close: (saved: boolean) => void }) {
  const { t } = useScreenStrings('orders', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const session = useSession();
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) });
  const [connectionId, setConnectionId] = useState(setting?.connectionId ? String(setting.connectionId) : '');
  const [currency, setCurrency] = useState(setting?.currency ?? 'BRL');
  const [payment, setPayment] = useState(setting?.paymentInstructions ?? '');
  const [messages, setMessages] = useState<Record<MessageStatus, string>>(
    setting?.statusMessages ?? { confirmed: '', paid: '', shipped: '', delivered: '', cancelled: '' },
  );
  const [previewing, setPreviewing] = useState<MessageStatus>('confirmed');
  const save = useMutation({
    mutationFn: () => {
      const body = { connectionId: connectionId ? Number(connectionId) : null, currency, paymentInstructions: payment, statusMessages: messages };
      return setting ? must(api.PUT('/order-settings/{id}', { params: { path: { id: setting.id } }, body })) : must(api.POST('/order-settings', { body }));
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.orders });
      close(true);
    },
  });
  const refusal = refusalOf<SettingField>(t, save.error, FIELD_OF);
  const connectionName = connections.data?.find((c) => String(c.id) === connectionId)?.name ?? connections.data?.[0]?.name ?? '';
  const preview = previewStatusMessage(messages[previewing], {
    currency: /^[A-Za-z]{3}$/.test(currency.trim()) ? currency.trim().toUpperCase() : 'BRL',
    paymentInstructions: payment,
    contactName: 'Maria Souza',
    userName: session?.user.name ?? '',
    companyName: '',
    connectionName,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    at: new Date(),
    lines: EXAMPLE_LINES,
  });
  const variables = [...ORDER_VARIABLES, ...CONVERSATION_VARIABLES].map((v) => `{{${v}}}`).join(' ');

  return (
    <FormDialog
      className="order-setting-dialog"
      title={setting ? t('settings.editTitle') : t('settings.add')}
      description={t('settings.intro')}
      submitLabel={t('settings.save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(false)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('settings.connection')} error={refusal.byField.connectionId}>
        {(p) => (
          <select {...p} value={connectionId} onChange={(e) => setConnectionId(e.target.value)}>
            <option value="">{t('settings.default')}</option>
            {(connections.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('settings.currency')} error={refusal.byField.currency} hint={t('settings.currencyHint')}>
        {(p) => <input {...p} className="short" maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value)} />}
      </Field>
      <Field label={t('settings.payment')} hint={t('settings.paymentHint')}>
        {(p) => <textarea {...p} rows={2} value={payment} onChange={(e) => setPayment(e.target.value)} />}
      </Field>
      <p className="muted small-text" id="order-variables">
        {t('settings.variables')} <code>{variables}</code>
      </p>
      {MESSAGE_STATUSES.map((status) => (
        <Field key={status} label={t('settings.messageFor', { status: t(`status.${status}`) })}>
          {(p) => (
            <textarea
              {...p}
              rows={2}
              value={messages[status]}
              onFocus={() => setPreviewing(status)}
              onChange={(e) => {
                setPreviewing(status);
                setMessages((m) => ({ ...m, [status]: e.target.value }));
              }}
            />
          )}
        </Field>
      ))}
      <section className="message-preview" aria-labelledby="order-preview-title">
        <h3 id="order-preview-title">{t('settings.preview', { status: t(`status.${previewing}`) })}</h3>
        <p className="muted small-text">{t('settings.previewHint')}</p>
        <pre data-testid="order-preview">{preview || t('settings.previewEmpty')}</pre>
      </section>
    </FormDialog>
  );
}

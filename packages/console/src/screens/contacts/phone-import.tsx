import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { ApiError, must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { Field } from '../../ui/form.js';
import { ImportProgress } from './import-dialog.js';
import { strings } from './strings.js';

/** The refusals of `POST /contacts/import` that are about the connection chosen, said at its field. */
const CONNECTION_CODES = ['ERR_SESSION_NOT_CONNECTED', 'ERR_CONTACTS_NOT_SUPPORTED', 'ERR_NO_CONNECTION_FOUND', 'ERR_NO_DEFAULT_CONNECTION'] as const;

/**
 * The address book of a connected phone (`POST /contacts/import`): the chat-app connection to ask
 * is chosen first (the default one, else a connected one, preselected); the server asks the live
 * session for its contacts and imports them in the background like a file, merged by number, so
 * the same progress and report follow (`contactImport` frames).
 */
export function PhoneImportDialog({ close }: { close: () => void }) {
  const { t } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) });
  // The address book lives on a phone's session: pages and business numbers have none.
  const phones = (connections.data ?? []).filter((c) => c.kind === 'chatapp');
  const preferred = phones.find((c) => c.isDefault) ?? phones.find((c) => c.status === 'CONNECTED') ?? phones[0];
  const [chosen, setChosen] = useState<number | null>(null);
  const connectionId = chosen ?? preferred?.id ?? null;
  const [importId, setImportId] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: (id: number) => must(api.POST('/contacts/import', { body: { connectionId: id } })),
    onSuccess: (status) => {
      // A frame may have come before the answer: it is newer, keep it.
      if (!client.getQueryData(keys.contactImport(status.importId))) client.setQueryData(keys.contactImport(status.importId), status);
      setImportId(status.importId);
    },
  });
  const code = start.error instanceof ApiError ? start.error.code : '';
  const atField = (CONNECTION_CODES as readonly string[]).includes(code);
  const refusal = start.error ? (atField ? t(`phoneBook.refusals.${code}`, { defaultValue: errorText(t, start.error) }) : errorText(t, start.error)) : null;
  const submit = () => {
    if (connectionId !== null) start.mutate(connectionId);
  };

  // Started: the progress and the report, as a file import shows them (no form left to send).
  if (importId)
    return (
      <Dialog.Root open onOpenChange={(open) => !open && close()}>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay" />
          <Dialog.Content className="dialog import-dialog">
            <Dialog.Title>{t('phoneBook.title')}</Dialog.Title>
            <Dialog.Description>{t('phoneBook.intro')}</Dialog.Description>
            <ImportProgress importId={importId} />
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('close')}</button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    );
  return (
    <FormDialog
      title={t('phoneBook.title')}
      description={t('phoneBook.intro')}
      hideDescription={false}
      onClose={close}
      onSubmit={submit}
      submitLabel={t('phoneBook.start')}
      pending={start.isPending || connectionId === null}
      error={atField ? null : refusal}
    >
      {connections.isSuccess && phones.length === 0 ? (
        <p className="notice">{t('phoneBook.none')}</p>
      ) : (
        <Field label={t('phoneBook.connection')} hint={t('phoneBook.connectionHint')} error={atField ? (refusal ?? undefined) : undefined}>
          {(p) => (
            <select {...p} value={connectionId ?? ''} onChange={(e) => setChosen(Number(e.target.value))}>
              {phones.map((c) => (
                <option key={c.id} value={c.id}>
                  {t('phoneBook.option', { name: c.name, status: t(`phoneBook.status.${c.status}`, { defaultValue: c.status }) })}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </FormDialog>
  );
}

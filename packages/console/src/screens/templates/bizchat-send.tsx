import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type operations, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { Field, refusalOf } from '../../ui/form.js';
import { emptyValues, type TemplateValues, templatePreview } from './bizchat-values.js';
import { strings } from './strings.js';

type BizTemplate = Schema<'BizchatTemplate'>;
type Sent = operations['postSendBizchatTemplate']['responses'][200]['content']['application/json'];

/** The refusals of the send that name a field of the form. */
const FIELD_OF = { ERR_INVALID_NUMBER: 'number', ERR_BIZCHAT_RECIPIENT_REQUIRED: 'number' } as const;

/**
 * An approved template sent to a number from a bizchat connection (`POST /send-bizchat-template`
 * with `chatappId` and `number`): the contact's open conversation there, or a new one the caller
 * takes. A field per value the template takes (its header's, its body's variables, its buttons'),
 * the text as the contact will read it, the server's refusals at their fields.
 */
export function SendTemplateDialog(props: { template: BizTemplate; chatappId: number; close: (sent: Sent | null) => void }) {
  const { template, chatappId, close } = props;
  const { t } = useScreenStrings('templates', strings);
  const { api } = useServices();
  const [number, setNumber] = useState('');
  const [values, setValues] = useState<TemplateValues>(() => emptyValues(template));
  const send = useMutation({
    mutationFn: () => {
      const parameters = {
        ...(values.header.length ? { header: values.header } : {}),
        ...(values.body.length ? { body: values.body } : {}),
        ...(values.buttons.length ? { buttons: values.buttons } : {}),
      };
      return must(
        api.POST('/send-bizchat-template', {
          body: { chatappId, number: number.replace(/[\s+()-]/g, ''), templateName: template.name, language: template.language, parameters },
        }),
      );
    },
    onSuccess: (sent) => close(sent),
  });
  const refusal = refusalOf<'number' | 'header' | 'body' | 'buttons'>(t, send.error, FIELD_OF);
  const set = (part: keyof TemplateValues, i: number, value: string) => setValues((v) => ({ ...v, [part]: v[part].map((x, j) => (j === i ? value : x)) }));
  const mediaHeader = template.variables.header > 0 && !!template.variables.headerFormat && template.variables.headerFormat !== 'TEXT';

  return (
    <FormDialog
      title={t('send.title', { name: template.name, language: template.language })}
      description={t('send.description')}
      hideDescription={false}
      submitLabel={t('send.submit')}
      onSubmit={() => send.mutate()}
      onClose={() => close(null)}
      pending={send.isPending}
      error={refusal.form}
    >
      <Field label={t('send.number')} error={refusal.byField.number} hint={t('send.numberHint')}>
        {(p) => <input {...p} value={number} onChange={(e) => setNumber(e.target.value)} inputMode="tel" autoComplete="off" maxLength={30} required />}
      </Field>
      {values.header.map((v, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the header's values are positional
        <Field key={`h${i}`} label={mediaHeader ? t('send.headerLink') : t('send.header', { n: i + 1 })} error={i === 0 ? refusal.byField.header : undefined}>
          {(p) => <input {...p} type={mediaHeader ? 'url' : 'text'} value={v} onChange={(e) => set('header', i, e.target.value)} maxLength={1024} required />}
        </Field>
      ))}
      {values.body.map((v, i) => (
        <Field
          key={`b${template.variables.body[i]}`}
          label={t('send.variable', { name: template.variables.body[i] })}
          error={i === 0 ? refusal.byField.body : undefined}
        >
          {(p) => <input {...p} value={v} onChange={(e) => set('body', i, e.target.value)} maxLength={1024} required />}
        </Field>
      ))}
      {values.buttons.map((v, i) => (
        <Field
          key={`k${template.variables.buttons[i]}`}
          label={t('send.button', { n: (template.variables.buttons[i] ?? i) + 1 })}
          error={i === 0 ? refusal.byField.buttons : undefined}
        >
          {(p) => <input {...p} value={v} onChange={(e) => set('buttons', i, e.target.value)} maxLength={1024} required />}
        </Field>
      ))}
      <section className="template-preview" aria-label={t('send.preview')}>
        <h3 className="small-heading">{t('send.preview')}</h3>
        <p data-testid="bizchat-preview">{templatePreview(template, values)}</p>
      </section>
    </FormDialog>
  );
}

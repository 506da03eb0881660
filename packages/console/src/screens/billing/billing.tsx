import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { useEffect, useId, useMemo, useState } from 'react';
import { renderSVG } from 'uqr';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminHeader } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { calendarDay, isOverdue, moment, money } from './billing-format.js';
import { useCompany } from './overdue-banner.js';
import { strings } from './strings.js';
import './billing.css';

type Invoice = Schema<'Invoice'>;
type Charge = Schema<'PixCharge'>;

/**
 * `/billing`: the company's plan and due date, its invoices (`GET /invoices`, newest first, 20 a
 * page), and an open one paid by Pix (`POST /subscription`): the QR code and the copy-and-paste
 * code, the invoice turning "paid" live when the gateway confirms it (the `payment` frame).
 * Everyone reads; admins pay (the server refuses the others).
 */
export function Billing() {
  const { t, i18n } = useScreenStrings('billing', strings);
  const { api } = useServices();
  const session = useSession();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const company = useCompany();
  const [paying, setPaying] = useState<Invoice | null>(null);
  const [notice, setNotice] = useState('');
  const lang = i18n.language;

  // Under `invoices`: a `payment` frame (the gateway confirmed a payment) refetches it.
  const list = useInfiniteQuery({
    queryKey: keys.invoices,
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/invoices', { params: { query: { pageNumber: pageParam } } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const invoices = list.data?.pages.flatMap((p) => p.invoices) ?? [];
  const total = list.data?.pages[0]?.count ?? 0;
  const plan = company.data?.plan ?? null;
  const dueDate = company.data?.dueDate ?? null;
  const overdue = isOverdue(dueDate);
  // The invoice being paid as the list has it now: its status follows the frames.
  const current = paying ? (invoices.find((i) => i.id === paying.id) ?? paying) : null;

  return (
    <section className="admin-screen billing-screen" aria-labelledby="billing-title">
      <AdminHeader titleId="billing-title" title={t('title')} intro={t('intro')} />
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {company.error && <FormError text={errorText(t, company.error)} />}
      {overdue && dueDate && (
        <p className="overdue-notice" role="alert" data-testid="billing-overdue">
          {isAdmin ? t('overdue', { date: calendarDay(dueDate, lang) }) : t('overdueOperator', { date: calendarDay(dueDate, lang) })}
        </p>
      )}
      {company.isSuccess && (
        <dl className="plan-facts" data-testid="plan-facts">
          <div>
            <dt>{t('plan')}</dt>
            <dd>{plan?.name ?? t('noPlan')}</dd>
          </div>
          {plan && (
            <div>
              <dt>{t('amount')}</dt>
              <dd>
                {money(plan.amount, lang)} ({t(`every.${plan.recurrence}`, { defaultValue: plan.recurrence })})
              </dd>
            </div>
          )}
          <div>
            <dt>{t('dueDate')}</dt>
            <dd>{dueDate ? calendarDay(dueDate, lang) : t('noDueDate')}</dd>
          </div>
        </dl>
      )}
      <h2 id="invoices-title">{t('invoices')}</h2>
      {list.error && <FormError text={errorText(t, list.error)} />}
      <p className="list-count" aria-live="polite">
        {list.isSuccess && t('count', { count: total })}
        {list.isSuccess && !isAdmin && total > 0 && ` ${t('adminsPay')}`}
      </p>
      {list.isSuccess && invoices.length === 0 ? (
        <p className="placeholder">{t('empty')}</p>
      ) : (
        <table className="admin-table" aria-labelledby="invoices-title" aria-busy={list.isLoading}>
          <thead>
            <tr>
              <th scope="col">{t('columns.detail')}</th>
              <th scope="col" className="number">
                {t('columns.value')}
              </th>
              <th scope="col">{t('columns.dueDate')}</th>
              <th scope="col">{t('columns.status')}</th>
              <th scope="col">{t('columns.paidAt')}</th>
              {isAdmin && <th scope="col">{t('columns.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {invoices.map((invoice) => (
              <tr key={invoice.id} data-testid={`invoice-${invoice.id}`}>
                <th scope="row">{invoice.detail}</th>
                <td className="number" data-label={t('columns.value')}>
                  {money(invoice.value, lang)}
                </td>
                <td data-label={t('columns.dueDate')}>{calendarDay(invoice.dueDate, lang)}</td>
                <td data-label={t('columns.status')}>
                  <span className={`invoice-status invoice-${invoice.status}`}>{t(`status.${invoice.status}`)}</span>
                </td>
                <td data-label={t('columns.paidAt')}>{invoice.paidAt ? moment(invoice.paidAt, lang) : t('notPaid')}</td>
                {isAdmin && (
                  <td className="row-actions">
                    {invoice.status === 'open' && (
                      <button type="button" className="small primary" aria-label={t('payLabel', { detail: invoice.detail })} onClick={() => setPaying(invoice)}>
                        {t('pay')}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t('more')}
        </button>
      )}
      {current && <PixDialog invoice={current} onPaid={() => setNotice(t('paidNotice', { detail: current.detail }))} close={() => setPaying(null)} />}
    </section>
  );
}

/** How long "Copied" stays beside the copy button. */
const COPIED_FEEDBACK_MS = 2_000;

/**
 * Paying one invoice: asks for its Pix charge once when opened (the server answers the same charge
 * again while it is payable), shows the QR code and the code to copy, then "paid" once the
 * invoice's status turns so (the list follows the `payment` frame).
 */
function PixDialog({ invoice, onPaid, close }: { invoice: Invoice; onPaid: () => void; close: () => void }) {
  const { t, i18n } = useScreenStrings('billing', strings);
  const { api } = useServices();
  const id = useId();
  const lang = i18n.language;
  const charge = useMutation({ mutationFn: () => must(api.POST('/subscription', { body: { invoiceId: invoice.id } })) });
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const paid = invoice.status === 'paid' || charge.data?.status === 'paid';

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once per dialog opening
  useEffect(() => {
    charge.mutate();
  }, []);
  useEffect(() => {
    if (paid) onPaid();
  }, [paid, onPaid]);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = (code: string) =>
    navigator.clipboard.writeText(code).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );

  return (
    <Dialog.Root open onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog pix-dialog">
          <Dialog.Title>{t('pix.title', { detail: invoice.detail })}</Dialog.Title>
          <Dialog.Description className="muted">{t('pix.description')}</Dialog.Description>
          {charge.isPending && (
            <p role="status" className="muted">
              {t('pix.asking')}
            </p>
          )}
          {charge.error && <FormError text={errorText(t, charge.error)} />}
          {charge.data && !paid && <PixCharge charge={charge.data} lang={lang} copied={copied} copy={copy} labelId={id} />}
          <p role="status" className={paid ? 'form-ok pix-state' : 'muted pix-state'} data-testid="pix-state">
            {paid ? t('pix.paid') : charge.data ? t('pix.waiting') : ''}
          </p>
          <div className="dialog-buttons">
            <Dialog.Close asChild>
              <button type="button" className={paid ? 'primary' : undefined}>
                {t('pix.close')}
              </button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The charge's QR code (drawn here from the copy-and-paste code) and that code with its copy button. */
function PixCharge(props: { charge: Charge; lang: string; copied: 'yes' | 'no' | null; copy: (code: string) => void; labelId: string }) {
  const { t } = useScreenStrings('billing', strings);
  const { charge, lang, copied, copy, labelId } = props;
  const code = charge.pix.copyPaste;
  const qr = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(code, { border: 2 }))}`, [code]);
  const amount = money(charge.amount, lang);
  return (
    <div className="pix-charge" data-testid="pix-charge">
      <p className="pix-amount">{t('pix.amount', { amount })}</p>
      <img className="pix-qr" src={qr} alt={t('pix.qr', { amount })} width={220} height={220} />
      <label htmlFor={`${labelId}-code`}>{t('pix.code')}</label>
      <textarea id={`${labelId}-code`} className="pix-code" readOnly value={code} rows={3} onFocus={(e) => e.currentTarget.select()} />
      <div className="actions">
        <button type="button" onClick={() => copy(code)}>
          {t('pix.copy')}
        </button>
        <span aria-live="polite" className="muted">
          {copied === 'yes' ? t('pix.copied') : copied === 'no' ? t('pix.copyFailed') : ''}
        </span>
      </div>
      <p className="muted small-text">{t('pix.expires', { time: moment(charge.expiresAt, lang) })}</p>
    </div>
  );
}

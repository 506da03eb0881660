import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { calendarDay, isOverdue } from './billing-format.js';
import { strings } from './strings.js';
import './overdue-banner.css';

/**
 * The caller's company with its plan (`GET /companies/listPlan/:id`), under the key the navigation
 * reads it (`useCompanyPlan`): refetched by the `company` frame and after a payment's.
 */
export function useCompany() {
  const session = useSession();
  const { api } = useServices();
  const companyId = session?.user.companyId;
  return useQuery({
    queryKey: [...keys.company(companyId ?? 0), 'plan'],
    queryFn: () => must(api.GET('/companies/listPlan/{id}', { params: { path: { id: companyId! } } })),
    enabled: companyId !== undefined,
  });
}

/** Once per browser tab and user: an overdue company's admin is taken to the subscription on arrival. */
const LANDED_KEY = 'billing-overdue-landed';

/**
 * Under the top bar, while the company's due date is past: says so, with a link to pay for admins
 * (who land on `/billing` once per tab after signing in) and whom to ask for everyone else. Super
 * users run the platform and are never sent there.
 */
export function OverdueBanner() {
  const { t, i18n } = useScreenStrings('billing', strings);
  const session = useSession();
  const navigate = useNavigate();
  const company = useCompany();
  const user = session?.user;
  const dueDate = company.data?.dueDate ?? null;
  const overdue = !!user && !user.super && isOverdue(dueDate);
  const admin = user?.profile === 'admin';

  useEffect(() => {
    if (!overdue || !admin || !user) return;
    const key = `${LANDED_KEY}:${user.id}`;
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, '1');
    if (!window.location.pathname.endsWith('/billing')) void navigate({ to: '/billing' });
  }, [overdue, admin, user, navigate]);

  if (!overdue || !dueDate) return <div className="overdue-slot" />;
  const date = calendarDay(dueDate, i18n.language);
  return (
    <div className="overdue-slot">
      <section className="overdue-banner" aria-label={t('title')} data-testid="overdue-banner">
        {admin ? (
          <p>
            {t('overdueShort', { date })} <Link to="/billing">{t('overdueLink')}</Link>
          </p>
        ) : (
          <p>{t('overdueOperator', { date })}</p>
        )}
      </section>
    </div>
  );
}

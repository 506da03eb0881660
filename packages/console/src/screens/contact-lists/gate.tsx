import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { admins, useCompanyPlan } from '../nav.js';

/**
 * The contact lists and campaigns are for admins of a company whose plan has campaigns (the routes
 * answer anyone else 403): an operator is told so and these screens fetch nothing; an admin's plan
 * (the navigation's `useCompanyPlan`, read once for both) comes first, and a plan without campaigns is explained.
 */
export function CampaignsGate(props: { titleId: string; title: string; adminsOnly: string; noPlan: string; children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const isAdmin = !!session && admins(session.user);
  const plan = useCompanyPlan();
  const refused = !isAdmin ? props.adminsOnly : plan.data && !plan.data.useCampaigns ? props.noPlan : null;
  if (refused || !plan.data) {
    return (
      <section className="admin-screen" aria-labelledby={props.titleId}>
        <h1 id={props.titleId}>{props.title}</h1>
        {refused && <p className="placeholder">{refused}</p>}
        {isAdmin && plan.error && <FormError text={errorText(t, plan.error)} />}
      </section>
    );
  }
  return props.children;
}

import type { Metadata } from 'next';
import { z } from 'zod';
import { ActionForm } from '@/app/dashboard/action-form';
import { requirePage } from '@/app/dashboard/session';
import { MUTED, Notice, PageBody, Section } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { LANGUAGE_NAMES, LANGUAGES } from '@/lib/pay/i18n';
import { SUBSCRIPTION_INTERVAL_VALUES } from '@/lib/protocol';
import {
  listPlans,
  listSubscriptions,
  serializePlan,
  serializeSubscription,
  subscriptionNow,
} from '@/lib/subscriptions';
import { can } from '@/lib/users';
import {
  advanceClockAction,
  cancelSubscriptionAction,
  createPlanAction,
  createSubscriptionAction,
  updatePlanAction,
} from './actions';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { CELL, DataTable, EmptyState } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Subscriptions' };

const SHOWN = 100;

const NOTICE_PARAM = z.object({
  notice: z.enum(['plan-updated', 'retired', 'canceled']).optional().catch(undefined),
});
const NOTICES = {
  canceled: 'Subscription canceled: the subscriber is mailed, and no more invoices are made.',
  'plan-updated': 'Plan saved.',
  retired: 'Plan retired: it takes no new subscribers; its subscribers keep their terms and renewals.',
} as const;

/**
 * The merchant's subscription plans and subscribers of the session's mode (docs/subscriptions.md),
 * the forms that make them, and in test mode the test clock. Every form works without JavaScript.
 */
export default async function SubscriptionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requirePage('view');
  const { notice } = NOTICE_PARAM.parse(await searchParams);
  const db = await getDatabase();
  const [{ plans }, { subscriptions, total }, now] = await Promise.all([
    listPlans(db, session, { limit: SHOWN, offset: 0 }),
    listSubscriptions(db, session, { limit: SHOWN, offset: 0 }),
    subscriptionNow(db, session.merchantId, session.mode),
  ]);
  const planName = new Map(plans.map((p) => [p.id, p.name]));
  const editor = can(session.role, 'links');
  const openPlans = plans.filter((plan) => plan.active);
  return (
    <PageBody
      title="Subscriptions"
      description="A subscription sends a fresh invoice each period, with reminders; periods paid ahead are drawn on before any invoice is sent. Subscribers manage theirs from the link in each mail."
    >
      {notice && <Notice tone="success">{NOTICES[notice]}</Notice>}
      {session.mode === 'test' && (
        <Section title="Test clock" id="test-clock">
          <p className={`text-sm ${MUTED}`} data-testid="test-clock">
            {`Test subscriptions' time: ${now.toISOString()}. Live mode always runs on real time.`}
          </p>
          {editor && (
            <form action={advanceClockAction} className="mt-2 flex flex-wrap items-end gap-2">
              <Label>
                Move forward by (days)
                <Input name="days" inputMode="numeric" required defaultValue="1" />
              </Label>
              <Button type="submit">Move the clock</Button>
            </form>
          )}
        </Section>
      )}
      <Section title="Plans" id="plans">
        {plans.length === 0 ? (
          <EmptyState>{`No ${session.mode} plan yet.`}</EmptyState>
        ) : (
          <DataTable
            caption="Plans"
            head={['Name', 'Price', 'Period', 'Trial', 'Invoice ahead', 'Grace', 'New subscribers']}
          >
            {plans.map((row) => {
              const plan = serializePlan(row);
              return (
                <tr key={plan.id} data-testid="plan-row">
                  <td className={CELL}>{plan.name}</td>
                  <td className={`${CELL} whitespace-nowrap font-mono`}>{`${plan.amount} ${plan.currency}`}</td>
                  <td className={CELL}>{`${plan.intervalCount} ${plan.interval}`}</td>
                  <td className={CELL}>{`${plan.trialDays} d`}</td>
                  <td className={CELL}>{`${plan.reminderDays} d`}</td>
                  <td className={CELL}>{`${plan.graceDays} d`}</td>
                  <td className={CELL}>{plan.active ? 'taken' : 'retired'}</td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </Section>
      <Section title="Subscribers" id="subscribers">
        {subscriptions.length === 0 ? (
          <EmptyState>{`No ${session.mode} subscriber yet.`}</EmptyState>
        ) : (
          <DataTable
            caption={`Subscribers (${total})`}
            head={['E-mail', 'Plan', 'Status', 'Paid until', 'Credit', 'Open invoice', ...(editor ? ['Action'] : [])]}
          >
            {subscriptions.map((row) => {
              const sub = serializeSubscription(row, now);
              return (
                <tr key={sub.id} data-testid="subscriber-row">
                  <td className={CELL}>{sub.email}</td>
                  <td className={CELL}>{planName.get(sub.planId) ?? row.plan_name}</td>
                  <td className={CELL}>{sub.status}</td>
                  <td className={`${CELL} font-mono`}>{sub.paidUntil?.slice(0, 10) ?? '—'}</td>
                  <td className={`${CELL} font-mono`}>{sub.creditPeriods}</td>
                  <td className={`${CELL} font-mono`}>{sub.openInvoiceId ? sub.openInvoiceId.slice(0, 8) : '—'}</td>
                  {editor && (
                    <td className={CELL}>
                      {sub.status !== 'canceled' && (
                        <form action={cancelSubscriptionAction}>
                          <input type="hidden" name="subscriptionId" value={sub.id} />
                          <Button
                            type="submit"
                            variant="text"
                            size="inline"
                            aria-label={`Cancel the subscription of ${sub.email}`}
                          >
                            Cancel
                          </Button>
                        </form>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </DataTable>
        )}
      </Section>
      {editor && (
        <Section title="New plan" id="new-plan">
          <ActionForm action={createPlanAction} submit="Create plan">
            <Label>
              Name
              <Input name="name" required maxLength={200} />
            </Label>
            <div className="grid gap-3 sm:grid-cols-2">
              <Label>
                Price currency
                <Input name="currency" required defaultValue="USD" maxLength={16} />
              </Label>
              <Label>
                Price per period
                <Input name="amount" required inputMode="decimal" />
              </Label>
              <Label>
                Period
                <Select name="interval" defaultValue="month">
                  {SUBSCRIPTION_INTERVAL_VALUES.map((unit) => (
                    <option key={unit} value={unit}>
                      {unit}
                    </option>
                  ))}
                </Select>
              </Label>
              <Label>
                Periods of that length
                <Input name="intervalCount" inputMode="numeric" defaultValue="1" />
              </Label>
              <Label>
                Free trial (days)
                <Input name="trialDays" inputMode="numeric" defaultValue="0" />
              </Label>
              <Label>
                Invoice sent before a period (days)
                <Input name="reminderDays" inputMode="numeric" defaultValue="3" />
              </Label>
              <Label>
                Grace before cancelling unpaid (days)
                <Input name="graceDays" inputMode="numeric" defaultValue="7" />
              </Label>
            </div>
          </ActionForm>
        </Section>
      )}
      {editor && plans.length > 0 && (
        <Section title="Edit a plan" id="edit-plan">
          <p className={`mb-3 text-sm ${MUTED}`}>
            A plan&apos;s price, period, trial, reminders and grace are the terms its subscribers signed up for and
            never change. Rename a plan, or retire it: a retired plan takes no new subscribers, and its subscribers keep
            their terms and renewals until they or you cancel. New terms are a new plan.
          </p>
          <ActionForm action={updatePlanAction} submit="Save plan">
            <Label>
              Plan
              <Select name="planId" required>
                {plans.map((plan) => (
                  <option key={plan.id} value={plan.id}>
                    {plan.active ? plan.name : `${plan.name} (retired)`}
                  </option>
                ))}
              </Select>
            </Label>
            <Label>
              New name (optional)
              <Input name="name" maxLength={200} />
            </Label>
            <Label>
              New subscribers
              <Select name="active" defaultValue="">
                <option value="">unchanged</option>
                <option value="true">taken</option>
                <option value="false">retired: no new subscribers</option>
              </Select>
            </Label>
          </ActionForm>
        </Section>
      )}
      {editor && openPlans.length > 0 && (
        <Section title="New subscriber" id="new-subscriber">
          <ActionForm action={createSubscriptionAction} submit="Subscribe">
            <Label>
              Plan
              <Select name="planId" required>
                {openPlans.map((plan) => (
                  <option key={plan.id} value={plan.id}>
                    {plan.name}
                  </option>
                ))}
              </Select>
            </Label>
            <Label>
              E-mail
              <Input name="email" type="email" required />
            </Label>
            <Label>
              Your customer id (optional)
              <Input name="customerId" maxLength={255} />
            </Label>
            <Label>
              Language of the mails and page
              <Select name="language" defaultValue="en">
                {LANGUAGES.map((language) => (
                  <option key={language} value={language}>
                    {LANGUAGE_NAMES[language]}
                  </option>
                ))}
              </Select>
            </Label>
          </ActionForm>
        </Section>
      )}
    </PageBody>
  );
}

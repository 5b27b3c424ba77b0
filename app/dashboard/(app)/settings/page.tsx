import type { Metadata } from 'next';
import { PageBody } from '@/components/dashboard/ui';
import { notFound } from 'next/navigation';
import { requirePage } from '@/app/dashboard/session';
import { NETWORKS } from '@/lib/catalog';
import { DEFAULT_EXPLORERS } from '@/lib/dashboard';
import { getDatabase } from '@/lib/db';
import { PAYER_MAIL_KINDS } from '@/lib/mail';
import { LATE_ACCEPT_MAX_MINUTES, LOGO_MAX_BYTES, merchantSettings } from '@/lib/merchants';
import { can } from '@/lib/users';
import { ActionForm } from '@/app/dashboard/action-form';
import { posSettings } from '@/lib/links';
import { refundApprovalRule } from '@/lib/refunds';
import { excessClaimRule } from '@/lib/mispayments';
import {
  saveBrand,
  saveExcessClaimRule,
  saveExplorers,
  saveLatePaymentRule,
  saveRefundApproval,
  saveMailSettings,
  savePointOfSale,
  saveTwoFactorRequirement,
} from './actions';
import { ColorField } from './color-field';
import { Label } from '@/components/ui/field';
import { FileInput, Input } from '@/components/ui/input';

export const metadata: Metadata = { title: 'Settings' };

const HELP = 'text-sm text-muted';
const SECTION = 'mt-6 rounded-lg border border-line p-4';

/** The payer mails, as the settings name them (docs/mail.md). */
const PAYER_MAIL_LABELS: Record<(typeof PAYER_MAIL_KINDS)[number], string> = {
  'payment-detected': 'Payment detected',
  'payment-partial': 'Partly paid, with “Pay the rest”',
  'payment-paid': 'Paid, with the receipt',
  'payment-expired': 'Expired after a payment',
};

/**
 * The merchant's settings: its brand on the payer's pages, block explorer links per network, its
 * payer mail, and
 * (owners only) whether owners must use two-factor sign-in.
 */
export default async function SettingsPage() {
  const session = await requirePage('settings');
  const db = await getDatabase();
  const settings = await merchantSettings(db, session.merchantId);
  if (!settings) notFound();
  const pos = await posSettings(db, session.merchantId);
  const refundApproval = await refundApprovalRule(db, session.merchantId);
  const excessClaimPercent = await excessClaimRule(db, session.merchantId);
  return (
    <PageBody title="Settings" narrow>
      <section aria-labelledby="brand-title" className={SECTION}>
        <h2 id="brand-title" className="text-lg font-semibold">
          Brand
        </h2>
        <p className={HELP}>
          The payment and invoice pages show your name, <strong>{settings.name}</strong>, with your logo and accent
          colour when you set them.
        </p>
        <ActionForm action={saveBrand} submit="Save brand" className="mt-3 space-y-4">
          <div>
            <label htmlFor="brand-logo" className="block font-medium">
              Logo
            </label>
            <p id="brand-logo-help" className={HELP}>
              {`A PNG, JPEG, WebP or GIF image of at most ${LOGO_MAX_BYTES / 1024} KB, shown about 40 pixels high. SVG is not accepted.`}
            </p>
            {settings.brandLogo && (
              <div className="mt-2 flex flex-wrap items-center gap-3">
                <img
                  src={settings.brandLogo}
                  alt={`Current logo of ${settings.name}`}
                  data-testid="current-logo"
                  className="h-10 w-auto max-w-40 rounded bg-white object-contain p-1"
                />
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="removeLogo" className="size-4" />
                  Remove the logo
                </label>
              </div>
            )}
            <FileInput
              id="brand-logo"
              name="logo"
              accept="image/png,image/jpeg,image/webp,image/gif"
              aria-describedby="brand-logo-help"
              className="mt-2"
            />
          </div>
          <ColorField initial={settings.brandColor ?? ''} />
        </ActionForm>
      </section>

      <section aria-labelledby="explorers-title" className={SECTION}>
        <h2 id="explorers-title" className="text-lg font-semibold">
          Block explorer links
        </h2>
        <p className={HELP}>
          Where the dashboard links a transaction, per network: an https:// address with {'{tx}'} where the transaction
          hash goes. Leave a field empty to use the default shown in it.
        </p>
        <ActionForm action={saveExplorers} submit="Save explorer links" className="mt-3 space-y-4">
          <div className="grid gap-3 sm:grid-cols-[auto_1fr] sm:items-center">
            {NETWORKS.map((network) => (
              <div key={network.name} className="contents">
                <label htmlFor={`explorer-${network.name}`} className="font-medium sm:text-end">
                  {network.displayName}
                </label>
                <Input
                  id={`explorer-${network.name}`}
                  name={`explorer.${network.name}`}
                  type="text"
                  inputMode="url"
                  defaultValue={settings.explorerUrls[network.name] ?? ''}
                  placeholder={DEFAULT_EXPLORERS[network.name] ?? 'No default: no link'}
                  className="font-mono text-sm"
                />
              </div>
            ))}
          </div>
        </ActionForm>
      </section>

      <section aria-labelledby="mail-title" className={SECTION}>
        <h2 id="mail-title" className="text-lg font-semibold">
          Mail to payers
        </h2>
        <p className={HELP}>
          Payers who gave their e-mail address hear about orders a payment reached. The message comes from the
          gateway&apos;s address with your sender name; answers go to the reply-to address.
        </p>
        <ActionForm action={saveMailSettings} submit="Save mail settings" className="mt-3 space-y-4">
          <div>
            <label htmlFor="mail-sender" className="block font-medium">
              Sender name
            </label>
            <Input
              id="mail-sender"
              name="senderName"
              type="text"
              maxLength={100}
              defaultValue={settings.mailSenderName ?? ''}
              placeholder={settings.name}
            />
          </div>
          <div>
            <label htmlFor="mail-reply-to" className="block font-medium">
              Reply-to address
            </label>
            <Input id="mail-reply-to" name="replyTo" type="email" defaultValue={settings.mailReplyTo ?? ''} />
          </div>
          <fieldset>
            <legend className="font-medium">Mails sent</legend>
            {PAYER_MAIL_KINDS.map((kind) => (
              <label key={kind} className="mt-1 flex items-center gap-2">
                <input
                  type="checkbox"
                  name="on"
                  value={kind}
                  defaultChecked={!settings.payerMailOff.includes(kind)}
                  className="size-4"
                />
                {PAYER_MAIL_LABELS[kind]}
              </label>
            ))}
          </fieldset>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="dailySummary" defaultChecked={settings.dailySummary} className="size-4" />
            Daily summary to owners and admins: the day before's orders and amounts received (UTC days)
          </label>
        </ActionForm>
      </section>

      <section aria-labelledby="late-title" className={SECTION}>
        <h2 id="late-title" className="text-lg font-semibold">
          Late payments
        </h2>
        <p className={HELP}>
          A payment that reaches an expired or underpaid order after its deadline settles the order by itself when it
          arrives within these minutes and the coin&apos;s price moved less than this since the quote (orders priced in
          their coin have no price to move). Otherwise the payer can pay the rest, and you decide on the order page. 0
          minutes: you always decide.
        </p>
        <ActionForm action={saveLatePaymentRule} submit="Save late-payment rule" className="mt-3 space-y-4">
          <Label>
            Minutes after the deadline
            <Input
              name="minutes"
              inputMode="numeric"
              pattern="[0-9]{1,4}"
              defaultValue={String(settings.lateAcceptMinutes)}
              required
              maxLength={4}
              aria-describedby="late-minutes-help"
            />
          </Label>
          <p id="late-minutes-help" className={HELP}>
            {`From 0 to ${LATE_ACCEPT_MAX_MINUTES}.`}
          </p>
          <Label>
            Price move below (percent)
            <Input
              name="rateMovePercent"
              inputMode="decimal"
              defaultValue={settings.lateAcceptRateMovePercent}
              required
              maxLength={12}
            />
          </Label>
        </ActionForm>
      </section>

      <section aria-labelledby="excess-title" className={SECTION}>
        <h2 id="excess-title" className="text-lg font-semibold">
          Excess claims
        </h2>
        <p className={HELP}>
          The payer of an overpaid order may claim the excess back on the payment page (the network fee comes out of it)
          when the excess is at least this share of the order&apos;s amount. Below it, no claim is offered. At least 1
          %, the minimum against dust; empty: the minimum.
        </p>
        <ActionForm action={saveExcessClaimRule} submit="Save excess claims" className="mt-3 space-y-4">
          <Label>
            Least excess (percent of the amount)
            <Input
              name="percent"
              inputMode="decimal"
              defaultValue={excessClaimPercent ?? ''}
              placeholder="1"
              maxLength={12}
            />
          </Label>
        </ActionForm>
      </section>

      {can(session.role, 'team') && (
        <section aria-labelledby="refund-approval-title" className={SECTION}>
          <h2 id="refund-approval-title" className="text-lg font-semibold">
            Refund approval
          </h2>
          <p className={HELP}>
            A refund worth more than this, at the current price when it is made, is not sent until a second person with
            the refunds permission approves it on the order page. Empty: no refund needs one. Owners only.
          </p>
          <ActionForm action={saveRefundApproval} submit="Save refund approval" className="mt-3 space-y-4">
            <Label>
              Approval above
              <Input name="above" inputMode="decimal" defaultValue={refundApproval.above ?? ''} maxLength={29} />
            </Label>
            <Label>
              Currency
              <Input name="currency" defaultValue={refundApproval.currency} required maxLength={8} />
            </Label>
          </ActionForm>
        </section>
      )}

      <section aria-labelledby="pos-title" className={SECTION}>
        <h2 id="pos-title" className="text-lg font-semibold">
          Point of sale
        </h2>
        <p className={HELP}>
          The currency cashiers key amounts in at /dashboard/pos, and the tips offered (up to three whole percents).
        </p>
        <ActionForm action={savePointOfSale} submit="Save point of sale" className="mt-3 space-y-4">
          <Label>
            Currency
            <Input name="currency" defaultValue={pos.currency} required maxLength={16} />
          </Label>
          <Label>
            Tips (percent)
            <Input name="tips" defaultValue={pos.tips.join(', ')} maxLength={40} />
          </Label>
        </ActionForm>
      </section>

      {can(session.role, 'team') && (
        <section aria-labelledby="two-factor-title" className={SECTION}>
          <h2 id="two-factor-title" className="text-lg font-semibold">
            Two-factor sign-in
          </h2>
          <ActionForm action={saveTwoFactorRequirement} submit="Save" className="mt-3 space-y-4">
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                name="requireTwoFactor"
                defaultChecked={settings.requireTwoFactor}
                className="mt-1 size-4"
              />
              <span>
                <span className="font-medium">Require two-factor for owners</span>
                <span className={`block ${HELP}`}>
                  Owners then sign in with a code from an authenticator app; an owner without one is asked to set it up
                  first.
                </span>
              </span>
            </label>
          </ActionForm>
        </section>
      )}
    </PageBody>
  );
}

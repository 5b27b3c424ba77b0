import type { Metadata } from 'next';
import { PageBody } from '@/components/dashboard/ui';
import { QRCodeSVG } from 'qrcode.react';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { enrolment, PASSWORD_MIN_LENGTH, unusedRecoveryCodes } from '@/lib/users';
import { ActionForm } from '../../action-form';
import { signOutEverywhere } from '../../actions';
import { NOTICE } from '../../form-styles';
import { requirePage } from '../../session';
import { changePasswordAction, disableTwoFactorAction, enableTwoFactorAction } from './actions';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

export const metadata: Metadata = { title: 'Account' };

const params = z.object({ enrol: z.literal('required').optional().catch(undefined) });

const SECTION = 'mt-8 rounded-lg border border-line p-4';

/** The signed-in user's own account: password, two-factor (enrol with a QR code, recovery codes), sign out. */
// The dashboard frame ((app)/layout.tsx, pages helper) holds the page's <main>.
export default async function AccountPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requirePage('view', { enrolment: true });
  const { enrol } = params.parse(await searchParams);
  const db = await getDatabase();
  // The secret is read (and shown) only while enrolling: once confirmed, no page shows it again.
  const pending = session.twoFactorEnabled ? undefined : await enrolment(db, session.userId);
  const recoveryLeft = session.twoFactorEnabled ? await unusedRecoveryCodes(db, session.userId) : 0;
  return (
    <PageBody title="Your account" narrow>
      <p className="mt-2">
        {session.email} · {session.role} at {session.merchantName}
      </p>
      {(enrol || session.mustEnrolTwoFactor) && !session.twoFactorEnabled && (
        <p role="status" className={`mt-4 ${NOTICE}`}>
          Your team requires two-factor sign-in for owners: set it up below to continue.
        </p>
      )}

      <section className={SECTION} aria-labelledby="two-factor">
        <h2 id="two-factor" className="text-lg font-semibold">
          Two-factor sign-in
        </h2>
        {session.twoFactorEnabled ? (
          <>
            <p className="mt-2">
              On. Signing in asks for a code from your authenticator app. Recovery codes left: {recoveryLeft}.
            </p>
            <div className="mt-4">
              <ActionForm action={disableTwoFactorAction} submit="Turn two-factor off" variant="danger">
                <div>
                  <Label htmlFor="disable-code">Current code</Label>
                  <Input id="disable-code" name="code" autoComplete="one-time-code" required maxLength={32} />
                </div>
              </ActionForm>
            </div>
          </>
        ) : (
          <>
            <p className="mt-2">
              Scan this code with an authenticator app (any TOTP app), or type the key by hand, then type the code it
              shows.
            </p>
            <div className="mt-4 flex flex-wrap items-start gap-4">
              <div className="rounded-md bg-white p-2">
                <QRCodeSVG value={pending!.uri} size={176} marginSize={2} title="QR code of your two-factor key" />
              </div>
              <div className="min-w-0">
                <p className="text-sm font-medium">Key</p>
                <p className="break-all font-mono" data-testid="totp-secret">
                  {pending!.secret}
                </p>
              </div>
            </div>
            <div className="mt-4">
              <ActionForm action={enableTwoFactorAction} submit="Turn two-factor on">
                <div>
                  <Label htmlFor="enable-code">Code from the app</Label>
                  <Input id="enable-code" name="code" autoComplete="one-time-code" required maxLength={32} />
                </div>
              </ActionForm>
            </div>
          </>
        )}
      </section>

      <section className={SECTION} aria-labelledby="password">
        <h2 id="password" className="text-lg font-semibold">
          Password
        </h2>
        <div className="mt-2">
          <ActionForm action={changePasswordAction} submit="Change password" variant="secondary">
            <input type="hidden" name="username" autoComplete="username" value={session.email} />
            <div>
              <Label htmlFor="current">Current password</Label>
              <Input id="current" name="current" type="password" autoComplete="current-password" required />
            </div>
            <div>
              <Label htmlFor="new-password">New password</Label>
              <Input
                id="new-password"
                name="password"
                type="password"
                autoComplete="new-password"
                required
                minLength={PASSWORD_MIN_LENGTH}
                aria-describedby="new-password-rule"
              />
              <p id="new-password-rule" className="mt-1 text-sm text-muted">
                At least {PASSWORD_MIN_LENGTH} characters; not a common password, nor your e-mail address.
              </p>
            </div>
            <div>
              <Label htmlFor="confirm">Repeat the new password</Label>
              <Input id="confirm" name="confirm" type="password" autoComplete="new-password" required />
            </div>
          </ActionForm>
        </div>
      </section>

      <section className={SECTION} aria-labelledby="sessions">
        <h2 id="sessions" className="text-lg font-semibold">
          Sessions
        </h2>
        <p className="mt-2">
          A session ends after a while without use, and at the latest some hours after signing in. Lost a device? Sign
          out everywhere (the header's Sign out ends this session only).
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <form action={signOutEverywhere}>
            <Button type="submit" variant="danger">
              Sign out everywhere
            </Button>
          </form>
        </div>
      </section>
    </PageBody>
  );
}

import { Notice } from '@/components/dashboard/ui';

/** What the resend action said, carried back in `?resent=`. */
export function ResentNotice({ resent }: { resent?: string }) {
  if (resent === 'ok') return <Notice tone="success">The webhook was queued for sending again.</Notice>;
  if (resent === 'unknown') return <Notice tone="error">That webhook was not found in this mode.</Notice>;
  if (resent === 'invalid') return <Notice tone="error">That resend request was not valid; nothing was sent.</Notice>;
  return null;
}

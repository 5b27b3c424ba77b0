import Link from 'next/link';
import { LINK, PageBody } from '@/components/dashboard/ui';

/** An unknown id, or one of the other mode: inside the dashboard's frame, so the mode switch is at hand. */
export default function DashboardNotFound() {
  return (
    <PageBody title="Not found">
      <p className="text-sm">
        Nothing here in the mode you are viewing. Test data and live data are kept apart: an order made with a test key
        shows only in test mode, and the other way round.
      </p>
      <p className="mt-3 text-sm">
        <Link href="/dashboard/orders" className={LINK}>
          Back to the orders
        </Link>
      </p>
    </PageBody>
  );
}

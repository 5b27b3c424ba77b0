import { forbidden } from 'next/navigation';

/** Where a refused form post without JavaScript lands (app/dashboard/session.ts `refuse`): the 403 page. */
export default function ForbiddenPage(): never {
  forbidden();
}

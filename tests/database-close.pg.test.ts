/**
 * Closing a PostgreSQL database ends its LISTEN connections, also one still being established:
 * a close that came while it connected used to wait for it forever (the afterAll of a test file
 * whose dispatcher had just started hung until the hook's timeout).
 */
import { it } from 'vitest';
import { openPostgresTestDatabase } from './support/database';

it('closes a database whose listener is still connecting', async () => {
  const { db } = await openPostgresTestDatabase();
  await db.listen(
    'webhooks',
    () => {},
    () => {},
  );
  await db.close(); // a hang fails the test by its timeout
});

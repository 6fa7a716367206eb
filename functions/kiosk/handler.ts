/**
 * The admin kiosk (docs/kiosk.md "Kiosk"; docs/kiosk.md): platform admins only, in a session
 * (shared/routes.ts `kiosk`). Each part of the kiosk keeps its routes in its own module.
 */
import { featureHandler } from '#lib/http.ts';
import { ANNOUNCEMENT_ROUTES } from './announcements.ts';
import { CANCEL_REASON_ROUTES } from './cancel-reasons.ts';
import { LIBRARY_ROUTES } from './library.ts';
import { METRICS_ROUTES } from './metrics.ts';
import { PACK_ROUTES } from './packs.ts';
import { TEAM_ROUTES } from './teams.ts';
import { USER_ROUTES } from './users.ts';

export const handler = featureHandler('kiosk', {
  ...ANNOUNCEMENT_ROUTES,
  ...METRICS_ROUTES,
  ...USER_ROUTES,
  ...TEAM_ROUTES,
  ...CANCEL_REASON_ROUTES,
  ...PACK_ROUTES,
  ...LIBRARY_ROUTES,
});

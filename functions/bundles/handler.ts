/**
 * The `bundles` feature's Lambda. Its routes are listed in the route table (shared/routes.ts);
 * until the issue that builds this feature lands, each answers 501 naming the feature
 * (issue: foundation §6).
 */
import { featureHandler } from '#lib/http.ts';

export const handler = featureHandler('bundles', {});

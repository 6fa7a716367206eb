/**
 * Every route of the route table (shared/routes.ts) is built: each feature's Lambda has an
 * implementation for each of its routes, so none answers the 501 a route gets until its handler
 * exists (functions/lib/http.ts `featureHandler`). The render URL has its own handler
 * (functions/render/handler.ts) and is checked by the render tests.
 */
import { describe, expect, it } from 'vitest';
import { FEATURES, routesOf, routeKey, type Feature } from '#shared/routes.ts';
import type { FeatureHandler } from '#lib/http.ts';

/** The API features: every feature but the render URL. */
const API_FEATURES = FEATURES.filter((f): f is Exclude<Feature, 'render'> => f !== 'render');

describe('the route table', () => {
  it.each(API_FEATURES)('has every %s route implemented', async (feature) => {
    const { handler } = (await import(`../../functions/${feature}/handler.ts`)) as {
      handler: FeatureHandler;
    };
    const keys = routesOf(feature).map(routeKey);
    expect(handler.routeKeys.sort()).toEqual([...keys].sort());
    expect(keys.filter((key) => !handler.implemented.includes(key))).toEqual([]);
  });
});

/**
 * The entities of metered use: each team's renders per month (docs/security.md "Render limits").
 */
import { Entity } from 'electrodb';
import { SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function usageEntities({ opts, primary }: EntityKit) {
  /**
   * A team's renders in one UTC month (functions/render/usage.ts, quota.ts). `renders` grows by
   * atomic ADDs from the render containers' flushes (draws only, cache hits are free). The
   * `told80At` / `told100At` times are set once each by a conditional write when the owner is
   * told of 80 % and 100 % of the plan's quota, so concurrent containers notify once.
   *
   * Keyed by `usageTeam` (the team id), not `teamId`, so its partition key
   * (`$picsnippets#usageteam_…`) is apart from the team's own item: the render role may update
   * these records only (infra/constructs/render.ts `RENDER_USAGE`). No TTL, for the same reason
   * (a render role that may set `ttl` could expire other items): one small item per team and
   * month.
   */
  const TeamRenderUsage = new Entity(
    {
      model: { entity: 'teamrenderusage', version: '1', service: SERVICE },
      attributes: {
        /** The team's id. */
        usageTeam: { type: 'string', required: true },
        /** `YYYY-MM`, UTC. */
        month: { type: 'string', required: true },
        /** Draws counted this month, renders. */
        renders: { type: 'number', default: 0 },
        /** ISO 8601, when the owner was told of 80 % of the quota. */
        told80At: { type: 'string' },
        /** ISO 8601, when the owner was told of 100 % of the quota. */
        told100At: { type: 'string' },
      },
      indexes: {
        byTeamMonth: {
          pk: { ...primary.pk, composite: ['usageTeam'] },
          sk: { ...primary.sk, composite: ['month'] },
        },
      },
    },
    opts,
  );

  return { TeamRenderUsage };
}

/**
 * Each team's renders this month, against its plan's monthly quota (docs/security.md "Render
 * limits"; test/integration/render-quota.test.ts).
 *
 * Only draws count: an image answered from a cache costs nothing. Nothing is written per
 * request: draws are added up in memory and flushed with one atomic ADD per team, at most every
 * `intervalMs` or once `maxPending` draws wait (like the view counter, service.ts
 * `ViewCounter`). The month's total is read once per team per `ttlMs` and kept in memory, so
 * the quota check on the render path costs no DynamoDB read. The figure is therefore
 * approximate across containers: each may overshoot by what the others have not flushed yet
 * (at most `maxPending` draws or `intervalMs` of them each).
 *
 * The owner is told at 80 % and 100 % of the quota, once per threshold and month: the flush
 * that sees the total reach a threshold claims it with a conditional write on the team-month
 * record (`UsageStore.claimNotice`); only the claim that wins notifies, so concurrent
 * containers cannot notify twice. A failure to read, count or notify never affects a render:
 * the check then lets the draw through (fail open) and the log says why.
 */
import { logger } from '#lib/logger.ts';

/** Thresholds the owner hears of, percent of the monthly quota. */
export const QUOTA_THRESHOLDS = [80, 100] as const;
export type QuotaThreshold = (typeof QUOTA_THRESHOLDS)[number];

/** Where team-month totals live (DynamoDB: functions/render/quota.ts). */
export interface UsageStore {
  /** Renders recorded for the team in the month (`YYYY-MM`, UTC); 0 when none. */
  read(teamId: string, month: string): Promise<number>;
  /** Adds `n` renders atomically. @returns the month's new total, every container's draws. */
  add(teamId: string, month: string, n: number): Promise<number>;
  /**
   * Marks the threshold as told for the team-month with a conditional write.
   * @returns true only for the one call that marked it.
   */
  claimNotice(teamId: string, month: string, threshold: QuotaThreshold): Promise<boolean>;
}

/** Tells the team (in-app and e-mail). Should not throw; a throw is logged and dropped. */
export type QuotaNotifier = (notice: {
  teamId: string;
  month: string;
  threshold: QuotaThreshold;
  /** The plan's renders a month. */
  quota: number;
  /** The month's total when the threshold was seen. */
  used: number;
}) => Promise<void>;

export interface RenderUsageOptions {
  /** How long a team's month total read from the store is believed, ms. */
  ttlMs?: number;
  /** Longest time between flushes while draws wait, ms. */
  intervalMs?: number;
  /** Draws waiting (all teams) that start a flush. */
  maxPending?: number;
  /** Teams kept in memory at most; idle ones are dropped first. */
  maxTeams?: number;
  /** After a failed read, ms before the store is asked again (meanwhile: fail open). */
  retryMs?: number;
  now?: () => number;
}

interface TeamUsage {
  month: string;
  /** The month's total as the store last said, renders. */
  base: number;
  /** Draws being flushed now. */
  inFlight: number;
  /** Draws not flushed yet. */
  pending: number;
  /** When `base` was read or written, ms since the epoch (0: never). */
  at: number;
  /** The last quota seen for the team, renders a month (thresholds are judged against it). */
  quota: number;
  /** Thresholds claimed or seen claimed this month by this container. */
  told: Set<QuotaThreshold>;
  reading?: Promise<void> | undefined;
}

/** `YYYY-MM` of a time, UTC: the quota's month. */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** The month totals of teams and their flushes (see the file's comment). */
export class RenderUsage {
  private readonly teams = new Map<string, TeamUsage>();
  private pendingTotal = 0;
  private lastFlush: number;
  private flushing: Promise<void> | undefined;
  private readonly ttlMs: number;
  private readonly intervalMs: number;
  private readonly maxPending: number;
  private readonly maxTeams: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: UsageStore,
    private readonly notifier: QuotaNotifier,
    options: RenderUsageOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.intervalMs = options.intervalMs ?? 10_000;
    this.maxPending = options.maxPending ?? 200;
    this.maxTeams = options.maxTeams ?? 10_000;
    this.retryMs = options.retryMs ?? 5_000;
    this.now = options.now ?? Date.now;
    this.lastFlush = this.now();
  }

  /** The team's entry for this month, created (and the map trimmed) when missing. */
  private entry(teamId: string): TeamUsage {
    const month = monthOf(this.now());
    let team = this.teams.get(teamId);
    if (team && team.month !== month) {
      // A new month: last month's unflushed draws are dropped with it (a few at most).
      this.pendingTotal -= team.pending;
      team = undefined;
    }
    if (!team) {
      if (this.teams.size >= this.maxTeams) this.trim();
      team = { month, base: 0, inFlight: 0, pending: 0, at: 0, quota: 0, told: new Set() };
      this.teams.set(teamId, team);
    }
    return team;
  }

  /** Drops idle teams (nothing waiting) until a tenth of the room is free. */
  private trim(): void {
    const target = Math.floor(this.maxTeams * 0.9);
    for (const [id, team] of this.teams) {
      if (this.teams.size <= target) break;
      if (team.pending === 0 && team.inFlight === 0) this.teams.delete(id);
    }
  }

  /** Reads the month's total when it is older than `ttlMs`; a failure keeps the old figure. */
  private async refresh(teamId: string, team: TeamUsage): Promise<void> {
    if (this.now() - team.at < this.ttlMs) return;
    team.reading ??= this.store
      .read(teamId, team.month)
      .then(
        (total) => {
          team.base = total;
          team.at = this.now();
        },
        (error: unknown) => {
          logger.warn('render usage read failed: not limiting for now', {
            teamId,
            error: error as Error,
          });
          team.at = this.now() - this.ttlMs + this.retryMs;
        },
      )
      .finally(() => {
        team.reading = undefined;
      });
    await team.reading;
  }

  /**
   * True when the team has used its month's quota (draws recorded by every container as last
   * read, plus this container's since). Never throws.
   * @param quota the plan's renders a month.
   */
  async isOver(teamId: string, quota: number): Promise<boolean> {
    const team = this.entry(teamId);
    team.quota = quota;
    await this.refresh(teamId, team);
    return team.base + team.inFlight + team.pending >= quota;
  }

  /** Renders this month as this container knows it (for tests and logs). */
  used(teamId: string): number {
    const team = this.teams.get(teamId);
    return team ? team.base + team.inFlight + team.pending : 0;
  }

  /** Makes the next check of every team read its month's total again (tests; see handler.ts). */
  forget(): void {
    for (const team of this.teams.values()) team.at = 0;
  }

  /** Counts one draw for the team; flushes when enough wait or enough time passed. */
  countDraw(teamId: string, quota: number): void {
    const team = this.entry(teamId);
    team.quota = quota;
    team.pending += 1;
    this.pendingTotal += 1;
    if (
      !this.flushing &&
      (this.pendingTotal >= this.maxPending || this.now() - this.lastFlush >= this.intervalMs)
    )
      void this.flush();
  }

  /**
   * Writes what waits (one ADD per team), then tells the owners of teams whose total reached a
   * threshold. Failed adds are put back for the next flush. Never throws.
   */
  flush(): Promise<void> {
    // One flush at a time; a flush asked for meanwhile runs after it (what waits now is written).
    if (this.flushing) return this.flushing.then(() => this.flush());
    this.lastFlush = this.now();
    const batch: Array<[string, TeamUsage, number]> = [];
    for (const [teamId, team] of this.teams) {
      if (team.pending === 0) continue;
      batch.push([teamId, team, team.pending]);
      team.inFlight += team.pending;
      team.pending = 0;
    }
    this.pendingTotal = 0;
    this.flushing = Promise.all(batch.map(([id, team, n]) => this.write(id, team, n))).then(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(teamId: string, team: TeamUsage, n: number): Promise<void> {
    let total: number;
    try {
      total = await this.store.add(teamId, team.month, n);
    } catch (error) {
      logger.warn('render usage flush failed', { teamId, error: error as Error });
      team.inFlight -= n;
      team.pending += n;
      this.pendingTotal += n;
      return;
    }
    team.inFlight -= n;
    // One flush at a time: the stored total now holds every flushed draw of this container.
    team.base = total;
    team.at = this.now();
    for (const threshold of QUOTA_THRESHOLDS) {
      if (team.told.has(threshold) || team.quota <= 0) continue;
      if (total < Math.ceil((team.quota * threshold) / 100)) continue;
      team.told.add(threshold);
      await this.tell(teamId, team, threshold, total);
    }
  }

  /** Claims the threshold and, when this container won it, notifies. Never throws. */
  private async tell(
    teamId: string,
    team: TeamUsage,
    threshold: QuotaThreshold,
    used: number,
  ): Promise<void> {
    let won: boolean;
    try {
      won = await this.store.claimNotice(teamId, team.month, threshold);
    } catch (error) {
      // Not claimed: the next flush tries again.
      team.told.delete(threshold);
      logger.warn('render quota notice not claimed', { teamId, threshold, error: error as Error });
      return;
    }
    if (!won) return;
    try {
      await this.notifier({ teamId, month: team.month, threshold, quota: team.quota, used });
    } catch (error) {
      logger.warn('render quota notice failed', { teamId, threshold, error: error as Error });
    }
  }
}

/**
 * The single-table entities (docs/infra.md "What the stack creates"), declared with ElectroDB over
 * the key layout in shared/resources.ts, one module per aggregate (`entities-<aggregate>.ts`, each
 * a function of the table's kit): accounts (users, sessions, throttles, tokens), teams, billing,
 * designs (with their dashboard list indexes), the libraries (images, stickers, fonts), and the
 * later features' own (notifications, kiosk, mail, usage, first opens, polls, analytics,
 * webhooks, signing, send lists, data sources). Entities are built per table name and client, so
 * the local stack, tests (in-memory DynamoDB Local on a free port) and AWS share one declaration.
 */
import { Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { entityKit } from './entity-kit.ts';
import { accountsEntities } from './entities-accounts.ts';
import { teamsEntities } from './entities-teams.ts';
import { billingEntities } from './entities-billing.ts';
import { designsEntities } from './entities-designs.ts';
import { libraryEntities } from './entities-library.ts';
import { kioskMetricsEntities } from './entities-kiosk-metrics.ts';
import { kioskUserEntities } from './entities-kiosk-users.ts';
import { mailEntities } from './entities-mail.ts';
import { notificationEntities } from './entities-notifications.ts';
import { signingEntities } from './entities-signing.ts';
import { sendListEntities } from './entities-send-lists.ts';
import { dataSourceEntities } from './entities-data-sources.ts';
import { usageEntities } from './entities-usage.ts';
import { firstOpenEntities } from './entities-first-open.ts';
import { pollEntities } from './entities-polls.ts';
import { analyticsEntities } from './entities-analytics.ts';
import { webhookEntities } from './entities-webhooks.ts';

/** Builds every entity against one table and client. */
export function createEntities(table: string, client: DynamoDBDocumentClient) {
  const kit = entityKit(table, client);
  const { opts } = kit;

  const entities = {
    ...accountsEntities(kit),
    ...teamsEntities(kit),
    ...billingEntities(kit),
    ...designsEntities(kit),
    ...libraryEntities(kit),
    ...notificationEntities(kit),
    ...kioskMetricsEntities(kit),
    ...kioskUserEntities(kit),
    ...mailEntities(kit),
    ...usageEntities(kit),
    ...firstOpenEntities(kit),
    ...pollEntities(kit),
    ...analyticsEntities(kit),
    ...webhookEntities(kit),
    ...signingEntities(kit),
    ...sendListEntities(kit),
    ...dataSourceEntities(kit),
  };
  return { ...entities, service: new Service(entities, opts) };
}

export type Entities = ReturnType<typeof createEntities>;

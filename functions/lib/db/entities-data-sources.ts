/**
 * The entities of data sources (docs/data-sources.md): a team's data stores, their records, and
 * its web APIs.
 */
import { Entity } from 'electrodb';
import { now, SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function dataSourceEntities({ opts, primary }: EntityKit) {
  /**
   * One data store of a team, in the team's data-store partition (at most
   * `DATA_SOURCE_LIMITS.stores`). `columns` are the header's names in file order, the last
   * upload's; `rows` counts the records held.
   */
  const DataStore = new Entity(
    {
      model: { entity: 'datastore', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        storeId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        keyColumn: { type: 'string', required: true },
        columns: { type: 'list', items: { type: 'string' }, required: true },
        rows: { type: 'number', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
        updatedAt: { type: 'string', default: now, set: () => now(), watch: '*' },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['storeId'] },
        },
      },
    },
    opts,
  );

  /**
   * One record of a data store, keyed by team, store and the hash of its key (docs/data-sources.md
   * "Storage"): a render's lookup is one GetItem. The hash keeps keys of any case and length
   * apart (ElectroDB lowercases key parts; a sort key has at most 1 KiB); `key` keeps the text.
   * `fields` holds every column's value by header name.
   */
  const DataRecord = new Entity(
    {
      model: { entity: 'datarecord', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        storeId: { type: 'string', required: true },
        keyHash: { type: 'string', required: true },
        key: { type: 'string', required: true },
        fields: { type: 'any', required: true },
        updatedAt: { type: 'string', default: now, set: () => now(), watch: '*' },
      },
      indexes: {
        byStore: {
          pk: { ...primary.pk, composite: ['teamId', 'storeId'] },
          sk: { ...primary.sk, composite: ['keyHash'] },
        },
      },
    },
    opts,
  );

  /**
   * One web API of a team (at most `DATA_SOURCE_LIMITS.apis`). `headers` is the JSON of its
   * secret headers sealed by functions/lib/secrets.ts (encryption context `{ teamId, apiId,
   * purpose: 'web-api' }`), '' when it has none; `headerNames` are shown, the values never.
   */
  const WebApi = new Entity(
    {
      model: { entity: 'webapi', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        apiId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        url: { type: 'string', required: true },
        /** s; 0 keeps nothing. */
        ttlSeconds: { type: 'number', required: true },
        headers: { type: 'string', default: '' },
        headerNames: { type: 'list', items: { type: 'string' }, default: () => [] },
        createdAt: { type: 'string', default: now, readOnly: true },
        updatedAt: { type: 'string', default: now, set: () => now(), watch: '*' },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['apiId'] },
        },
      },
    },
    opts,
  );

  return { DataStore, DataRecord, WebApi };
}

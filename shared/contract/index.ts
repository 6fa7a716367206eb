/**
 * The API contract: every route's {@link RouteContract} by route key (`METHOD /path`, exactly
 * as shared/routes.ts writes it). docs/adr/0044-the-api-contract.md "The API contract" says how to
 * add one. Features are converted one at a time; a route without a contract here still works, with
 * its handler's own schemas and an untyped answer.
 */
import type { z } from 'zod';
import type { RouteContract } from './core.ts';
import { AUTH_CONTRACT } from './auth.ts';
import { BILLING_CONTRACT } from './billing.ts';
import { BUNDLES_CONTRACT } from './bundles.ts';
import { CAMPAIGNS_CONTRACT } from './campaigns.ts';
import { POLLS_CONTRACT } from './polls.ts';
import { DATA_SOURCES_CONTRACT } from './data-sources.ts';
import { DESIGNS_CONTRACT } from './designs.ts';
import { FONTS_CONTRACT } from './fonts.ts';
import { IMAGES_CONTRACT } from './images.ts';
import { KIOSK_CONTRACT } from './kiosk.ts';
import { KIOSK_PACKS_CONTRACT } from './kiosk-packs.ts';
import { KIOSK_USERS_CONTRACT } from './kiosk-users.ts';
import { MERGE_TAGS_CONTRACT } from './merge-tags.ts';
import { NOTIFICATIONS_CONTRACT } from './notifications.ts';
import { PLATFORM_CONTRACT } from './platform.ts';
import { SIGNING_CONTRACT } from './signing.ts';
import { SEND_LISTS_CONTRACT } from './send-lists.ts';
import { STICKERS_CONTRACT } from './stickers.ts';
import { SYSTEM_CONTRACT } from './system.ts';
import { TEAMS_CONTRACT } from './teams.ts';
import { TEMPLATES_CONTRACT } from './templates.ts';
import { TEXT_SNIPPETS_CONTRACT } from './text-snippets.ts';
import { WEBHOOKS_CONTRACT } from './webhooks.ts';
import { WEB_CROPS_CONTRACT } from './web-crops.ts';

export * from './core.ts';

/** Every route's contract, by route key. */
export const CONTRACT = {
  ...DESIGNS_CONTRACT,
  ...SYSTEM_CONTRACT,
  ...AUTH_CONTRACT,
  ...TEAMS_CONTRACT,
  ...BILLING_CONTRACT,
  ...MERGE_TAGS_CONTRACT,
  ...TEXT_SNIPPETS_CONTRACT,
  ...TEMPLATES_CONTRACT,
  ...BUNDLES_CONTRACT,
  ...STICKERS_CONTRACT,
  ...IMAGES_CONTRACT,
  ...FONTS_CONTRACT,
  ...KIOSK_CONTRACT,
  ...KIOSK_USERS_CONTRACT,
  ...KIOSK_PACKS_CONTRACT,
  ...NOTIFICATIONS_CONTRACT,
  ...PLATFORM_CONTRACT,
  ...WEBHOOKS_CONTRACT,
  ...SEND_LISTS_CONTRACT,
  ...SIGNING_CONTRACT,
  ...DATA_SOURCES_CONTRACT,
  ...CAMPAIGNS_CONTRACT,
  ...POLLS_CONTRACT,
  ...WEB_CROPS_CONTRACT,
} as const satisfies Record<string, RouteContract>;

/** A route key that has a contract. */
export type ContractKey = keyof typeof CONTRACT;

type Of<K extends ContractKey, F extends keyof RouteContract> =
  (typeof CONTRACT)[K] extends Record<F, infer S extends z.ZodType> ? S : undefined;

/** The path parameters a call of route `K` takes (`{ id: string }`), or never. */
export type ParamsOf<K extends ContractKey> =
  Of<K, 'params'> extends z.ZodType ? z.input<Of<K, 'params'>> : undefined;
/** The query a call of route `K` sends (before defaults). */
export type QueryOf<K extends ContractKey> =
  Of<K, 'query'> extends z.ZodType ? z.input<Of<K, 'query'>> : undefined;
/** The body a call of route `K` sends (before defaults and transforms). */
export type BodyOf<K extends ContractKey> =
  Of<K, 'body'> extends z.ZodType ? z.input<Of<K, 'body'>> : undefined;
/** The success answer of route `K`. */
export type AnswerOf<K extends ContractKey> = z.output<(typeof CONTRACT)[K]['answer']>;

/** The contract of a route key, if it has one. */
export function contractOf(key: string): RouteContract | undefined {
  return (CONTRACT as Record<string, RouteContract>)[key];
}

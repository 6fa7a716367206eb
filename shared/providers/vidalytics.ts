/**
 * Vidalytics (docs/providers.md "Vidalytics"): the embed code names the account and the embed
 * (`…/embeds/{accountId}/{embedId}/`, `vidalytics_embed_{embedId}`); the options default
 * (true), pause (false) and mobile (false) say which player slots show the personalised image
 * (docs/providers.md "Vidalytics"). Values come from the page's address (page.ts).
 */
import { pageProvider } from './page.ts';

export const vidalytics = pageProvider({
  value: 'vidalytics',
  label: 'Vidalytics',
  url: 'https://vidalytics.com',
});

/** Which Vidalytics player slots take the image (docs/providers.md defaults). */
export interface VidalyticsOptions {
  default: boolean;
  pause: boolean;
  mobile: boolean;
}

export const DEFAULT_VIDALYTICS_OPTIONS: VidalyticsOptions = {
  default: true,
  pause: false,
  mobile: false,
};

/** The account and embed ids of a pasted Vidalytics embed code, or undefined. */
export function vidalyticsEmbed(
  embedCode: string,
): { accountId: string; embedId: string } | undefined {
  const m = /\/embeds\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)/.exec(embedCode);
  return m ? { accountId: m[1]!, embedId: m[2]! } : undefined;
}

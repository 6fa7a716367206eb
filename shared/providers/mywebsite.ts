/**
 * Web tracking on the customer's own site (docs/providers.md "Web tracking"): tagged
 * images (`<img data-picsnippet="{base_url}">`) filled by `/js/picsnippets.js` from the page's
 * query parameters (page.ts).
 */
import { pageProvider } from './page.ts';

export const mywebsite = pageProvider({ value: 'mywebsite', label: 'My website', url: '' });

/**
 * fixyourfunnel (docs/providers.md "fixyourfunnel"): its links carry one value, `txt=`, which
 * the render service gives to the design's first parameter (docs/providers.md
 * "fixyourfunnel"). Its merge-tag syntax is not documented where we could check it, so the value is
 * typed as for Custom (typed.ts).
 */
import { typedTagProvider } from './typed.ts';

export const fixyourfunnel = typedTagProvider({
  value: 'fixyourfunnel',
  label: 'fixyourfunnel',
  url: 'https://fixyourfunnel.com',
  urlForm: 'txt',
});

/**
 * Custom (the empty provider value, docs/providers.md): any platform. Values are typed: the
 * platform's own merge tag (kept as typed) or fixed text (encoded); see typed.ts.
 */
import { typedTagProvider } from './typed.ts';

export const custom = typedTagProvider({
  value: '',
  label: 'Custom',
  url: '',
  urlForm: 'params',
});

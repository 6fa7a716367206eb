import { OutlineIcon } from './OutlineIcon.tsx';

/**
 * The outline paths of the settings tabs' icons (24 × 24, stroked), from Tabler Icons (MIT,
 * © Paweł Kuna; the `@tabler/icons` package the sticker packs also use): user, building,
 * building-store, file-invoice, users, credit-card, shield-lock, crown, code, webhook
 * (docs/accounts.md "Screens": settings icons).
 */
const PATHS = {
  profile: ['M8 7a4 4 0 1 0 8 0a4 4 0 0 0 -8 0', 'M6 21v-2a4 4 0 0 1 4 -4h4a4 4 0 0 1 4 4v2'],
  companies: [
    'M3 21l18 0',
    'M9 8l1 0',
    'M9 12l1 0',
    'M9 16l1 0',
    'M14 8l1 0',
    'M14 12l1 0',
    'M14 16l1 0',
    'M5 21v-16a2 2 0 0 1 2 -2h10a2 2 0 0 1 2 2v16',
  ],
  company: [
    'M3 21l18 0',
    'M3 7v1a3 3 0 0 0 6 0v-1m0 1a3 3 0 0 0 6 0v-1m0 1a3 3 0 0 0 6 0v-1h-18l2 -4h14l2 4',
    'M5 21l0 -10.15',
    'M19 21l0 -10.15',
    'M9 21v-4a2 2 0 0 1 2 -2h2a2 2 0 0 1 2 2v4',
  ],
  invoices: [
    'M14 3v4a1 1 0 0 0 1 1h4',
    'M17 21h-10a2 2 0 0 1 -2 -2v-14a2 2 0 0 1 2 -2h7l5 5v11a2 2 0 0 1 -2 2',
    'M9 7l1 0',
    'M9 13l6 0',
    'M13 17l2 0',
  ],
  membership: [
    'M5 7a4 4 0 1 0 8 0a4 4 0 1 0 -8 0',
    'M3 21v-2a4 4 0 0 1 4 -4h4a4 4 0 0 1 4 4v2',
    'M16 3.13a4 4 0 0 1 0 7.75',
    'M21 21v-2a4 4 0 0 0 -3 -3.85',
  ],
  'payment-method': [
    'M3 8a3 3 0 0 1 3 -3h12a3 3 0 0 1 3 3v8a3 3 0 0 1 -3 3h-12a3 3 0 0 1 -3 -3l0 -8',
    'M3 10l18 0',
    'M7 15l.01 0',
    'M11 15l2 0',
  ],
  security: [
    'M12 3a12 12 0 0 0 8.5 3a12 12 0 0 1 -8.5 15a12 12 0 0 1 -8.5 -15a12 12 0 0 0 8.5 -3',
    'M11 11a1 1 0 1 0 2 0a1 1 0 1 0 -2 0',
    'M12 12l0 2.5',
  ],
  subscription: ['M12 6l4 6l5 -4l-2 10h-14l-2 -10l5 4l4 -6'],
  developer: ['M7 8l-4 4l4 4', 'M17 8l4 4l-4 4', 'M14 4l-4 16'],
  data: [
    'M4 6a8 3 0 1 0 16 0a8 3 0 1 0 -16 0',
    'M4 6v6a8 3 0 0 0 16 0v-6',
    'M4 12v6a8 3 0 0 0 16 0v-6',
  ],
  webhooks: [
    'M4.876 13.61a4 4 0 1 0 6.124 3.39h6',
    'M15.066 20.502a4 4 0 1 0 1.934 -7.502c-.706 0 -1.424 .179 -2 .5l-3 -5.5',
    'M16 8a4 4 0 1 0 -8 0c0 1.506 .77 2.818 2 3.5l-3 5.5',
  ],
} as const satisfies Record<string, readonly string[]>;

/** The settings icons there are. */
export type SettingsIconName = keyof typeof PATHS;

/**
 * A settings tab's icon, decorative (the tab's label names it): drawn as SVG in the text's
 * colour, 18 px by default.
 */
export function SettingsIcon({ name, size = 18 }: { name: SettingsIconName; size?: number }) {
  return (
    <OutlineIcon
      className="settings-icon"
      paths={PATHS[name]}
      size={size}
      aria-hidden="true"
      focusable="false"
      data-icon={name}
    />
  );
}

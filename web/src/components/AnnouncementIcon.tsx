import { OutlineIcon } from './OutlineIcon.tsx';
import { ANNOUNCEMENT_ICONS, type AnnouncementIcon as IconId } from '#shared/contract/kiosk.ts';

/**
 * The outline paths of each announcement icon (24 × 24, stroked), from Tabler Icons (MIT,
 * © Paweł Kuna; the `@tabler/icons` package the sticker packs also use): speakerphone,
 * sparkles, tool, gift, info-circle, alert-triangle. Drawn as SVG rather than emoji, which
 * many systems (and Lambda's Chromium) lack a font for.
 */
const PATHS: Record<IconId, readonly string[]> = {
  megaphone: [
    'M18 8a3 3 0 0 1 0 6',
    'M10 8v11a1 1 0 0 1 -1 1h-1a1 1 0 0 1 -1 -1v-5',
    'M12 8l4.524 -3.77a.9 .9 0 0 1 1.476 .692v12.156a.9 .9 0 0 1 -1.476 .692l-4.524 -3.77h-8a1 1 0 0 1 -1 -1v-4a1 1 0 0 1 1 -1h8',
  ],
  sparkles: [
    'M16 18a2 2 0 0 1 2 2a2 2 0 0 1 2 -2a2 2 0 0 1 -2 -2a2 2 0 0 1 -2 2m0 -12a2 2 0 0 1 2 2a2 2 0 0 1 2 -2a2 2 0 0 1 -2 -2a2 2 0 0 1 -2 2m-7 12a6 6 0 0 1 6 -6a6 6 0 0 1 -6 -6a6 6 0 0 1 -6 6a6 6 0 0 1 6 6',
  ],
  wrench: ['M7 10h3v-3l-3.5 -3.5a6 6 0 0 1 8 8l6 6a2 2 0 0 1 -3 3l-6 -6a6 6 0 0 1 -8 -8l3.5 3.5'],
  gift: [
    'M3 9a1 1 0 0 1 1 -1h16a1 1 0 0 1 1 1v2a1 1 0 0 1 -1 1h-16a1 1 0 0 1 -1 -1l0 -2',
    'M12 8l0 13',
    'M19 12v7a2 2 0 0 1 -2 2h-10a2 2 0 0 1 -2 -2v-7',
    'M7.5 8a2.5 2.5 0 0 1 0 -5a4.8 8 0 0 1 4.5 5a4.8 8 0 0 1 4.5 -5a2.5 2.5 0 0 1 0 5',
  ],
  info: ['M3 12a9 9 0 1 0 18 0a9 9 0 0 0 -18 0', 'M12 9h.01', 'M11 12h1v4h1'],
  warning: [
    'M12 9v4',
    'M10.363 3.591l-8.106 13.534a1.914 1.914 0 0 0 1.636 2.871h16.214a1.914 1.914 0 0 0 1.636 -2.87l-8.106 -13.536a1.914 1.914 0 0 0 -3.274 0',
    'M12 16h.01',
  ],
};

/**
 * An announcement's icon (docs/kiosk.md "Announcements" `icon`; shared/contract/kiosk.ts
 * `ANNOUNCEMENT_ICONS`), for the kiosk and the notifications panel. Named for screen readers by the
 * icon's label (`Announcement`, `Warning`, …) unless `decorative`, when the text beside it says it
 * all.
 */
export function AnnouncementIcon({
  icon,
  size = 24,
  decorative = false,
}: {
  icon: IconId;
  /** px */
  size?: number;
  decorative?: boolean;
}) {
  const paths = PATHS[icon] ?? PATHS.megaphone;
  return (
    <OutlineIcon
      className="announcement-icon"
      paths={paths}
      size={size}
      {...(decorative
        ? { 'aria-hidden': true }
        : { role: 'img', 'aria-label': ANNOUNCEMENT_ICONS[icon]?.label ?? 'Announcement' })}
    />
  );
}

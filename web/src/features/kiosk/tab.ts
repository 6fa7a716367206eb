/**
 * What every kiosk tab gets from the kiosk page (web/src/features/kiosk/KioskPage.tsx): the
 * rest of the hash after its tab (`#/users/{id}` → `'{id}'`) and a way to move within the
 * kiosk that keeps the address true (docs/kiosk.md: tabs are chosen by hash).
 */
export const KIOSK_TABS = [
  'announcements',
  'metrics',
  'users',
  'teams',
  'cancel-reasons',
  'stickers',
  'library',
] as const;

export type KioskTabId = (typeof KIOSK_TABS)[number];

export interface KioskTabProps {
  /** The hash after the tab: `''` on the tab's own page, an id on a profile. */
  rest: string;
  /** Goes to a tab (and a place in it): `go('users', '42')` → `#/users/42`. */
  go: (tab: KioskTabId, rest?: string) => void;
}

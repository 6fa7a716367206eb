import { useCallback, useState } from 'react';
import type { KioskTabProps } from './tab.ts';
import { TeamProfile } from './teams/TeamProfile.tsx';
import { TeamSearch } from './teams/TeamSearch.tsx';
import './users/kiosk-users.css';

/**
 * The kiosk's Teams tab (docs/kiosk.md, docs/kiosk.md "Teams and additional
 * permissions"): `#/teams` is the search, `#/teams/{id}` a profile with the additional
 * permissions. The search text lives here, so Esc from a profile finds it as it was.
 */
export function TeamsTab({ rest, go }: KioskTabProps) {
  const [text, setText] = useState('');
  const back = useCallback(() => go('teams'), [go]);
  if (rest) return <TeamProfile id={rest} back={back} />;
  return <TeamSearch text={text} onText={setText} open={(id) => go('teams', id)} />;
}

import { Link } from 'react-router-dom';
import type { CurrentTeam } from '../../api/designs.ts';
import { Notice } from '../../components/Notice.tsx';
import { subscriptionPath } from '../../hooks/useCurrentTeam.ts';

/**
 * Why the design actions are disabled for a frozen team (docs/adr/0018-design-lists.md "Design
 * lists": "Frozen accounts cannot archive, clone, activate or create"), with the way to the team's
 * subscription settings.
 * @param id the text's id, for the `aria-describedby` of the disabled buttons.
 */
export function FrozenNotice({ team, id }: { team: CurrentTeam; id?: string }) {
  return (
    <Notice tone="info" title="Your team's account is frozen">
      <p id={id}>
        A frozen account cannot create, archive, clone or activate PicSnippets.{' '}
        <Link to={subscriptionPath(team.id)}>Check the subscription</Link> or contact support.
      </p>
    </Notice>
  );
}

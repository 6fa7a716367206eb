import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { createFromTemplate } from '../../api/designs.ts';
import { fetchBundles } from '../../api/templates.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { queryKeys } from '../../state/queryKeys.ts';
import { useAppStore } from '../../state/store.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { DesignCardItem } from './DesignCardItem.tsx';
import { ActionFeedback } from '../../components/Flash.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/** The team's bundles, the first page (the Bonus tab and the Bonus view share one read). */
const bonusQuery = (teamId: string) =>
  queryOptions({
    queryKey: queryKeys.bundles.first(teamId),
    queryFn: ({ signal }) => fetchBundles(null, signal),
  });

/**
 * Whether the signed-in user's team has Bonus templates (the bundles assigned to it,
 * docs/adr/0020-dashboard-spa.md "Dashboard SPA": "a private bundle view"): null while unknown,
 * false when they cannot be read. Admins have the Template Bundles tab instead.
 */
export function useHasBonus(admin: boolean): boolean | null {
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const read = useQuery({
    ...bonusQuery(teamId),
    enabled: !admin,
    select: (page) => page.items.some((b) => b.bundle_images.length > 0),
  });
  if (admin || read.isError) return false;
  return read.data ?? null;
}

/**
 * The dashboard's private bundle view for users (docs/adr/0020-dashboard-spa.md "Dashboard SPA"
 * view switches; the tab "Bonus Templates"): each bundle assigned to the team with its templates,
 * up to six a bundle (docs/editor.md "Constants"), each with "Use this template", which makes a
 * design and opens it in the editor. The editor's Templates panel (Bonus tab) lists every template
 * of every bundle.
 */
export function BonusTemplates({
  frozen,
  frozenHintId,
}: {
  frozen: boolean;
  frozenHintId: string;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const read = useQuery(bonusQuery(teamId));
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  async function start(templateId: string) {
    if (busy) return;
    setBusy(templateId);
    setActionError(null);
    try {
      const id = await createFromTemplate(templateId);
      void queryClient.invalidateQueries({ queryKey: queryKeys.designs.all, refetchType: 'none' });
      navigate(`/pic-snippet/${encodeURIComponent(id)}/edit`);
    } catch (failure) {
      setActionError(actionFailure(failure));
      setBusy(null);
    }
  }

  if (read.isError) {
    return (
      <LoadFailed
        title="Your Bonus templates could not be loaded"
        message={actionFailure(read.error)}
        onRetry={() => void read.refetch()}
      />
    );
  }
  const bundles = read.data?.items;
  if (!bundles) {
    return (
      <p className="muted" role="status">
        <Spinner /> Loading your Bonus templates…
      </p>
    );
  }
  return (
    <div className="stack-lg">
      {bundles.map((bundle) => (
        <section key={bundle.id} className="stack" aria-label={bundle.name}>
          <h2 className="card__title">{bundle.name}</h2>
          <ul className="design-grid">
            {bundle.bundle_images.map((template) => (
              <DesignCardItem
                key={template.id}
                card={template}
                actions={[
                  {
                    key: 'use',
                    label: 'Use this template',
                    primary: true,
                    pending: busy === template.id,
                    disabled: frozen || busy !== null,
                    describedBy: frozen ? frozenHintId : undefined,
                    onClick: () => void start(template.id),
                  },
                ]}
              />
            ))}
          </ul>
        </section>
      ))}
      <ActionFeedback
        flash={null}
        error={actionError}
        onDismissError={() => setActionError(null)}
      />
    </div>
  );
}

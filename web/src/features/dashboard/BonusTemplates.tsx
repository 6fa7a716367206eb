import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { createFromTemplate } from '../../api/designs.ts';
import { fetchBundles, type Bundle } from '../../api/templates.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { actionFailure } from '../settings/formFailure.ts';
import { DesignCardItem } from './DesignCardItem.tsx';
import { ActionFeedback } from './Flash.tsx';
import { LoadFailed } from './LoadFailed.tsx';

/**
 * Whether the signed-in user's team has Bonus templates (the bundles assigned to it, spec 000
 * §2 "a private bundle view"): null while unknown. Admins have the Template Bundles tab instead.
 */
export function useHasBonus(admin: boolean): boolean | null {
  const [has, setHas] = useState<boolean | null>(null);
  useEffect(() => {
    if (admin) return;
    const controller = new AbortController();
    fetchBundles(null, controller.signal).then(
      (page) => setHas(page.items.some((b) => b.bundle_images.length > 0)),
      () => setHas(false),
    );
    return () => controller.abort();
  }, [admin]);
  return admin ? false : has;
}

/**
 * The dashboard's private bundle view for users (spec 000 §2 view switches; the tab "Bonus
 * Templates"): each bundle assigned to the team with its templates, up to six a bundle (spec
 * 000 §9), each with "Use this template", which makes a design and opens it in the editor. The
 * editor's Templates panel (Bonus tab) lists every template of every bundle.
 */
export function BonusTemplates({
  frozen,
  frozenHintId,
}: {
  frozen: boolean;
  frozenHintId: string;
}) {
  const navigate = useNavigate();
  const [bundles, setBundles] = useState<Bundle[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchBundles(null, controller.signal).then(
      (page) => setBundles(page.items),
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(actionFailure(failure));
      },
    );
    return () => controller.abort();
  }, [round]);

  async function start(templateId: string) {
    if (busy) return;
    setBusy(templateId);
    setActionError(null);
    try {
      const id = await createFromTemplate(templateId);
      navigate(`/pic-snippet/${encodeURIComponent(id)}/edit`);
    } catch (failure) {
      setActionError(actionFailure(failure));
      setBusy(null);
    }
  }

  if (error) {
    return (
      <LoadFailed
        title="Your Bonus templates could not be loaded"
        message={error}
        onRetry={() => {
          setError(null);
          setBundles(null);
          setRound((r) => r + 1);
        }}
      />
    );
  }
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

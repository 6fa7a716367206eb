import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { isApiError } from '../api/client.ts';
import { Notice, type NoticeTone } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { DesignNotFound } from '../features/dashboard/DesignNotFound.tsx';
import { LoadFailed } from '../features/dashboard/LoadFailed.tsx';
import { useCurrentTeam } from '../features/dashboard/useCurrentTeam.ts';
import { fetchExportDesign, fetchStoreFronts, type StoreFront } from '../features/export/api.ts';
import { ExportScreen } from '../features/export/ExportScreen.tsx';
import { opensFromSamePath, type ExportDesign } from '../features/export/model.ts';
import { actionFailure } from '../features/settings/formFailure.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { SignedInOnly } from './SettingsPage.tsx';
import '../features/export/export.css';

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; design: ExportDesign; storeFronts: StoreFront[] }
  | { state: 'error'; status: number; message: string };

/**
 * The export page, `/pic-snippet/{id}/export` (spec 001 §2 "Export screen"), opened in a new
 * window from the show page and the editor. When this window was opened by another window of
 * the same path (Keap's authorisation window coming back), that window reloads and this one
 * closes (spec 001 §4).
 */
export function ExportPage() {
  const { id = '' } = useParams();
  const [handingOver] = useState(() => handOverToOpener());
  if (handingOver) {
    return (
      <div className="container">
        <p role="status">Connected. This window closes now; the export screen reloads.</p>
      </div>
    );
  }
  return (
    <SignedInOnly>
      <ExportLoader key={id} id={id} />
    </SignedInOnly>
  );
}

/** Reloads the opener and closes this window when both show the export path (spec 001 §4). */
function handOverToOpener(): boolean {
  const opener = window.opener as Window | null;
  if (!opensFromSamePath(window.location, opener)) return false;
  opener!.location.reload();
  window.close();
  return true;
}

function ExportLoader({ id }: { id: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const { team } = useCurrentTeam();

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([
      fetchExportDesign(id, controller.signal),
      // The store fronts are optional: without them Klaviyo offers "None".
      fetchStoreFronts(controller.signal).catch(() => [] as StoreFront[]),
    ]).then(
      ([design, storeFronts]) => setLoaded({ state: 'ready', design, storeFronts }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({
          state: 'error',
          status: isApiError(error) ? error.status : 0,
          message: actionFailure(error),
        });
      },
    );
    return () => controller.abort();
  }, [id, round]);

  useDocumentTitle(
    loaded.state === 'ready'
      ? `Export ${loaded.design.title}`
      : loaded.state === 'error' && loaded.status === 404
        ? 'PicSnippet not found'
        : 'Export',
  );

  if (loaded.state === 'loading') {
    return (
      <div className="container">
        <p className="muted" role="status">
          <Spinner /> Opening the export screen…
        </p>
      </div>
    );
  }
  if (loaded.state === 'error') {
    if (loaded.status === 404) return <DesignNotFound />;
    return (
      <div className="container container--narrow">
        <LoadFailed
          title="The export screen could not be opened"
          message={loaded.message}
          onRetry={() => {
            setLoaded({ state: 'loading' });
            setRound((n) => n + 1);
          }}
        />
      </div>
    );
  }
  const { design, storeFronts } = loaded;
  return (
    <div className="container stack-lg">
      <header className="stack">
        <p>
          <Link to={`/pic-snippet/${encodeURIComponent(design.id)}`}>
            <span aria-hidden="true">← </span>Back to the PicSnippet
          </Link>
        </p>
        <h1 className="page-title">Export “{design.title}”</h1>
      </header>
      <KeapOutcome />
      <ExportScreen design={design} team={team} storeFronts={storeFronts} />
    </div>
  );
}

/** What the Keap window came back with (`?keap=`, functions/merge-tags/keap-oauth.ts). */
const KEAP_OUTCOMES: Record<string, { tone: NoticeTone; text: string }> = {
  connected: { tone: 'success', text: 'Keap is connected: its fields are listed for your team.' },
  denied: { tone: 'info', text: 'Keap was not connected: the authorisation was declined.' },
  failed: { tone: 'error', text: 'Keap did not accept the authorisation. Try connecting again.' },
  unavailable: {
    tone: 'info',
    text: 'Keap cannot be connected on this installation; its standard fields are offered.',
  },
};

/**
 * The outcome of Keap's authorisation, when this window is where it came back to and no export
 * window of the same path was there to take it over (spec 001 §4).
 */
function KeapOutcome() {
  const [params] = useSearchParams();
  const outcome = KEAP_OUTCOMES[params.get('keap') ?? ''];
  if (!outcome) return null;
  return (
    <Notice tone={outcome.tone} title="Keap">
      {outcome.text}
    </Notice>
  );
}

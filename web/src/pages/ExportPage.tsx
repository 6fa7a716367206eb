import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Notice, type NoticeTone } from '../components/Notice.tsx';
import { DesignLoadState, useDesignLoad } from '../features/dashboard/useDesignLoad.tsx';
import { useCurrentTeam } from '../hooks/useCurrentTeam.ts';
import { fetchExportDesign, fetchStoreFronts, type StoreFront } from '../features/export/api.ts';
import { ExportScreen } from '../features/export/ExportScreen.tsx';
import { opensFromSamePath, withTeamPlatform } from '../features/export/model.ts';
import { fetchCurrentTeam } from '../api/designs.ts';
import { parameterNames } from '../features/send-lists/model.ts';
import { SendListSection } from '../features/send-lists/SendListSection.tsx';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import '../features/export/export.css';

/**
 * The export page, `/pic-snippet/{id}/export` (docs/accounts.md "Screens": "Export screen"), opened
 * in a new window from the show page and the editor. When this window was opened by another window
 * of the same path (Keap's authorisation window coming back), that window reloads and this one
 * closes (docs/billing.md "Flows").
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

/** Reloads the opener and closes this window when both show the export path (docs/billing.md "Flows"). */
function handOverToOpener(): boolean {
  const opener = window.opener as Window | null;
  if (!opensFromSamePath(window.location, opener)) return false;
  opener!.location.reload();
  window.close();
  return true;
}

/**
 * The design, with the team's last platform when it was never exported (model.ts
 * `withTeamPlatform`), and the store fronts (optional: without them Klaviyo offers "None").
 */
async function loadExport(id: string, signal: AbortSignal) {
  const [design, storeFronts, team] = await Promise.all([
    fetchExportDesign(id, signal),
    fetchStoreFronts(signal).catch(() => [] as StoreFront[]),
    fetchCurrentTeam(signal).catch(() => null),
  ]);
  return { ...withTeamPlatform(design, team), storeFronts };
}

function ExportLoader({ id }: { id: string }) {
  const { team } = useCurrentTeam();
  const { loaded, retry } = useDesignLoad(
    'export',
    id,
    loadExport,
    { pending: 'Export', ready: ({ design }) => `Export ${design.title}` },
    { once: true },
  );
  if (loaded.state !== 'ready') {
    return (
      <DesignLoadState
        loaded={loaded}
        retry={retry}
        loadingText="Opening the export screen…"
        failedTitle="The export screen could not be opened"
      />
    );
  }
  const { design, fromTeam, storeFronts } = loaded.data;
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
      <ExportScreen
        design={design}
        team={team}
        storeFronts={storeFronts}
        platformFromTeam={fromTeam}
      />
      <SendListSection designId={design.id} parameters={parameterNames(design)} />
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
 * window of the same path was there to take it over (docs/billing.md "Flows").
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

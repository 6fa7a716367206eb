import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { isApiError } from '../api/client.ts';
import { Spinner } from '../components/Spinner.tsx';
import { DesignNotFound } from '../features/dashboard/DesignNotFound.tsx';
import { LoadFailed } from '../features/dashboard/LoadFailed.tsx';
import { fetchEditorDesign } from '../features/editor/api.ts';
import { Editor } from '../features/editor/Editor.tsx';
import type { LoadedDesign } from '../features/editor/store/designSlice.ts';
import { actionFailure } from '../features/settings/formFailure.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { SignedInOnly } from './SettingsPage.tsx';

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; loaded: LoadedDesign }
  | { state: 'error'; status: number; message: string };

/**
 * The editor page, `/pic-snippet/{id}/edit` (spec 000 §2 routes): loads the design (a spinner
 * while it loads, a not-found state for a design that is not the current team's, a failure
 * with Retry), then opens the editor on it.
 */
export function EditorPage() {
  const { id = '' } = useParams();
  return (
    <SignedInOnly>
      <EditorLoader key={id} id={id} />
    </SignedInOnly>
  );
}

function EditorLoader({ id }: { id: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchEditorDesign(id, controller.signal).then(
      (design) => setLoaded({ state: 'ready', loaded: design }),
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
      ? `Edit ${loaded.loaded.meta.title}`
      : loaded.state === 'error' && loaded.status === 404
        ? 'PicSnippet not found'
        : 'Editor',
  );

  if (loaded.state === 'loading') {
    return (
      <div className="container">
        <p className="muted" role="status">
          <Spinner /> Opening the editor…
        </p>
      </div>
    );
  }
  if (loaded.state === 'error') {
    if (loaded.status === 404) return <DesignNotFound />;
    return (
      <div className="container container--narrow">
        <LoadFailed
          title="This PicSnippet could not be opened"
          message={loaded.message}
          onRetry={() => {
            setLoaded({ state: 'loading' });
            setRound((n) => n + 1);
          }}
        />
      </div>
    );
  }
  return <Editor loaded={loaded.loaded} />;
}

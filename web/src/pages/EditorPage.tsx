import { useParams } from 'react-router-dom';
import { DesignLoadState, useDesignLoad } from '../features/dashboard/useDesignLoad.tsx';
import { Editor } from '../features/editor/LazyEditor.tsx';
import { fetchAndPreloadDesign } from '../features/editor/preload.ts';
import { SignedInOnly } from '../components/SignedInOnly.tsx';

/**
 * The editor page, `/pic-snippet/{id}/edit` (docs/adr/0020-dashboard-spa.md "Dashboard SPA"
 * routes): loads the design (a spinner while it loads, a not-found state for a design that is not
 * the current team's, a failure with Retry), then opens the editor on it.
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
  const { loaded, retry } = useDesignLoad(
    'editor',
    id,
    fetchAndPreloadDesign,
    { pending: 'Editor', ready: (design) => `Edit ${design.meta.title}` },
    { once: true },
  );
  if (loaded.state !== 'ready') {
    return (
      <DesignLoadState
        loaded={loaded}
        retry={retry}
        loadingText="Opening the editor…"
        failedTitle="This PicSnippet could not be opened"
      />
    );
  }
  return <Editor loaded={loaded.data} />;
}

import { Spinner } from '../../components/Spinner.tsx';
import type { SaveState } from './useSave.ts';

/** Save status of one call, announced politely. */
export function SaveStatus({ save, what }: { save: SaveState; what: string }) {
  return (
    <p className="small export-save" role="status" aria-live="polite">
      {save.state === 'saving' && (
        <>
          <Spinner /> Saving the {what}…
        </>
      )}
      {save.state === 'saved' && <span className="export-save--saved">✓ {what} saved</span>}
      {save.state === 'failed' && (
        <span className="export-save--failed">
          <span aria-hidden="true">! </span>
          The {what} was not saved: {save.message}
        </span>
      )}
    </p>
  );
}

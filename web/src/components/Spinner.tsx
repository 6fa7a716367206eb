/** A small spinning ring; decorative, so say what is loading in text next to it. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}

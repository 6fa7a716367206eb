/** "OK" or "Down" with an icon and a colour; the word carries the meaning, not the colour. */
export function StatusBadge({ ok }: { ok: boolean }) {
  return (
    <span className={`badge ${ok ? 'badge--ok' : 'badge--down'}`}>
      <span aria-hidden="true">{ok ? '✓' : '✕'}</span>
      {ok ? 'OK' : 'Down'}
    </span>
  );
}

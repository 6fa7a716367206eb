/**
 * An upload's progress bar, shown while a file is being sent (nothing when `progress` is
 * null). `progress` is the share of bytes sent, 0–1.
 */
export function UploadProgressBar({ progress }: { progress: number | null }) {
  if (progress === null) return null;
  return (
    <progress
      className="photo-upload__progress"
      max={1}
      value={progress}
      aria-label="Upload progress"
    />
  );
}

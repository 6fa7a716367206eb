import { useEffect, useRef } from 'react';

/** A GIF address: `….gif`, before any query or fragment (one pass, no backtracking). */
const GIF_URL = /\.gif(?:[?#]|$)/i;

/** The longest side a still is drawn at, px: thumbnails are small, GIFs may be 1000 px. */
const MAX_STILL_SIDE = 256;

/**
 * An image shown still, for thumbnails of animated GIF stickers and photos
 * (docs/editor.md "Animated GIF stickers": only the canvas and the toolbar's Play animate a
 * GIF): a GIF's first frame drawn on a canvas of at most 256 px a side (an `<img>` would play
 * it), any other address an `<img>`. The canvas is named by `alt` (`role="img"`), or hidden
 * from assistive technology when `alt` is empty, as the `<img>` would be.
 * @param src the image's address (same origin or CORS-enabled: the canvas is never read).
 * @param alt its text alternative; '' for a decorative thumbnail.
 */
export function StillImage({
  src,
  alt,
  className,
}: {
  src: string;
  alt: string;
  className?: string;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const gif = GIF_URL.test(src);
  useEffect(() => {
    if (!gif) return;
    let live = true;
    const image = new Image();
    image.onload = () => {
      const canvas = ref.current;
      if (!live || !canvas || image.naturalWidth === 0) return;
      const k = Math.min(1, MAX_STILL_SIDE / Math.max(image.naturalWidth, image.naturalHeight));
      canvas.width = Math.max(1, Math.round(image.naturalWidth * k));
      canvas.height = Math.max(1, Math.round(image.naturalHeight * k));
      // drawImage of an animated image draws its first frame (the HTML canvas rule).
      canvas.getContext('2d')?.drawImage(image, 0, 0, canvas.width, canvas.height);
    };
    image.src = src;
    return () => {
      live = false;
    };
  }, [gif, src]);
  if (!gif) return <img className={className} src={src} alt={alt} />;
  return alt ? (
    <canvas ref={ref} className={className} role="img" aria-label={alt} />
  ) : (
    <canvas ref={ref} className={className} aria-hidden="true" />
  );
}

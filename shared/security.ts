/**
 * The Content-Security-Policy of the SPA's documents (issue: accounts §1: "CSP with object-src
 * 'none', frame-ancestors"), set by CloudFront's response headers policy in AWS and by the local
 * gateway when it serves the built SPA. API answers carry their own stricter policy
 * (functions/lib/http.ts). Images may come from https sources (stock photos, avatars, hosted
 * images in the editor); scripts only from the product's origin.
 */
export const SPA_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * The Content-Security-Policy of user files (`/files/*`: photos and uploads). An uploaded file
 * is only ever an image for `<img>`; `sandbox` and `default-src 'none'` stop it from running
 * script or loading anything even if a browser is persuaded to open it as a document.
 */
export const USER_FILES_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";

/**
 * The Content-Security-Policy of the SPA's documents (issue: accounts §1: "CSP with object-src
 * 'none', frame-ancestors"), set by CloudFront's response headers policy in AWS and by the local
 * gateway when it serves the built SPA. API answers carry their own stricter policy
 * (functions/lib/http.ts). Images may come from https sources (stock photos, avatars, hosted
 * images in the editor); scripts only from the product's origin and Stripe.js.
 *
 * Stripe (issue: billing; Stripe's "Content Security Policy" guide for Stripe.js and the
 * Payment Element): the script from js.stripe.com, its frames from js.stripe.com and
 * hooks.stripe.com (3-D Secure), and its calls to api.stripe.com. Stripe.js is only loaded once
 * the server hands out a publishable key, so an offline server never contacts Stripe.
 */
export const STRIPE_CSP = {
  script: 'https://js.stripe.com',
  frame: 'https://js.stripe.com https://hooks.stripe.com',
  connect: 'https://api.stripe.com',
} as const;

/** The SPA documents' policy (see above). */
export const SPA_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' ${STRIPE_CSP.script}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  `connect-src 'self' ${STRIPE_CSP.connect}`,
  `frame-src 'self' ${STRIPE_CSP.frame}`,
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

/**
 * The render feature's public door for send lists (docs/send-lists.md "The job"): one
 * recipient URL pre-rendered through the render function's own service and caches
 * (handler.ts `prerenderRequest`).
 */
export { prerenderRequest } from './handler.ts';

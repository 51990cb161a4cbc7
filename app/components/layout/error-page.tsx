import { lazy } from 'react';

/**
 * The error page, fetched when a page fails rather than carried by every page's shell
 * (docs/decisions/0104-javascript-budget-after-the-console.md). No Suspense boundary wraps it:
 * the server waits for it before sending the page, hydration keeps the server's HTML until it
 * arrives, and a navigation that fails keeps the previous page on screen meanwhile.
 */
export const RouteErrorPage = lazy(() =>
  import('./route-error-page').then((module) => ({ default: module.RouteErrorPage })),
);

/**
 * Runs before every test file. In the app's (jsdom) suites, waiting for what a user would see
 * gives up after 5 s instead of Testing Library's 1 s: the full run shares two cores between
 * server and app suites, and a screen that appears in 1.5 s there is not a failure.
 */
if (typeof window !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 5000 });
}

export {};

/**
 * The polygon rules live in `src/lib/polygon.ts`, shared with the app so both refuse the same
 * polygons with the same messages. This is the server's only door to that file (see the
 * exception in eslint.config.js); server code imports the rules from here.
 */
export * from '../../src/lib/polygon';

/**
 * The configuration rules live in `src/lib/workerConfiguration.ts`, shared with the app's
 * configuration editor so both refuse the same values with the same messages. This is the
 * server's only door to that file (see the exception in eslint.config.js).
 */
export * from '../../../src/lib/workerConfiguration';

/**
 * Entry point bundled to dist/tools/harness.js for jest's global setup, which runs outside jest's module
 * mapping: it gets infrastructure and stack control from one prebuilt file.
 */
export { freePort, startInfra } from '@gl/infra';
export type { InfraHandle } from '@gl/infra';
export { startStack } from './stack';
export type { RunningStack } from './stack';

import { INTENDED_SCANS } from './intended-scans';
import { formatScans, readScanReport, unexpectedScans } from './scan-report';

/**
 * Stops what the projects' global setups started, in reverse order, then fails the run when the stack's
 * database read a whole table for a query shape that intended-scans.ts does not explain. Every project
 * with a setup names this teardown, and jest runs each: what is stopped or checked once is forgotten.
 */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__GL_STACK__?.stop();
  await globalThis.__GL_STACK_INFRA__?.stop();
  await globalThis.__GL_INFRA__?.stop();
  globalThis.__GL_STACK__ = undefined;
  globalThis.__GL_STACK_INFRA__ = undefined;
  globalThis.__GL_INFRA__ = undefined;

  const report = globalThis.__GL_SCAN_REPORT__;
  globalThis.__GL_SCAN_REPORT__ = undefined;
  if (report === undefined) return;
  const scans = readScanReport(report);
  const unexpected = unexpectedScans(scans, INTENDED_SCANS);
  process.stdout.write(
    `scan report: ${scans.length} query shapes read a whole table, ${unexpected.length} not intended (${report})\n`,
  );
  if (unexpected.length > 0) {
    throw new Error(
      `${unexpected.length} query shapes read a whole collection; give them an index, or list them with a ` +
        `reason in libs/testing/src/jest/intended-scans.ts:\n${formatScans(unexpected)}`,
    );
  }
}

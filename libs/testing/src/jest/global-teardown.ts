import { INTENDED_SCANS } from './intended-scans';
import { formatScans, readScanReport, unexpectedScans } from './scan-report';

/**
 * Stops what global setup started, in reverse order (both stops are idempotent), then fails the run when
 * the stack's database read a whole table for a query shape that intended-scans.ts does not explain.
 */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__GL_STACK__?.stop();
  await globalThis.__GL_STACK_INFRA__?.stop();
  await globalThis.__GL_INFRA__?.stop();

  const report = globalThis.__GL_SCAN_REPORT__;
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

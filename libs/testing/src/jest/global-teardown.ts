/** Stops what global setup started, in reverse order; both stops are idempotent. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__GL_STACK__?.stop();
  await globalThis.__GL_STACK_INFRA__?.stop();
  await globalThis.__GL_INFRA__?.stop();
}

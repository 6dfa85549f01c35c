import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { createWriteFence } from './write-fence';

/** A request through the middleware: resolves `passed` when it goes on; `answer()` ends it. */
function send(fence: ReturnType<typeof createWriteFence>, method: string) {
  const res = new EventEmitter();
  let passed = false;
  fence.middleware(
    { method } as Request,
    res as unknown as Response,
    (() => {
      passed = true;
    }) as NextFunction,
  );
  return { passed: () => passed, answer: () => res.emit('close') };
}

const quiet = { held: () => undefined, lifted: () => undefined };

describe('write fence', () => {
  it('When the fence stands, then writes wait and reads pass; lifted, the writes go on', async () => {
    const fence = createWriteFence(quiet);
    const { id, drained } = await fence.hold(60_000, 1_000);
    expect(drained).toBe(true);
    const read = send(fence, 'GET');
    const write = send(fence, 'POST');
    const remove = send(fence, 'DELETE');
    expect([read.passed(), write.passed(), remove.passed()]).toEqual([true, false, false]);
    expect(fence.state()).toMatchObject({ held: true, waiting: 2 });
    expect(fence.release(id)).toMatchObject({ heldRequests: 2 });
    expect([write.passed(), remove.passed()]).toEqual([true, true]);
    expect(fence.release(id)).toBeNull();
  });

  it('When writes are in flight, then raising the fence waits for their answers', async () => {
    const fence = createWriteFence(quiet);
    const first = send(fence, 'PUT');
    const second = send(fence, 'POST');
    let raised = false;
    const holding = fence.hold(60_000, 5_000).then((r) => ((raised = true), r));
    first.answer();
    await new Promise((r) => setImmediate(r));
    expect(raised).toBe(false);
    second.answer();
    expect(await holding).toMatchObject({ drained: true, inFlight: 0 });
    await expect(fence.hold(1_000, 1_000)).rejects.toThrow(/already stands/);
  });

  it('When a write does not finish within the drain time, then the fence is lifted and no moment is claimed', async () => {
    const fence = createWriteFence(quiet);
    send(fence, 'POST');
    const held = await fence.hold(60_000, 20);
    expect(held).toMatchObject({ drained: false, inFlight: 1 });
    expect(fence.state().held).toBe(false);
    expect(send(fence, 'POST').passed()).toBe(true);
  });

  it('When the fence outlives its time-to-live, then it lifts by itself', async () => {
    const fence = createWriteFence(quiet);
    await fence.hold(30, 1_000);
    const write = send(fence, 'PATCH');
    expect(write.passed()).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(write.passed()).toBe(true);
    expect(fence.state().held).toBe(false);
  });
});

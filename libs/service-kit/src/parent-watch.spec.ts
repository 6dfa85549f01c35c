import { watchParent } from './parent-watch';

describe('watchParent', () => {
  it('When the parent is still the one that started us, then nothing happens', async () => {
    const onGone = jest.fn();
    const stop = watchParent(process.ppid, onGone, 10);
    await new Promise((r) => setTimeout(r, 50));
    stop();
    expect(onGone).not.toHaveBeenCalled();
  });

  it('When the process has been re-parented, then the callback fires once', async () => {
    const onGone = jest.fn();
    watchParent(process.ppid + 1_000_000, onGone, 10);
    await new Promise((r) => setTimeout(r, 60));
    expect(onGone).toHaveBeenCalledTimes(1);
  });
});

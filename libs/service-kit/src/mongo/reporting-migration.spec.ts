import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { reportingMigration } from './migrations';

describe('reportingMigration', () => {
  it('When the step runs, then it runs once on the connection and logs its report with how long it took', async () => {
    const connection = {} as Connection;
    const info = jest.fn();
    const logger = { info } as unknown as Logger;
    const run = jest.fn(async () => ({ filled: 3, dropped: ['old_1'] }));
    const step = reportingMigration(4, 'noteables: a field filled', 'noteables: filled', run);

    expect(step).toMatchObject({ version: 4, name: 'noteables: a field filled' });
    await step.up(connection, logger);

    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith(connection, logger);
    expect(info).toHaveBeenCalledTimes(1);
    const [fields, message] = info.mock.calls[0] as [Record<string, unknown>, string];
    expect(message).toBe('noteables: filled');
    expect(Object.keys(fields)).toEqual(['ms', 'filled', 'dropped']);
    expect(fields).toMatchObject({ filled: 3, dropped: ['old_1'] });
    expect(fields.ms).toBeGreaterThanOrEqual(0);
  });
});

import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo } from '@gl/service-kit';
import { testEnv } from './env';

export interface TestDatabase {
  connection: Connection;
  name: string;
  /** Drops the database and closes the connection. */
  drop(): Promise<void>;
}

/** A fresh database per test file on the shared server, so suites can run in parallel. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `t_${label.replace(/[^a-z0-9]/gi, '_')}_${randomBytes(4).toString('hex')}`;
  const connection = await connectMongo(testEnv('mongoUrl'), name);
  return {
    connection,
    name,
    async drop() {
      await connection.dropDatabase().catch(() => undefined);
      await connection.close();
    },
  };
}

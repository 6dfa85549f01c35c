import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip, type Gzip } from 'node:zlib';

/** A gzipped JSON-lines file written with back-pressure: memory holds one buffer, not the collection. */
export interface LineWriter {
  write(line: string): Promise<void>;
  /** Resolves with the file's size once it is on disk. */
  close(): Promise<number>;
}

export function openLineWriter(path: string): LineWriter {
  const gzip: Gzip = createGzip({ level: 6 });
  const file: WriteStream = createWriteStream(path);
  gzip.pipe(file);
  return {
    async write(line) {
      if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
    },
    async close() {
      gzip.end();
      await once(file, 'close');
      return file.bytesWritten;
    },
  };
}

/** The lines of a gzipped JSON-lines file, one at a time. */
export function readLines(path: string): AsyncIterable<string> {
  const input = createReadStream(path).pipe(createGunzip());
  return createInterface({ input, crlfDelay: Infinity });
}

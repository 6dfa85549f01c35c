export interface InfraHandle {
  mongoUrl: string;
  natsUrl: string;
  source: 'env' | 'docker' | 'local';
  stop(): Promise<void>;
  /** Fault injection for the broker (local mode only): crash it, then bring it back on the same port and store. */
  faults?: {
    killNats(): Promise<void>;
    restartNats(): Promise<void>;
  };
}

export interface StartInfraOptions {
  /** Repository root (holds tools/ferretdb, tools/nats-server; binaries go to <root>/.cache/bin). */
  rootDir: string;
  /** Local-mode state: SQLite files, JetStream store, logs, pid files. E.g. <root>/.data/dev or .data/test. */
  dataDir: string;
  /** Wipe dataDir before starting. */
  fresh?: boolean;
  /** Progress output; silent when omitted. */
  log?: (line: string) => void;
  /**
   * Local mode: FerretDB appends every query shape it answers by reading a whole table to this file, one
   * JSON line per shape (our FerretDB patch 0003-full-scan-report).
   */
  scanReport?: string;
}

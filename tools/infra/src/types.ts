export interface InfraHandle {
  mongoUrl: string;
  natsUrl: string;
  source: 'env' | 'docker' | 'local';
  stop(): Promise<void>;
  /**
   * Fault injection for the broker (local mode only): crash a node (kill -9), then bring it back on the
   * same ports and store. `node` counts from 0 (the default, the only one without a cluster).
   */
  faults?: {
    /** How many nats-servers there are: 1, or the cluster's size (natsNodes). */
    natsNodes: number;
    killNats(node?: number): Promise<void>;
    restartNats(node?: number): Promise<void>;
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
  /**
   * Local mode: nats-servers to run, 1 (default) or a JetStream cluster of 3 or 5 on loopback (`natsUrl`
   * then names every node). The services need NATS_STREAM_REPLICAS to keep the stream on several nodes.
   */
  natsNodes?: number;
}

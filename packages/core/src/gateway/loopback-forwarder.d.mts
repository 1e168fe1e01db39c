/** Types of loopback-forwarder.mjs (plain JavaScript, so a sandbox can run it with node). */
export type LoopbackForwarder = {
  /** The port it listens on (the one asked for, or the one picked for 0). */
  port: number;
  close(): Promise<void>;
};

export declare const createLoopbackForwarder: (options: {
  listenPort: number;
  socketPath: string;
  host?: string;
}) => Promise<LoopbackForwarder>;

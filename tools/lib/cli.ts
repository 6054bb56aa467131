/**
 * What the two command-line tools share: where their output goes (so tests run
 * them in process), and the usage error that ends a run with status 2.
 */

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Where the progress line may be drawn; none in tests. */
  readonly progress?: NodeJS.WriteStream;
}

export const standardIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progress: process.stderr,
};

/** A bad flag, config or path: the run stops before replaying anything. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Runs `step`, turning any error it throws into a {@link UsageError}. */
export function asUsage<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Runs a tool's body: a usage error prints the message and the usage text, status 2. */
export async function runCli(tool: string, usage: string, io: Io, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${tool}: ${error.message}\n\n${usage}`);
    return 2;
  }
}

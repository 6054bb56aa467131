/**
 * The progress line: on stderr, rewritten in place, only for a run of more than
 * `MANY` files and only when stderr is a terminal (a log file or a pipe gets no
 * carriage-return noise). Redrawn at most every 100 ms; erased at the end.
 */
export const MANY = 20;

export function progressLine(
  verb: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): ((done: number, total: number) => void) | undefined {
  if (total <= MANY || stream.isTTY !== true) return undefined;
  let drawn = 0;
  return (done) => {
    const now = Date.now();
    if (done < total && now - drawn < 100) return;
    drawn = now;
    stream.write(done < total ? `\r${verb} ${done}/${total} files` : '\r\u001b[K');
  };
}

/**
 * A scripted local web site for the tools to fetch, so sessions that "browse"
 * never leave the machine: it listens on 127.0.0.1 only, answers every request
 * from a route function, records what was asked for (with the `Host` header
 * the client sent, since commands reach it under made-up names through curl's
 * `--connect-to`), and closes itself after `maxSeconds`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Page {
  readonly status: number;
  readonly body: string;
}

export interface Hit {
  readonly host: string;
  readonly path: string;
  readonly status: number;
}

export interface Site {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  hits(): Hit[];
  close(): Promise<void>;
}

export async function startSite(route: (url: URL) => Page, options: { maxSeconds?: number } = {}): Promise<Site> {
  const hits: Hit[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host ?? '';
    const url = new URL(req.url ?? '/', `http://${host === '' ? '127.0.0.1' : host}`);
    const page = route(url);
    hits.push({ host: url.hostname, path: `${url.pathname}${url.search}`, status: page.status });
    res.writeHead(page.status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(page.body);
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      clearTimeout(timer);
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  const timer = setTimeout(() => void close(), (options.maxSeconds ?? 300) * 1000);
  timer.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, hits: () => [...hits], close };
}

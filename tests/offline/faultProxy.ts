import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultRates {
  /** Connection closed before the request reaches the server. */
  drop: number;
  /** 503 without reaching the server. */
  unavailable: number;
  /** The server applies the request; the answer is cut off on its way back. */
  lostAnswer: number;
  /** Up to this many ms added before forwarding. */
  maxLatencyMs: number;
}

/**
 * A proxy between a client and the real server, over real sockets, that drops connections,
 * answers 503, loses answers after the server applied the request, and adds latency.
 */
export async function startFaultProxy(
  target: number,
  rates: FaultRates,
  rand: () => number,
): Promise<{ port: number; counts: Record<string, number>; close: () => Promise<void> }> {
  const counts = { forwarded: 0, drop: 0, unavailable: 0, lostAnswer: 0 };
  const server = http.createServer((req, res) => {
    const roll = rand();
    if (roll < rates.drop) {
      counts.drop += 1;
      req.socket.destroy();
      return;
    }
    if (roll < rates.drop + rates.unavailable) {
      counts.unavailable += 1;
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"type":"server_error","errors":[]}');
      return;
    }
    const lose = roll < rates.drop + rates.unavailable + rates.lostAnswer;
    setTimeout(
      () => {
        const upstream = http.request(
          {
            host: '127.0.0.1',
            port: target,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            counts.forwarded += 1;
            if (lose) {
              counts.lostAnswer += 1;
              answer.resume();
              answer.on('end', () => req.socket.destroy());
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => req.socket.destroy());
        req.pipe(upstream);
      },
      Math.floor(rand() * rates.maxLatencyMs),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

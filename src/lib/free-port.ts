import net, { type AddressInfo } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for servers that tests and benchmarks start as child processes). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

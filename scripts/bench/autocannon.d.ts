// Minimal types for the parts of autocannon the search bench uses (the package ships none).
declare module 'autocannon' {
  interface Result {
    latency: { p50: number; p99: number };
    requests: { average: number; total: number };
    errors: number;
    non2xx: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: { method?: string; setupRequest?: (req: Record<string, unknown>) => Record<string, unknown> }[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}

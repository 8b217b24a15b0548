// autocannon ships no types; the bench uses this much of it.
declare module 'autocannon' {
  namespace autocannon {
    interface TRequest {
      method: 'GET' | 'POST';
      path: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface TClient {
      setRequests(requests: TRequest[]): void;
    }
    interface TResult {
      latency: { p50: number; p90: number; p99: number; max: number };
      requests: { average: number };
      non2xx: number;
    }
  }
  function autocannon(options: {
    url: string;
    connections: number;
    duration: number;
    requests: autocannon.TRequest[];
    /** called once per connection: lets each connection send its own requests */
    setupClient?: (client: autocannon.TClient) => void;
  }): Promise<autocannon.TResult>;
  export default autocannon;
}

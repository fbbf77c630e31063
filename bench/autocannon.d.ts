// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module "autocannon" {
  namespace autocannon {
    type Options = {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      headers?: Record<string, string>;
      method?: string;
      body?: string;
      /** Requests cycled through; setupRequest may rewrite each one before it is sent. */
      requests?: Request[];
    };
    type Request = { method?: string; path?: string; body?: string; headers?: Record<string, string>; setupRequest?: (req: Request) => Request };
    type Result = { errors: number; timeouts: number; duration: number; non2xx: number; requests: { total: number; average: number } };
    interface Instance {
      on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    }
  }
  function autocannon(opts: autocannon.Options, cb: (err: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export default autocannon;
}

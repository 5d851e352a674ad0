/** An HTTP client over a scripted transport and a fake clock, for unit tests of the API client. */
import type { AxiosAdapter } from "axios";
import { createHttpClient, type HttpClientOptions } from "../../provider/http";
import type { FakeClock } from "./fake-clock";

/** The API key the scripted clients send (long enough to be redacted from every message). */
export const SCRIPTED_API_KEY = "napi_unit_test_secret_0123456789abcdef";

/** The HTTP client over `adapter`, on `clock`'s time, sleeps and randomness. */
export function httpOver(adapter: AxiosAdapter, clock: FakeClock, extra: Partial<HttpClientOptions> = {}) {
  return createHttpClient({
    apiKey: SCRIPTED_API_KEY,
    baseUrl: "http://api.test/api/v2",
    adapter,
    now: clock.now,
    sleep: clock.sleep,
    random: clock.random,
    ...extra,
  });
}

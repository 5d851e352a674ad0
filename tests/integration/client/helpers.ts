/**
 * Helpers for client ↔ emulator tests: a client on the emulator with optional
 * extra headers (the emulator's `X-Emulator-Fault`) and settings, and a raw
 * request for setup calls the typed client does not offer, and the ApiError a call fails with.
 */
import axios from "axios";
import { createHttpClient, type HttpClientOptions, type RetryInfo } from "../../../provider/http";
import { ApiError, buildClient, type NeonClient } from "../../../provider/api";
import type { EmulatorHandle } from "../../../emulator";

export function clientFor(
  emu: EmulatorHandle,
  opts: Partial<HttpClientOptions> & { fault?: string } = {},
): { api: NeonClient; retries: RetryInfo[] } {
  const retries: RetryInfo[] = [];
  const { fault, ...rest } = opts;
  const http = createHttpClient({
    apiKey: emu.apiKey,
    baseUrl: emu.url,
    onRetry: (i) => retries.push(i),
    headers: fault ? { "X-Emulator-Fault": fault } : undefined,
    ...rest,
  });
  return { api: buildClient(http), retries };
}

/** A raw call to the emulator (setup only). */
export async function raw<T = unknown>(
  emu: EmulatorHandle,
  method: string,
  path: string,
  body?: unknown,
  key = emu.apiKey,
): Promise<{ status: number; data: T }> {
  const res = await axios.request({
    method,
    url: emu.url + path,
    data: body,
    headers: key ? { Authorization: `Bearer ${key}` } : {},
    validateStatus: () => true,
  });
  return { status: res.status, data: res.data as T };
}

/** The {@link ApiError} a call fails with (the test fails when it succeeds or throws another error). */
export async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

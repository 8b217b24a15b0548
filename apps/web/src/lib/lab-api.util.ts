import {
  ZExecResponse,
  ZLabCheckResponse,
  ZLabListResponse,
  ZLabView,
  ZScenarioListResponse,
  type TClockRequest,
  type TExecResponse,
  type TLabCheckResponse,
  type TLabListResponse,
  type TLabView,
  type TScenarioListResponse,
} from '@kubejourney/contracts';
import { callApi, type TApiFailure, type TApiResult } from './api-client.util';

// The browser's calls to the labs API (libs/contracts/src/labs.ts), all through our own origin.

/**
 * exec's answer: the output, the shell's prompt after the command (it follows `ssh node-1`, `cd`),
 * and the file to open when the command asks for an editor (`vi FILE`, `kubectl edit`).
 */
export type TOpenEditor = NonNullable<TExecResponse['openEditor']>;
export type TLabExecResult = TExecResponse;

function readOpenEditor(value: unknown): TOpenEditor | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { path, host, afterSave } = value as Record<string, unknown>;
  if (typeof path !== 'string' || typeof host !== 'string') return undefined;
  return typeof afterSave === 'string' ? { path, host, afterSave } : { path, host };
}

/** ZExecResponse (which drops unknown keys), plus the two optional extras when well-formed. */
export const ZLabExecResult = {
  safeParse(input: unknown): { success: true; data: TLabExecResult } | { success: false } {
    const parsed = ZExecResponse.safeParse(input);
    if (!parsed.success) return { success: false };
    const extra = input as Record<string, unknown>;
    const openEditor = readOpenEditor(extra.openEditor);
    return {
      success: true,
      data: {
        ...parsed.data,
        ...(typeof extra.prompt === 'string' ? { prompt: extra.prompt } : {}),
        ...(openEditor ? { openEditor } : {}),
      },
    };
  },
};

const base = (id: string) => `/api/labs/${encodeURIComponent(id)}`;

export function listLabs(): Promise<TApiResult<TLabListResponse>> {
  return callApi('/api/labs', { method: 'GET', schema: ZLabListResponse });
}

export function createSandboxLab(): Promise<TApiResult<TLabView>> {
  return callApi('/api/labs', { method: 'POST', body: { kind: 'sandbox' }, schema: ZLabView });
}

/** A scenario lab arrives already broken: the learner's job is to find out what and fix it. */
export function createScenarioLab(scenarioId: string): Promise<TApiResult<TLabView>> {
  return callApi('/api/labs', {
    method: 'POST',
    body: { kind: 'scenario', scenarioId },
    schema: ZLabView,
  });
}

export function listScenarios(): Promise<TApiResult<TScenarioListResponse>> {
  return callApi('/api/labs/scenarios', { method: 'GET', schema: ZScenarioListResponse });
}

/** Grades the scenario on the server; every call is recorded as a new attempt. */
export function checkLabScenario(id: string): Promise<TApiResult<TLabCheckResponse>> {
  return callApi(`${base(id)}/check`, { method: 'POST', schema: ZLabCheckResponse });
}

export function deleteLab(id: string): Promise<TApiResult<undefined>> {
  return callApi(base(id), { method: 'DELETE' });
}

export function getLab(id: string): Promise<TApiResult<TLabView>> {
  return callApi(base(id), { method: 'GET', schema: ZLabView });
}

export function execInLab(
  id: string,
  command: string,
  signal?: AbortSignal,
): Promise<TApiResult<TLabExecResult>> {
  return callApi(
    `${base(id)}/exec`,
    { method: 'POST', body: { command }, schema: ZLabExecResult },
    (input, init) => fetch(input, { ...init, signal }),
  );
}

export function changeLabClock(id: string, request: TClockRequest): Promise<TApiResult<TLabView>> {
  return callApi(`${base(id)}/clock`, { method: 'POST', body: request, schema: ZLabView });
}

export function resetLab(id: string): Promise<TApiResult<TLabView>> {
  return callApi(`${base(id)}/reset`, { method: 'POST', schema: ZLabView });
}

export type TLabErrorMessages = {
  errorUnauthenticated: string;
  errorNotFound: string;
  errorRateLimited: string;
  errorUnavailable: string;
  errorNetwork: string;
  errorUnexpected: string;
};

/** One sentence saying what went wrong and what to do; the API's own message when it has one. */
export function describeLabFailure(error: TApiFailure, messages: TLabErrorMessages): string {
  const fill = (text: string, values: Record<string, string | number>) =>
    text.replace(/\{(\w+)\}/g, (all, key: string) => String(values[key] ?? all));
  if (error.kind === 'network') return messages.errorNetwork;
  if (error.kind === 'unexpected') return fill(messages.errorUnexpected, { status: error.status });
  if (error.status === 401) return messages.errorUnauthenticated;
  if (error.status === 404) return messages.errorNotFound;
  if (error.status === 429 && error.code === 'RATE_LIMITED') {
    return fill(messages.errorRateLimited, { seconds: error.retryAfterSeconds ?? 1 });
  }
  if (error.status === 503) return `${messages.errorUnavailable} (${error.message})`;
  return error.message;
}
